// The V8 flags `mockllm serve` and `mockllm record` re-run themselves with (src/runtime/node/server-flags.ts): which
// processes re-run, and what the flags do to V8's young generation, in a fresh process each.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { relaunchFlags, SERVER_FLAGS } from "../../src/runtime/node/server-flags";

const MODULE = fileURLToPath(new URL("../../src/runtime/node/server-flags.ts", import.meta.url));
const run = promisify(execFile);

const plain = { execArgv: [], env: {}, canExec: true };

describe("mockllm bin: the server commands' V8 flags", () => {
  it("re-runs serve and record with 8 MB semi-spaces", () => {
    expect(SERVER_FLAGS).toStrictEqual(["--max-semi-space-size=8"]);
    expect(relaunchFlags(["serve", "--port", "0"], plain)).toStrictEqual(["--max-semi-space-size=8"]);
    expect(relaunchFlags(["record", "--upstream", "openai"], plain)).toStrictEqual(["--max-semi-space-size=8"]);
    expect(relaunchFlags(["serve"], { execArgv: ["--enable-source-maps"], env: { NODE_OPTIONS: "--no-warnings" }, canExec: true })).toStrictEqual(["--max-semi-space-size=8"]);
  });

  it("leaves every other command, a server command's --help, and a Node without process.execve as they are", () => {
    for (const args of [[], ["--version"], ["validate", "a.json"], ["push"], ["serve", "--help"], ["record", "-h"]]) expect(relaunchFlags(args, plain)).toBeUndefined();
    expect(relaunchFlags(["serve"], { ...plain, canExec: false })).toBeUndefined();
  });

  it("keeps the user's own young-generation or heap sizing (command line or NODE_OPTIONS), and so never re-runs twice", () => {
    expect(relaunchFlags(["serve"], { ...plain, execArgv: ["--max-semi-space-size=8"] })).toBeUndefined();
    expect(relaunchFlags(["serve"], { ...plain, execArgv: ["--max-semi-space-size=32"] })).toBeUndefined();
    expect(relaunchFlags(["serve"], { ...plain, execArgv: ["--semi_space_growth_factor=4"] })).toBeUndefined();
    expect(relaunchFlags(["serve"], { ...plain, env: { NODE_OPTIONS: "--max-semi-space-size=4" } })).toBeUndefined();
    expect(relaunchFlags(["record"], { ...plain, execArgv: ["--max-heap-size=512"] })).toBeUndefined();
  });
});

/** In a fresh process with `flags` (and `settleServerFlags()` first when `settle`): code caches' tag, largest new space (MB). */
async function youngGeneration(flags: readonly string[], settle = false): Promise<{ tag: number; newSpaceMB: number }> {
  const script = `
    import v8 from "node:v8";
    const settled = ${settle} && (await import(${JSON.stringify(MODULE)})).settleServerFlags();
    const tag = v8.cachedDataVersionTag();
    const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
    const ring = new Array(200_000);
    let max = 0;
    for (let round = 0; round < 150; round++) {
      for (let i = 0; i < 20_000; i++) ring[(round * 20_000 + i) % ring.length] = { round, i, s: "x" + i, a: [round, i] };
      await new Promise((r) => setImmediate(r));
      max = Math.max(max, newSpace());
    }
    console.log(JSON.stringify({ settled, tag, newSpaceMB: max / 1048576 }));`;
  const { stdout } = await run(process.execPath, [...flags, "--experimental-strip-types", "--no-warnings", "--input-type=module", "-e", script]);
  const { settled, ...out } = JSON.parse(stdout) as { settled: boolean; tag: number; newSpaceMB: number };
  expect(settled).toBe(settle);
  return out;
}

describe("Node runtime: the young generation of a server started by the bin", () => {
  it("stays at 16 MB of new space (8 MB semi-spaces) where V8 alone grows it to 32 MB, also once the flags are settled", async () => {
    const [started, settled, alone] = await Promise.all([youngGeneration(SERVER_FLAGS), youngGeneration(SERVER_FLAGS, true), youngGeneration([])]);
    expect(started.newSpaceMB).toBe(16);
    expect(settled.newSpaceMB).toBe(16);
    expect(alone.newSpaceMB).toBe(32);
  });

  it("settled, the flags no longer change the tag V8's code caches are checked against (Node's built-in modules load from their cache)", async () => {
    const [started, settled, alone] = await Promise.all([youngGeneration(SERVER_FLAGS), youngGeneration(SERVER_FLAGS, true), youngGeneration([])]);
    expect(started.tag).not.toBe(alone.tag);
    expect(settled.tag).toBe(alone.tag);
  });

  it("a process started without the flags is left as it is", async () => {
    expect((await youngGeneration([], false)).newSpaceMB).toBe(32);
    const { settleServerFlags } = await import("../../src/runtime/node/server-flags");
    expect(settleServerFlags([])).toBe(false);
    expect(settleServerFlags(["--max-semi-space-size=16"])).toBe(false);
  });
});
