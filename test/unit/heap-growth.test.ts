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
  // A process that sat idle long enough for the reducer to start collecting (its first major collection after the
  // idle spell, seen by a PerformanceObserver), then starts a server, stops it and starts another — as a test file
  // of a worker that ran others does. Lowering the reducer's count there aborted the process (V8's CHECK_LE in
  // MemoryReducer::Step, SIGTRAP). And a process whose server started early never sees the reducer collect.
  it("a server started after the reducer began a cycle leaves it be (no abort); one started early keeps it from collecting", async () => {
    const late = `
      import { PerformanceObserver } from "node:perf_hooks";
      const { boundHeapGrowth } = await import(${JSON.stringify(MODULE)});
      const keep = Array.from({ length: 300_000 }, (_, i) => ({ i, s: "k" + i }));
      let junk = Array.from({ length: 600_000 }, (_, i) => ({ i, s: "x" + i }));
      junk = null;
      gc();
      const t0 = Date.now();
      const awake = setInterval(() => {}, 1000); // a PerformanceObserver keeps no process alive
      await new Promise((resolve) => {
        const seen = new PerformanceObserver((list) => {
          if (Date.now() - t0 > 2000 && list.getEntries().some((e) => e.detail.kind === 4)) { seen.disconnect(); setImmediate(resolve); }
        });
        seen.observe({ entryTypes: ["gc"] });
      });
      clearInterval(awake);
      boundHeapGrowth()();
      const release = boundHeapGrowth();
      await new Promise((r) => setTimeout(r, 2500));
      release();
      console.log("alive", keep.length);`;
    const early = `
      import { PerformanceObserver } from "node:perf_hooks";
      const { boundHeapGrowth } = await import(${JSON.stringify(MODULE)});
      boundHeapGrowth()();
      const keep = Array.from({ length: 300_000 }, (_, i) => ({ i, s: "k" + i }));
      let junk = Array.from({ length: 600_000 }, (_, i) => ({ i, s: "x" + i }));
      junk = null;
      gc();
      let major = 0;
      new PerformanceObserver((list) => { major += list.getEntries().filter((e) => e.detail.kind === 4).length; }).observe({ entryTypes: ["gc"] });
      await new Promise((r) => setTimeout(r, 20_000));
      console.log("alive", keep.length, major);`;
    const run = (script: string) => promisify(execFile)(process.execPath, ["--expose-gc", "--experimental-strip-types", "--no-warnings", "--input-type=module", "-e", script], { timeout: 60_000 });
    const [lateRun, earlyRun] = await Promise.all([run(late), run(early)]);
    expect(lateRun.stdout.trim()).toBe("alive 300000");
    // V8 alone collects twice in that idle spell (its "Mark-Compact (reduce)"); with the count lowered, never.
    expect(earlyRun.stdout.trim()).toBe("alive 300000 0");
  }, 90_000);

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
      const released = tag();
      const releasedLoad = await withV8Defaults(async () => tag());
      console.log(JSON.stringify({ plain, bound, both, after, released, releasedLoad, back: tag() }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--experimental-strip-types", "--no-warnings", "--input-type=module", "-e", script]);
    const { plain, bound, both, after, released, releasedLoad, back } = JSON.parse(stdout) as Record<string, unknown>;
    expect(bound).not.toBe(plain);
    expect(both).toStrictEqual([plain, [plain, plain]]);
    expect(after).toBe(bound);
    // The growth factor is given back; the reducer's count, lowered early in the process, stays lowered (not the
    // plain tag, not the bound one), and a load still runs with every flag at V8's own value.
    expect([released === plain, released === bound]).toStrictEqual([false, false]);
    expect([releasedLoad, back]).toStrictEqual([plain, released]);
  });

  it("onFirstUse makes its value that way (the fetch adapter, node:http2, ws)", async () => {
    // No server ran in this worker before: its flags are V8's own.
    const plain = v8.cachedDataVersionTag();
    const release = boundHeapGrowth();
    const bound = v8.cachedDataVersionTag();
    const seen = await onFirstUse(async () => v8.cachedDataVersionTag())();
    const after = v8.cachedDataVersionTag();
    release();
    expect(seen).toBe(plain);
    expect(seen).not.toBe(bound);
    expect(after).toBe(bound);
  });
});
