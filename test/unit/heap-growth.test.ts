// The Node runtime's bound on the old generation's growth (src/hosts/node/heap-growth.ts), in a fresh process each:
// a live set, a full collection (V8's first, so with no speeds measured yet it sets the next limit at 4× what is live,
// as after a collection in an idle moment), then objects that outlive a few scavenges and die in the old generation,
// as a server's journal entries do.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import v8 from "node:v8";
import { describe, expect, it } from "vitest";
import { onFirstUse } from "../../src/hosts/node/first-use";
import { boundHeapGrowth } from "../../src/hosts/node/heap-growth";

const MODULE = fileURLToPath(new URL("../../src/hosts/node/heap-growth.ts", import.meta.url));
const MiB = 1024 * 1024;

/** The most old-generation bytes in use over the churn, in a new Node process; `bound`: with boundHeapGrowth(). */
async function largestOldGeneration(bound: boolean, args: string[] = []): Promise<number> {
  const script = `
    import v8 from "node:v8";
    const { boundHeapGrowth } = await import(${JSON.stringify(MODULE)});
    const release = ${bound} ? boundHeapGrowth() : () => {};
    const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "old_space").space_used_size;
    const live = Array.from({ length: 100_000 }, (_, i) => ({ i, s: "live " + i, a: [i, i + 1] }));
    const ring = new Array(100_000);
    gc();
    let max = 0;
    for (let round = 0; round < 150; round++) {
      for (let i = 0; i < 20_000; i++) ring[(round * 20_000 + i) % ring.length] = { round, i, s: "x" + i, a: [round, i] };
      await new Promise((r) => setImmediate(r));
      max = Math.max(max, oldSpace());
    }
    release();
    console.log(live.length > 0 ? max : 0);`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", "--experimental-strip-types", "--no-warnings", ...args, "--input-type=module", "-e", script]);
  return Number(stdout.trim());
}

describe("Node runtime: the old generation's growth while a server runs", () => {
  it("collects the old generation at 1.3× what is live (58–89 MB here), where V8 alone lets it reach 4× (144–196 MB)", async () => {
    const [bound, unbound] = await Promise.all([largestOldGeneration(true), largestOldGeneration(false)]);
    expect(bound).toBeLessThan(120 * MiB);
    expect(unbound).toBeGreaterThan(120 * MiB);
  });

  it("leaves a process started with its own --heap-growing-percent alone", async () => {
    expect(await largestOldGeneration(true, ["--heap-growing-percent=300"])).toBeGreaterThan(120 * MiB);
  });
});

/** V8's flags' hash (`cachedDataVersionTag`) in a new process started with `args`: plain, then with boundHeapGrowth(). */
async function flagTags(args: string[]): Promise<{ plain: number; bound: number }> {
  const script = `
    import v8 from "node:v8";
    const { boundHeapGrowth } = await import(${JSON.stringify(MODULE)});
    const plain = v8.cachedDataVersionTag();
    boundHeapGrowth();
    console.log(JSON.stringify({ plain, bound: v8.cachedDataVersionTag() }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--experimental-strip-types", "--no-warnings", ...args, "--input-type=module", "-e", script]);
  return JSON.parse(stdout) as { plain: number; bound: number };
}

describe("Node runtime: V8's memory reducer while a server runs", () => {
  it("is kept from collecting (a flag set beside the growth bound), unless the process set it itself", async () => {
    const [ownGrowth, ownBoth] = await Promise.all([flagTags(["--heap-growing-percent=300"]), flagTags(["--heap-growing-percent=300", "--no-memory-reducer"])]);
    // Node 22's V8 (12.4) has the reducer's count; with the growth factor the process's own, it is the only flag set.
    expect(ownGrowth.bound).not.toBe(ownGrowth.plain);
    expect(ownBoth.bound).toBe(ownBoth.plain);
  });
});

describe("Node runtime: what a server loads on first use comes from V8's code caches", () => {
  it("runs loads with V8's flags at their defaults (the code caches' tag as in a plain process), the bound back after", async () => {
    const script = `
      import v8 from "node:v8";
      const { boundHeapGrowth, withV8Defaults } = await import(${JSON.stringify(MODULE)});
      const tag = () => v8.cachedDataVersionTag();
      const plain = tag();
      const release = boundHeapGrowth();
      const bound = tag();
      const pause = () => new Promise((r) => setTimeout(r, 5));
      const both = await Promise.all([withV8Defaults(async () => { await pause(); return tag(); }), withV8Defaults(async () => { const t = tag(); await pause(); await pause(); return [t, tag()]; })]);
      const after = tag();
      release();
      console.log(JSON.stringify({ plain, bound, both, after, released: tag() }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--experimental-strip-types", "--no-warnings", "--input-type=module", "-e", script]);
    const { plain, bound, both, after, released } = JSON.parse(stdout) as Record<string, unknown>;
    expect(bound).not.toBe(plain);
    expect(both).toStrictEqual([plain, [plain, plain]]);
    expect(after).toBe(bound);
    expect(released).toBe(plain);
  });

  it("onFirstUse makes its value that way (the fetch adapter, node:http2, ws)", async () => {
    const release = boundHeapGrowth();
    const bound = v8.cachedDataVersionTag();
    const seen = await onFirstUse(async () => v8.cachedDataVersionTag())();
    const after = v8.cachedDataVersionTag();
    release();
    expect(seen).toBe(v8.cachedDataVersionTag());
    expect(seen).not.toBe(bound);
    expect(after).toBe(bound);
  });
});
