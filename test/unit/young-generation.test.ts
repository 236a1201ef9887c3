// The Node runtime's cap on the young generation (src/runtime/node/young-generation.ts), in a fresh process each:
// the same allocation churn (objects that survive a few scavenges, as a server's in-flight requests do) with and
// without the cap.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const MODULE = fileURLToPath(new URL("../../src/runtime/node/young-generation.ts", import.meta.url));
const MiB = 1024 * 1024;

/** The largest new space (bytes) seen over the churn, in a new Node process; `cap`: with capYoungGeneration(). */
async function largestNewSpace(cap: boolean, args: string[] = []): Promise<number> {
  const script = `
    import v8 from "node:v8";
    const { capYoungGeneration } = await import(${JSON.stringify(MODULE)});
    const release = ${cap} ? capYoungGeneration() : () => {};
    const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
    let max = 0;
    const keep = new Array(100_000);
    for (let round = 0; round < 400; round++) {
      for (let i = 0; i < 20_000; i++) keep[(round * 20_000 + i) % keep.length] = { round, i, s: "x" + i };
      await new Promise((r) => setImmediate(r));
      max = Math.max(max, newSpace());
    }
    release();
    console.log(max);`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--experimental-strip-types", "--no-warnings", ...args, "--input-type=module", "-e", script]);
  return Number(stdout.trim());
}

describe("Node runtime: the young generation while a server runs", () => {
  it("stops growing at 4 or 8 MB of new space (never past 4 MB semi-spaces), where V8 alone grows it on (to 32 MB)", async () => {
    const [capped, uncapped] = await Promise.all([largestNewSpace(true), largestNewSpace(false)]);
    // 4 MB when the gc observer ran before the next growth, 8 MB when it ran an event-loop turn late: never more.
    expect([4 * MiB, 8 * MiB]).toContain(capped);
    expect(uncapped).toBeGreaterThanOrEqual(16 * MiB);
  });

  it("leaves a process started with its own semi-space size alone", async () => {
    expect(await largestNewSpace(true, ["--max-semi-space-size=16"])).toBeGreaterThanOrEqual(16 * MiB);
  });
});
