/**
 * A 10,000-line OpenAI batch on the Node runtime, in process: how long the lines take and how far the heap rises
 * while they run, beyond what the store itself keeps (the input and output files are held by the Node memory store;
 * the point is that processing streams the input and writes the output in 1 MiB parts, so nothing else grows with the
 * batch). Not a test: figures depend on the machine.
 *   node --expose-gc --import tsx bench/batch-memory.ts [--lines 10000] [--scenario]
 * --scenario: the lines run through a scenario session (`/s/batch-bench/run`, one reusable step) instead of the
 *             default responder.
 */
import { parseArgs } from "node:util";
import { startServer } from "../src/hosts/node/server";

const { values } = parseArgs({ options: { lines: { type: "string", default: "10000" }, scenario: { type: "boolean", default: false } } });
const count = Number(values.lines);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

const server = await startServer({ adminToken: "bench", vars: { DEFAULT_WORDS_PER_SECOND: "0" } });
const auth = { authorization: "Bearer sk-bench" };
if (values.scenario) {
  const doc = { name: "batch-bench", steps: [{ id: "any", consume: false, respond: { text: "Batched answer.", usage: { inputTokens: 12, outputTokens: 3 } } }] };
  const res = await fetch(`${server.url}/admin/scenarios`, { method: "POST", headers: { authorization: "Bearer bench", "content-type": "application/json" }, body: JSON.stringify([doc]) });
  if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
}
const base = values.scenario ? `${server.url}/s/batch-bench/run/v1` : `${server.url}/v1`;

const lines: string[] = [];
for (let i = 0; i < count; i++) {
  lines.push(JSON.stringify({ custom_id: `req-${i}`, method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o-mini", messages: [{ role: "user", content: `Question number ${i}?` }] } }));
}
const form = new FormData();
form.append("purpose", "batch");
form.append("file", new Blob([`${lines.join("\n")}\n`]), "bench.jsonl");
lines.length = 0;
const file = (await (await fetch(`${base}/files`, { method: "POST", headers: auth, body: form })).json()) as { id: string; bytes: number };
const batch = (await (
  await fetch(`${base}/batches`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" }),
  })
).json()) as { id: string };

gc();
const before = process.memoryUsage().heapUsed;
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}, 20);
const t0 = performance.now();
// Polled as a client polls: each read runs up to BATCH_LINES_PER_READ lines (default 1,000).
let done: { status: string; request_counts: unknown; output_file_id: string };
let reads = 0;
do {
  done = (await (await fetch(`${base}/batches/${batch.id}`, { headers: auth })).json()) as typeof done;
  reads++;
} while (done.status === "in_progress");
const ms = performance.now() - t0;
clearInterval(sampler);
gc();
const after = process.memoryUsage().heapUsed;

// The output file, streamed back and counted line by line.
const res = await fetch(`${base}/files/${done.output_file_id}/content`, { headers: auth });
let outLines = 0;
let outBytes = 0;
for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
  outBytes += chunk.length;
  for (const b of chunk) if (b === 10) outLines++;
}

console.log(
  JSON.stringify(
    {
      lines: count,
      via: values.scenario ? "scenario session" : "default responder",
      inputFile: mb(file.bytes),
      status: done.status,
      requestCounts: done.request_counts,
      reads,
      outputFile: mb(outBytes),
      outputLines: outLines,
      processingMs: Math.round(ms),
      linesPerSecond: Math.round(count / (ms / 1000)),
      heapBefore: mb(before),
      heapPeakDuring: mb(peak),
      heapAfter: mb(after),
      peakAboveRetained: mb(peak - after),
    },
    null,
    2,
  ),
);
await server.close();
