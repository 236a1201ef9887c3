// The GitHub Action's namespace inputs, by running scripts/ci-action.sh as the action does: against a running server
// (INPUT_URL), `start` creates a namespace per run with its keys and exports them and the base URLs; the job's calls
// land in that namespace; `stop` reports on its sessions and deletes it.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/hosts/node/server";
import { startQuietServer } from "../support/server";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TOKEN = "action-root-token";
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  server = await startQuietServer({ adminToken: TOKEN });
  dir = await mkdtemp(join(tmpdir(), "mockllm-action-"));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** KEY=value lines of a GitHub file ($GITHUB_ENV, $GITHUB_OUTPUT). */
async function lines(file: string): Promise<Record<string, string>> {
  const text = await readFile(file, "utf8").catch(() => "");
  return Object.fromEntries(
    text
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
}

describe("scripts/ci-action.sh with namespace and ttl", () => {
  it("start creates the run's namespace and exports its keys; stop reports on it and deletes it", async () => {
    const env = {
      ...process.env,
      GITHUB_OUTPUT: join(dir, "output"),
      GITHUB_ENV: join(dir, "env"),
      RUNNER_TEMP: dir,
      MOCKLLM_STATE_DIR: join(dir, "state"),
      MOCKLLM_BIN: `${ROOT}node_modules/.bin/tsx ${ROOT}test/support/mockllm-src.ts`,
      INPUT_URL: server.url,
      INPUT_ADMIN_TOKEN: TOKEN,
      INPUT_NAMESPACE: "pr-57-run-1",
      INPUT_TTL: "1d",
      INPUT_REPORT_DIR: join(dir, "report"),
    };
    const started = await run("bash", [`${ROOT}scripts/ci-action.sh`, "start"], { env, timeout: 60_000 });
    expect(started.stdout).toMatch(/^mockllm: namespace pr-57-run-1 on http:\/\/127\.0\.0\.1:\d+, expires \d{4}-\d\d-\d\dT/m);
    const output = await lines(env.GITHUB_OUTPUT);
    const exported = await lines(env.GITHUB_ENV);
    expect([output.url, output.namespace]).toEqual([server.url, "pr-57-run-1"]);
    expect(output["run-key"]).toMatch(/^mk_[0-9a-f]{12}_[0-9a-f]{48}$/);
    expect(output["admin-key"]).toMatch(/^mk_[0-9a-f]{12}_[0-9a-f]{48}$/);
    expect(exported).toMatchObject({
      MOCKLLM_URL: server.url,
      MOCKLLM_NAMESPACE: "pr-57-run-1",
      MOCKLLM_NAMESPACE_KEY: output["admin-key"],
      MOCKLLM_RUN_KEY: output["run-key"],
      OPENAI_BASE_URL: `${server.url}/v1`,
      ANTHROPIC_BASE_URL: server.url,
      OPENAI_API_KEY: output["run-key"],
      ANTHROPIC_API_KEY: output["run-key"],
      GEMINI_API_KEY: output["run-key"],
    });
    const listed = (await (await fetch(`${server.url}/admin/namespaces`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { name: string; expiresAt?: string }[];
    expect(listed.map((n) => [n.name, typeof n.expiresAt])).toEqual([["pr-57-run-1", "string"]]);

    // The job's code under test, with what the action exported.
    const chat = await fetch(`${exported.OPENAI_BASE_URL}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${exported.OPENAI_API_KEY}`, "content-type": "application/json", "x-mock-session": "ci" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(chat.status).toBe(200);

    const stopped = await run("bash", [`${ROOT}scripts/ci-action.sh`, "stop"], { env, timeout: 60_000 });
    expect(stopped.stdout).toContain("mockllm: namespace pr-57-run-1 deleted");
    const sessions = JSON.parse(await readFile(join(env.INPUT_REPORT_DIR, "sessions.json"), "utf8")) as unknown[];
    expect(Array.isArray(sessions)).toBe(true);
    const after = (await (await fetch(`${server.url}/admin/namespaces`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as unknown[];
    expect(after).toEqual([]);
    // The server it was pointed at keeps running.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
