#!/usr/bin/env node
// What a request and a session keep (issue 34, part 3): mockllm's Node runtime in this process, the bench's JSON turn
// (bench/workload.mjs), the V8 heap after two full collections: per journal entry while a session's journal fills,
// per request once it is full, per new session of one request.
//   node --expose-gc bench/retained.mjs      (DIST=other/dist/node/index.js for another build)
import v8 from "node:v8";
const { startServer } = await import(process.env.DIST ?? new URL("../dist/node/index.js", import.meta.url).href);
const { SCENARIOS, JSON_BODY, JSON_HEADERS } = await import("./workload.mjs");
const { mkdtempSync, writeFileSync } = await import("node:fs");
const dir = mkdtempSync(`${(await import("node:os")).tmpdir()}/mockllm-retained-`);
for (const doc of SCENARIOS) writeFileSync(`${dir}/${doc.name}.json`, JSON.stringify(doc));
const s = await startServer({ adminToken: "x", scenarios: [dir], watch: false, vars: { DEFAULT_WORDS_PER_SECOND: "0" }, log: () => {} });
const post = (path) => fetch(s.url + path, { method: "POST", headers: JSON_HEADERS, body: JSON_BODY }).then((r) => r.text());
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
async function many(n, pathOf, c = 20) {
  let i = 0;
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (i < n) await post(pathOf(i++));
    }),
  );
}
await many(200, () => "/s/bench/warm/v1/chat/completions");
const h0 = heap();
await many(1000, () => "/s/bench/one/v1/chat/completions");
const h1 = heap();
console.log(`1,000 journal entries in one session: ${((h1 - h0) / 1000).toFixed(0)} B each`);
await many(1000, () => "/s/bench/one/v1/chat/completions");
const h2 = heap();
console.log(`1,000 more (journal full, oldest dropped): ${((h2 - h1) / 1000).toFixed(0)} B each`);
await many(1000, (i) => `/s/bench/s${i}/v1/chat/completions`);
const h3 = heap();
console.log(`1,000 sessions of one request: ${((h3 - h2) / 1000).toFixed(0)} B each`);
if (process.env.SNAP) console.log(v8.writeHeapSnapshot(process.env.SNAP));
await s.close();
