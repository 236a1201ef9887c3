#!/usr/bin/env node
// `npm run bench:burst`: a burst of N concurrent paced streams (default 1,000; 100 words at 50 words a second after a
// 200 ms time to first token) against mockllm's Node runtime and the leading local peer (@copilotkit/aimock), and
// optionally mockllm's Worker under Miniflare, from one client (node:http, an agent without a socket limit, a new
// connection per stream). Rounds alternate the targets' order; each figure is the median over the rounds.
//   node bench/burst.mjs [--streams 1000] [--rounds 3] [--only node,peer,miniflare] [--markdown out.md]
//                        [--profile DIR]   (mockllm's Node runtime writes a V8 CPU profile there when stopped)
//                        [--baseline DIR]  (also another checkout's built Node runtime, DIR/dist/node: before and after)
import http from "node:http";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median, start, stopAll } from "./launch.mjs";
import { usage } from "./proc.mjs";
import { BURST_BODY, BURST_PACING, paths } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    streams: { type: "string", default: "1000" },
    rounds: { type: "string", default: "3" },
    only: { type: "string", default: "node,peer" },
    markdown: { type: "string" },
    profile: { type: "string" },
    baseline: { type: "string" },
  },
});
const STREAMS = Number(values.streams);
const ROUNDS = Number(values.rounds);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const WORDS = 100;
const interval = 1000 / BURST_PACING.wordsPerSecond;

// When the last event is due, by each target's own schedule: mockllm sends word n at ttft + n × interval (the role
// chunk at once); the peer sends its role chunk after `ttft`, each later chunk `interval` after the one before, so its
// finish chunk (one more interval) closes the stream.
const TARGETS = [
  { key: "node", label: "mockllm Node runtime", launcher: here("./servers/mockllm-node.mjs"), kind: "mockllm", idealMs: BURST_PACING.ttftMs + WORDS * interval },
  { key: "peer", label: "peer (aimock 1.43)", launcher: here("./servers/aimock.mjs"), kind: "peer", idealMs: BURST_PACING.ttftMs + (WORDS + 1) * interval },
  { key: "miniflare", label: "mockllm Worker, Miniflare", launcher: here("./servers/mockllm-miniflare.mjs"), kind: "mockllm", idealMs: BURST_PACING.ttftMs + WORDS * interval },
].filter((t) => values.only.split(",").includes(t.key));
if (values.baseline) {
  const dist = `${values.baseline}/dist/node/index.js`;
  TARGETS.unshift({ ...TARGETS.find((t) => t.key === "node") ?? { launcher: here("./servers/mockllm-node.mjs"), kind: "mockllm", idealMs: BURST_PACING.ttftMs + WORDS * interval }, key: "base", label: "mockllm Node runtime, baseline build", env: { MOCKLLM_NODE_DIST: dist } });
}

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const HEADERS = { "content-type": "application/json", authorization: "Bearer sk-bench", "content-length": Buffer.byteLength(BURST_BODY) };

/**
 * One stream: ms to the response head (`ttfb`), to the first word (`ttft`), to the end; `ok` when it was a 200 that
 * carried the last word and the terminator.
 */
function stream(url) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let ttfb;
    let ttft;
    let tail = Buffer.alloc(0);
    let sawLast = false;
    const req = http.request(url, { method: "POST", agent, headers: HEADERS }, (res) => {
      ttfb = performance.now() - t0;
      // A word split across two reads is found where the last bytes of one meet the first of the next.
      const has = (chunk, word) => chunk.includes(word) || (tail.length > 0 && Buffer.concat([tail, chunk.subarray(0, 8)]).includes(word));
      res.on("data", (chunk) => {
        if (ttft === undefined && has(chunk, "w000")) ttft = performance.now() - t0;
        if (!sawLast && has(chunk, "w099")) sawLast = true;
        tail = chunk.length >= 16 ? chunk.subarray(chunk.length - 16) : Buffer.concat([tail, chunk]).subarray(-16);
      });
      res.on("end", () => {
        const ok = res.statusCode === 200 && sawLast && tail.includes("[DONE]");
        resolve({ ok, ttfb, ttft, ms: performance.now() - t0, status: res.statusCode });
      });
      res.on("error", (e) => resolve({ ok: false, error: e.code ?? e.message }));
    });
    req.on("error", (e) => resolve({ ok: false, error: e.code ?? e.message }));
    req.setTimeout(60_000, () => req.destroy(new Error("timeout")));
    req.end(BURST_BODY);
  });
}

const pct = (xs, p) => {
  const s = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  return s.length === 0 ? undefined : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** N streams at once; the figures of one burst. */
async function burst(r, n) {
  const cpu0 = usage(r.child.pid).cpuMs;
  const client0 = process.cpuUsage();
  const url = r.url + r.p.burst;
  const results = await Promise.all(Array.from({ length: n }, () => stream(url)));
  const cpuMs = usage(r.child.pid).cpuMs - cpu0;
  const client = process.cpuUsage(client0);
  const ok = results.filter((x) => x.ok);
  const ms = ok.map((x) => x.ms);
  return {
    p50: pct(ms, 50),
    p99: pct(ms, 99),
    max: pct(ms, 100),
    ttfb50: pct(ok.map((x) => x.ttfb), 50),
    ttfb99: pct(ok.map((x) => x.ttfb), 99),
    ttft50: pct(ok.map((x) => x.ttft), 50),
    ttft99: pct(ok.map((x) => x.ttft), 99),
    errors: n - ok.length,
    cpuMs,
    clientCpuMs: (client.user + client.system) / 1000,
    firstError: results.find((x) => !x.ok),
  };
}

const running = [];
try {
  for (const t of TARGETS) {
    process.stderr.write(`burst: starting ${t.label}…\n`);
    const args = t.key === "node" && values.profile ? ["--cpu-prof", "--cpu-prof-dir", values.profile] : [];
    const { child, url } = await start(t, args);
    running.push({ target: t, child, url, p: paths(t.kind), runs: {}, peak: 0 });
  }
  const sampler = setInterval(() => {
    for (const r of running) r.peak = Math.max(r.peak, usage(r.child.pid).rssMB);
  }, 100);
  for (const r of running) await burst(r, Math.min(STREAMS, 100)); // warm-up: JIT, the session, the client's pool
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? running : [...running].reverse();
    for (const r of order) {
      await new Promise((res) => setTimeout(res, 500)); // let the last burst's sockets close
      const b = await burst(r, STREAMS);
      process.stderr.write(`burst: round ${round + 1}/${ROUNDS} ${r.target.key}: p50 ${b.p50?.toFixed(0)} p99 ${b.p99?.toFixed(0)} ms, ttfb p99 ${b.ttfb99?.toFixed(0)} ms, ttft p99 ${b.ttft99?.toFixed(0)} ms, cpu ${b.cpuMs} ms, errors ${b.errors}${b.firstError ? ` (${JSON.stringify(b.firstError)})` : ""}\n`);
      for (const [k, v] of Object.entries(b)) if (typeof v === "number") (r.runs[k] ??= []).push(v);
    }
  }
  clearInterval(sampler);
} finally {
  await stopAll(running.map((r) => r.child));
}

const fmt = (n, digits = 0) => (n === undefined ? "–" : n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const res = Object.fromEntries(running.map((r) => [r.target.key, { ...Object.fromEntries(Object.entries(r.runs).map(([k, xs]) => [k, median(xs)])), errors: (r.runs.errors ?? []).reduce((a, b) => a + b, 0), peak: r.peak, ideal: r.target.idealMs }]));
const ROWS = [
  ["stream duration p50 / p99 (ms)", (x) => `${fmt(x.p50)} / ${fmt(x.p99)}`],
  ["p99 ÷ ideal duration", (x) => `${(x.p99 / x.ideal).toFixed(2)}× (of ${fmt(x.ideal)} ms)`],
  ["slowest stream (ms)", (x) => fmt(x.max)],
  ["time to response head p50 / p99 (ms)", (x) => `${fmt(x.ttfb50)} / ${fmt(x.ttfb99)}`],
  ["time to first word p50 / p99 (ms)", (x) => `${fmt(x.ttft50)} / ${fmt(x.ttft99)}`],
  ["server CPU per burst (ms)", (x) => fmt(x.cpuMs)],
  ["client CPU per burst (ms)", (x) => fmt(x.clientCpuMs)],
  ["RSS peak (MB)", (x) => fmt(x.peak)],
  ["errors (all rounds)", (x) => fmt(x.errors)],
];
const keys = running.map((r) => r.target.key);
const header = [`${STREAMS} paced streams at once, median of ${ROUNDS} rounds`, ...running.map((r) => r.target.label)];
const lines = [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`];
for (const [label, cell] of ROWS) lines.push(`| ${[label, ...keys.map((k) => cell(res[k]))].join(" | ")} |`);
if (res.node && res.peer) {
  lines.push(`| mockllm ÷ peer: p99 duration / p99 head / p99 first word | ${(res.node.p99 / res.peer.p99).toFixed(2)}× / ${(res.node.ttfb99 / res.peer.ttfb99).toFixed(2)}× / ${(res.node.ttft99 / res.peer.ttft99).toFixed(2)}× |${" |".repeat(keys.length - 1)}`);
}
const table = lines.join("\n");
console.log(table);
if (values.markdown) writeFileSync(values.markdown, `${table}\n`);
