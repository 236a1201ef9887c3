// Peak memory and CPU of the requests whose answer grows with a request field, and of the requests that cost
// seconds of CPU before a refusal (issue 51, points 2 and 3), each against a small request on a fresh Node server
// (the source tree, through tsx). Not a test: figures depend on the machine; the bounds are asserted at the end.
//   node bench/bounded-answers.mjs [--only NAME] [--worker]
// Each case: a fresh server, one small warm-up request, then the case; peak RSS above the warm server (VmHWM −
// VmRSS before), server CPU of the case, and the answer's bytes. --worker: the Worker under `wrangler dev`
// (bench/servers/mockllm-wrangler-dev.mjs), the figures of its workerd process.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { cpuMsOf, tree } from "./proc.mjs";

const { values } = parseArgs({ options: { only: { type: "string" }, worker: { type: "boolean", default: false } } });
const AUTH = { authorization: "Bearer sk-bench" };
const json = (path, body) => ({ path, init: { method: "POST", headers: { ...AUTH, "content-type": "application/json" }, body: JSON.stringify(body) } });
const WORDS = Array.from({ length: 2048 }, () => "a").join(" ");
const DASHES = "-".repeat(70);
const TEN_MB = "word ".repeat(2_000_000);

// A blob as mockllm writes it (src/providers/openai/responses/compaction.ts), carrying a 6 MB summary.
const blob = `gAAAAAB${Buffer.from(`mockllm-compaction:v1\n${"x".repeat(6_000_000)}`).toString("base64url")}`;

/** [name, request, bound: peak RSS MB above the warm server, CPU ms] */
const CASES = [
  ["small: speech 'hello' wav", json("/v1/audio/speech", { model: "tts-1", voice: "alloy", input: "hello", response_format: "wav" }), [30, 500]],
  ["speech 2,048 words speed 0.25 wav", json("/v1/audio/speech", { model: "tts-1", voice: "alloy", input: WORDS, speed: 0.25, response_format: "wav" }), [40, 3000]],
  [
    "speech 2,048 words speed 0.25 wav, sse",
    json("/v1/audio/speech", { model: "gpt-4o-mini-tts", voice: "alloy", input: WORDS, speed: 0.25, response_format: "wav", stream_format: "sse" }),
    [60, 3000],
  ],
  ["speech scripted 10 minutes wav (twice the default cap)", json("/s/long/b/v1/audio/speech", { model: "tts-1", voice: "alloy", input: "hi", response_format: "wav" }), [40, 3000]],
  ["speech 2,048 words speed 0.25 flac", json("/v1/audio/speech", { model: "tts-1", voice: "alloy", input: WORDS, speed: 0.25, response_format: "flac" }), [40, 3000]],
  ["images gpt-image-1 n=10 1536x1024", json("/v1/images/generations", { model: "gpt-image-1", prompt: "x", n: 10, size: "1536x1024" }), [60, 3000]],
  ["images dall-e-2 n=10 1024x1024", json("/v1/images/generations", { model: "dall-e-2", prompt: "x", n: 10, size: "1024x1024", response_format: "b64_json" }), [60, 3000]],
  [
    "images gpt-image-1 n=10 1536x1024, stream, 3 partials",
    json("/v1/images/generations", { model: "gpt-image-1", prompt: "x", n: 10, size: "1536x1024", stream: true, partial_images: 3 }),
    [60, 3000],
  ],
  ["chat n=128, stream", json("/v1/chat/completions", { model: "gpt-4o-mini", n: 128, stream: true, messages: [{ role: "user", content: "x" }] }), [60, 3000]],
  ["embeddings 2,048 inputs × 3,072 dims", json("/v1/embeddings", { model: "text-embedding-3-large", input: Array.from({ length: 2048 }, (_, i) => `w${i}`) }), [60, 6000]],
  ["moderations 2,048 inputs", json("/v1/moderations", { model: "omni-moderation-latest", input: Array.from({ length: 2048 }, (_, i) => `text ${i}`) }), [40, 1000]],
  ["rerank v1 100,000 docs, max_chunks_per_doc -1 (400)", json("/v1/rerank", { query: "q", documents: Array.from({ length: 100_000 }, () => "d"), max_chunks_per_doc: -1 }), [50, 500]],
  [
    "multipart 25 MiB of near-boundaries, 70-dash boundary (400)",
    { path: "/v1/audio/transcriptions", init: { method: "POST", headers: { ...AUTH, "content-type": `multipart/form-data; boundary=${DASHES}` }, body: "-".repeat(69).concat("x").repeat(370_000) } },
    [100, 1500],
  ],
  [
    "responses/compact with a 6 MB earlier summary",
    json("/v1/responses/compact", {
      model: "gpt-5",
      input: [
        { type: "compaction", encrypted_content: blob },
        { role: "user", content: "go on" },
      ],
    }),
    [100, 1000],
  ],
  [
    "chat stream echoing a 5 MB message (default answer)",
    json("/v1/chat/completions", { model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "word ".repeat(1_000_000) }] }),
    [150, 2000],
  ],
  // A message at the body limit (10 MiB): counted, hashed and echoed without copies that grow with its words.
  ["chat echoing a 10 MB message (default answer)", json("/v1/chat/completions", { model: "gpt-4o-mini", messages: [{ role: "user", content: TEN_MB }] }), [100, 1500]],
  ["responses stream echoing a 10 MB message (51 MB of events)", json("/v1/responses", { model: "gpt-4o-mini", stream: true, input: TEN_MB }), [200, 2000]],
  [
    "anthropic, a 10 MB message cut at max_tokens 100,000",
    {
      path: "/v1/messages",
      init: {
        method: "POST",
        headers: { "x-api-key": "sk-bench", "anthropic-version": "2023-06-01", "content-type": "application/json" },
        body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 100_000, messages: [{ role: "user", content: TEN_MB }] }),
      },
    },
    [100, 1500],
  ],
  // Stop sequences (Anthropic takes 8,191) against an answer echoing a 1 MB message: searched together, not one by one.
  [
    "anthropic, 8,191 stop sequences against a 1 MB echo",
    {
      path: "/v1/messages",
      init: {
        method: "POST",
        headers: { "x-api-key": "sk-bench", "anthropic-version": "2023-06-01", "content-type": "application/json" },
        body: JSON.stringify({
          model: "claude-sonnet-4-5",
          max_tokens: 1_000_000,
          stop_sequences: Array.from({ length: 8191 }, (_, i) => `word word ${i}`),
          messages: [{ role: "user", content: "word ".repeat(200_000) }],
        }),
      },
    },
    [60, 1000],
  ],
  // The default responder's JSON for a client's schema (src/default/schema-args.ts), and a client's pattern.
  [
    "structured output: prefixItems with minItems 1e8",
    json("/v1/chat/completions", {
      model: "gpt-4o",
      messages: [{ role: "user", content: "x" }],
      response_format: schemaFormat({ a: { type: "array", minItems: 1e8, prefixItems: [{ type: "string" }] } }),
    }),
    [40, 1000],
  ],
  [
    "structured output: 10,000 strings of minLength 65,536",
    json("/v1/chat/completions", {
      model: "gpt-4o",
      messages: [{ role: "user", content: "x" }],
      response_format: schemaFormat({ a: { type: "array", minItems: 10_000, items: { type: "string", minLength: 65_536 } } }),
    }),
    [40, 1000],
  ],
  [
    "structured output: pattern ^(.*a){30}x$ (backtracking)",
    json("/v1/chat/completions", { model: "gpt-4o", messages: [{ role: "user", content: "x" }], response_format: schemaFormat({ a: { type: "string", pattern: "^(.*a){30}x$" } }) }),
    [30, 500],
  ],
  [
    "scripted JSON checked against a pattern ^(\\w+\\s?)+$ (backtracking)",
    {
      ...json("/s/shaped/b/v1/chat/completions", {
        model: "gpt-4o",
        messages: [{ role: "user", content: "x" }],
        response_format: schemaFormat({ code: { type: "string", pattern: "^(\\w+\\s?)+$" } }),
      }),
    },
    [30, 500],
  ],
  ["regex matcher .*refund.* on a 1 MB message", json("/s/matched/b/v1/chat/completions", { model: "gpt-4o", messages: [{ role: "user", content: "a".repeat(1_000_000) }] }), [60, 1000]],
];

/** A strict `json_schema` response format with `properties`, all required. */
function schemaFormat(properties) {
  return { type: "json_schema", json_schema: { name: "x", strict: true, schema: { type: "object", properties, required: Object.keys(properties), additionalProperties: false } } };
}

/** RSS and peak RSS (VmHWM) in MB, summed over `pids`. */
function status(pids) {
  let rss = 0;
  let hwm = 0;
  for (const pid of pids) {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
    rss += kb("VmRSS") / 1024;
    hwm += kb("VmHWM") / 1024;
  }
  return { rss, hwm };
}

const LONG = [
  { name: "long", steps: [{ consume: false, respond: { speech: { durationMs: 600_000 } } }] },
  { name: "shaped", steps: [{ consume: false, respond: { text: JSON.stringify({ code: `${"a".repeat(40)}!` }) } }] },
  {
    name: "matched",
    steps: [
      { consume: false, match: { lastUserMessage: { regex: ".*refund.*" } }, respond: { text: "refunds" } },
      { consume: false, respond: { text: "other" } },
    ],
  },
];

async function start() {
  const env = { ...process.env, MOCKLLM_BENCH_SCENARIOS: JSON.stringify(LONG) };
  const args = values.worker ? ["bench/servers/mockllm-wrangler-dev.mjs"] : ["--import", "tsx", "bench/servers/mockllm-src.ts"];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"], env });
  const url = await new Promise((resolve, reject) => {
    child.stdout.once("data", (d) => resolve(String(d).trim()));
    child.once("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  if (values.worker) {
    const res = await fetch(`${url}/admin/scenarios`, { method: "POST", headers: { authorization: "Bearer bench", "content-type": "application/json" }, body: JSON.stringify(LONG) });
    if (!res.ok) throw new Error(`upload: ${res.status}`);
  }
  // The processes that serve: workerd under wrangler (every one), else the Node server itself.
  const pids = values.worker ? tree(child.pid).filter((p) => readFileSync(`/proc/${p}/comm`, "utf8").trim() === "workerd") : [child.pid];
  if (pids.length === 0) throw new Error("no workerd process found");
  return { child, url, pids };
}

function stop(child) {
  for (const p of tree(child.pid).reverse()) {
    try {
      process.kill(p, "SIGTERM");
    } catch {}
  }
}

async function send(url, { path, init }) {
  const res = await fetch(`${url}${path}`, init);
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  return { status: res.status, bytes };
}

const rows = [];
let over = 0;
for (const [name, request, [rssBound, cpuBound]] of CASES) {
  if (values.only && !name.includes(values.only)) continue;
  const { child, url, pids } = await start();
  await send(url, CASES[0][1]);
  await new Promise((r) => setTimeout(r, 200));
  const before = status(pids);
  const cpu0 = cpuMsOf(pids);
  const answer = await send(url, request);
  const cpu = cpuMsOf(pids) - cpu0;
  const peak = status(pids).hwm - before.rss;
  stop(child);
  const ok = peak <= rssBound && cpu <= cpuBound;
  if (!ok) over++;
  rows.push({ case: name, status: answer.status, "answer MB": +(answer.bytes / 1e6).toFixed(2), "peak RSS +MB": +peak.toFixed(1), "CPU ms": cpu, bound: `${rssBound} MB, ${cpuBound} ms`, ok });
}
console.table(rows);
if (over > 0) {
  console.error(`${over} case(s) over their bound`);
  process.exit(1);
}
