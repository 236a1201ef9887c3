// MOCKLLM_BENCH_MEMORY=FILE: the server process samples its own memory every 50 ms and appends one JSON line a
// sample to FILE — process.memoryUsage(), V8's heap spaces (committed bytes), /proc/self/status (RssAnon, RssFile)
// — so a load's peak RSS can be split into the V8 heap, ArrayBuffers and native memory (bench/memory-split.mjs).
import { appendFileSync, readFileSync } from "node:fs";
import v8 from "node:v8";

export function sampleMemory(file) {
  const status = () => {
    try {
      const text = readFileSync("/proc/self/status", "utf8");
      const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? 0) * 1024;
      return { rssAnon: kb("RssAnon"), rssFile: kb("RssFile"), threads: Number(/^Threads:\s+(\d+)/m.exec(text)?.[1] ?? 0) };
    } catch {
      return {};
    }
  };
  // Several targets may share one file (bench/compare.mjs passes its environment on): each line names its process.
  const who = `${process.argv[1].split("/").pop()} ${process.env.MOCKLLM_NODE_DIST ?? ""} ${process.pid}`.trim();
  setInterval(() => {
    const stats = v8.getHeapSpaceStatistics();
    const spaces = Object.fromEntries(stats.map((s) => [s.space_name, s.physical_space_size]));
    const used = Object.fromEntries(stats.map((s) => [s.space_name, s.space_used_size]));
    appendFileSync(file, `${JSON.stringify({ t: Date.now(), who, ...process.memoryUsage(), ...status(), spaces, used })}\n`);
  }, 50).unref();
}

/**
 * MOCKLLM_BENCH_ALLOCATIONS=FILE: V8's sampling heap profiler from start-up, counting the objects that survived the
 * scavenges (promoted, or still live) — not those that died young — written to FILE as a .heapprofile on SIGUSR2.
 * With `young` set, the objects that died young are counted as well (what each site allocates).
 */
export async function profileAllocations(file, young = false) {
  const { Session } = await import("node:inspector/promises");
  const { writeFileSync } = await import("node:fs");
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: young });
  process.on("SIGUSR2", async () => {
    const { profile } = await session.post("HeapProfiler.getSamplingProfile");
    writeFileSync(file, JSON.stringify(profile));
  });
}

/** MOCKLLM_BENCH_SNAPSHOT=PREFIX: a heap snapshot (PREFIX-N.heapsnapshot) on each SIGUSR2. */
export function snapshotOnSignal(prefix) {
  let n = 0;
  process.on("SIGUSR2", async () => {
    const v8 = await import("node:v8");
    v8.writeHeapSnapshot(`${prefix}-${n++}.heapsnapshot`);
  });
}
