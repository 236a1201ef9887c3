// mockllm's Node runtime from the built package (dist/node), as `mockllm serve --scenarios DIR` runs it (with the
// same V8 compile cache the CLI enables). Prints its URL.
import module from "node:module";
module.enableCompileCache?.();
const { mkdtempSync, writeFileSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const { SCENARIOS } = await import("../workload.mjs");
// MOCKLLM_BENCH_VARS: more vars, as JSON (bench/soak.mjs: SESSION_TTL).
// MOCKLLM_NODE_DIST: another build's dist/node/index.js (an earlier commit's, to compare before and after in one run).
const dist = process.env.MOCKLLM_NODE_DIST ? (await import("node:url")).pathToFileURL(process.env.MOCKLLM_NODE_DIST).href : "../../dist/node/index.js";
const { startServer } = await import(dist);

const dir = mkdtempSync(join(tmpdir(), "mockllm-bench-"));
for (const doc of SCENARIOS) writeFileSync(join(dir, `${doc.name}.json`), JSON.stringify(doc));
const server = await startServer({
  adminToken: "bench",
  scenarios: [dir],
  watch: false,
  vars: { DEFAULT_WORDS_PER_SECOND: "0", ...JSON.parse(process.env.MOCKLLM_BENCH_VARS ?? "{}") },
  log: () => {},
});
console.log(server.url);
// A clean exit on SIGTERM, so `--cpu-prof` (bench/burst.mjs --profile) gets to write its profile.
process.on("SIGTERM", () => process.exit(0));
// bench/soak.mjs: the V8 heap in use after a full collection (with --expose-gc), every 10 s, on stdout.
if (process.env.MOCKLLM_BENCH_HEAP) {
  setInterval(() => {
    globalThis.gc?.();
    console.log(`heap ${process.memoryUsage().heapUsed}`);
  }, 10_000).unref();
}
if (process.env.MOCKLLM_BENCH_MEMORY) (await import("./memory-sampler.mjs")).sampleMemory(process.env.MOCKLLM_BENCH_MEMORY);
if (process.env.MOCKLLM_BENCH_ALLOCATIONS) await (await import("./memory-sampler.mjs")).profileAllocations(process.env.MOCKLLM_BENCH_ALLOCATIONS, !!process.env.MOCKLLM_BENCH_YOUNG);
if (process.env.MOCKLLM_BENCH_SNAPSHOT) (await import("./memory-sampler.mjs")).snapshotOnSignal(process.env.MOCKLLM_BENCH_SNAPSHOT);
