/**
 * The official Python MCP client (`mcp` on PyPI, 2.3: handshake versions and the stateless 2026-07-28 revision)
 * against the bundled mcp-weather scenario, on both runtimes. Runs with the Python named by MCP_PYTHON, else the
 * Python suite's cached venv (scripts/python-venv.sh makes it, installing `mcp` when pip can reach it), when that
 * Python can `import mcp`; skipped with a message otherwise.
 */
import { execFile, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

const PYTHON =
  process.env.MCP_PYTHON ??
  (() => {
    try {
      const venv = fileURLToPath(new URL("../../scripts/python-venv.sh", import.meta.url));
      return execFileSync("bash", [venv], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 180_000 }).trim();
    } catch {
      return "python3";
    }
  })();
const SCRIPT = fileURLToPath(new URL("./python/mcp_client.py", import.meta.url));
const have = (() => {
  try {
    execFileSync(PYTHON, ["-c", "import mcp"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!have) console.warn(`mcp-python test skipped: ${PYTHON} cannot import mcp (set MCP_PYTHON to a Python with the mcp package; see scripts/python-venv.sh)`);

let h: Harness;
beforeAll(async () => {
  if (have) h = await startHarness();
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

describe.skipIf(!have)("Python MCP client", () => {
  it.each([
    ["auto", "2026-07-28"],
    ["legacy", "2025-11-25"],
    ["2026-07-28", "2026-07-28"],
  ])("mode %s (speaks %s): lists, fails once then answers, isError, prompt, resource; journal", async (mode, spoken) => {
    const session = `py-${mode.replaceAll("-", "")}`;
    const { stdout } = await promisify(execFile)(PYTHON, [SCRIPT, `${h.url}/s/mcp-weather/${session}/mcp`, mode], { timeout: 60_000 });
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      { step: "tools", names: ["get_weather"] },
      { step: "call", error: -32000, message: "weather service busy, try again" },
      { step: "call", is_error: false, text: ["18C and sunny in Paris"] },
      { step: "rome", is_error: true, text: ["No weather station for Rome"] },
      { step: "prompt", text: "What is the weather in Oslo?" },
      { step: "resource", text: "# Paris\nSunny all week." },
    ]);
    const journal = await h.journal("mcp-weather", session);
    expect(journal.map((e) => `${e.step} ${e.outcome}`)).toEqual(["paris failure", "paris response", "unknown-city response"]);
    // auto probes server/discover and, answered, speaks the stateless 2026-07-28 revision: no Mcp-Session-Id.
    expect(journal.map((e) => [e.request.headers["mcp-protocol-version"], e.request.headers["mcp-session-id"] === undefined])).toEqual(
      Array.from({ length: 3 }, () => [spoken, spoken === "2026-07-28"]),
    );
  });
});
