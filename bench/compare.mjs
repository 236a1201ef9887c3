#!/usr/bin/env node
// `npm run bench`: the same scripted workload against mockllm's Node runtime, its Worker under Miniflare and under
// `wrangler dev`, the leading local peer (@copilotkit/aimock) and the floor (bare node:http), one after another in one
// process tree, so every figure can be read as a ratio taken in one run on the same machine.
//   node bench/compare.mjs [--duration 5] [--rounds 4] [--starts 5] [--only node,peer] [--markdown docs/performance-table.md]
//                          [--baseline DIR]   (also another checkout's built Node runtime, DIR/dist/node, and with
//                          miniflare its Worker, DIR/dist/worker)
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { median, start, stopAll } from "./launch.mjs";
import { leanRoundTrips } from "./lean-client.mjs";
import { usage } from "./proc.mjs";
import { benchClient, sdkReplay, sdkRequests, toolConversations } from "./sdk-conversations.mjs";
import { JSON_BODY, JSON_HEADERS, paths, STREAM_BODY } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "5" },
    only: { type: "string" },
    markdown: { type: "string" },
    conversations: { type: "string", default: "200" },
    rounds: { type: "string", default: "4" },
    // Fresh starts per target for the start-up row, the targets taking turns (its median; one start a target read the
    // first started 1.05–1.23× slower than the peer where interleaved starts read them equal).
    starts: { type: "string", default: "5" },
    // Another checkout whose built Node runtime (DIR/dist/node) runs beside this one: before and after in one run.
    baseline: { type: "string" },
  },
});
const DURATION = Number(values.duration);
const CONVERSATIONS = Number(values.conversations);
const WARM_CONVERSATIONS = 500;
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const TARGETS = [
  { key: "node", label: "mockllm Node runtime", launcher: here("./servers/mockllm-node.mjs"), kind: "mockllm" },
  { key: "peer", label: "peer (aimock 1.43)", launcher: here("./servers/aimock.mjs"), kind: "peer" },
  { key: "floor", label: "floor (bare node:http)", launcher: here("./servers/bare.mjs"), kind: "floor" },
  { key: "miniflare", label: "mockllm Worker, Miniflare", launcher: here("./servers/mockllm-miniflare.mjs"), kind: "mockllm" },
  { key: "wrangler", label: "mockllm `wrangler dev`", launcher: here("./servers/mockllm-wrangler-dev.mjs"), kind: "mockllm" },
  { key: "probe", label: "probe Worker (1 DO trip), Miniflare", launcher: here("./servers/probe-miniflare.mjs"), kind: "floor" },
  // The same probe answering with mockllm's wire: the request's headers kept, the answer's headers and bytes.
  {
    key: "probe-wire",
    label: "probe Worker with mockllm's wire, Miniflare",
    launcher: here("./servers/probe-miniflare.mjs"),
    kind: "floor",
    env: { PROBE_MODE: "wire" },
  },
].filter((t) => !values.only || values.only.split(",").includes(t.key));
if (values.baseline) {
  const env = { MOCKLLM_NODE_DIST: `${values.baseline}/dist/node/index.js` };
  if (TARGETS.some((t) => t.key === "node")) {
    TARGETS.unshift({ key: "base", label: "mockllm Node runtime, baseline build", launcher: here("./servers/mockllm-node.mjs"), kind: "mockllm", env });
  }
  // With miniflare: the baseline's Worker bundle too (DIR/dist/worker, run by DIR/dist/client).
  if (TARGETS.some((t) => t.key === "miniflare")) {
    const mfEnv = { MOCKLLM_CLIENT_DIST: `${values.baseline}/dist/client/index.js` };
    TARGETS.unshift({ key: "base-miniflare", label: "mockllm Worker, Miniflare, baseline build", launcher: here("./servers/mockllm-miniflare.mjs"), kind: "mockllm", env: mfEnv });
  }
}

/**
 * The SDK row with the client taken out: the two requests of one conversation as the installed `openai` client sends
 * them (its headers and bodies, captured once: bench/sdk-conversations.mjs sdkRequests) replayed by autocannon on 10
 * connections, as the client keeps 10 conversations going. The server bounds this row, where the client bounds the
 * one above it (on this 2-core machine the client's CPU and the server's share the cores). The Node-side targets only
 * (the probe Worker answers no tool call).
 */
const REPLAYS = new Set(["node", "base", "peer", "floor"]);
const SDK_REQUESTS = TARGETS.some((t) => REPLAYS.has(t.key)) ? await sdkRequests() : [];
function replay(r) {
  return autocannon({ ...sdkReplay(r.url + r.p.toolsBase, SDK_REQUESTS), connections: 10, duration: DURATION });
}

function cannon(url, body, connections, duration = DURATION) {
  return autocannon({ url, method: "POST", connections, duration, headers: JSON_HEADERS, body });
}

/**
 * The SDK row's workload (bench/sdk-conversations.mjs) against one target: conversations per second, at least
 * `--conversations` of them and for at least `--duration` seconds like the other rows (a count alone made rounds of
 * ~0.2 s on this machine, whose rate swung 0.70–1.21× between runs against the same two servers). The client is the
 * bench process itself and takes most of a core here, so its own warm-up counts: see WARM_CONVERSATIONS.
 */
function conversations(baseURL, count = CONVERSATIONS, seconds = DURATION, done = {}) {
  return toolConversations(benchClient(baseURL), count, undefined, seconds, done);
}

/**
 * Start-up is the median of `--starts` fresh starts of each target, the targets taking turns. Then every target is
 * started (idle RSS measured one at a time), and each workload runs `rounds`
 * times, the targets taking turns within a round, and each figure is the median of its rounds: on a shared machine a
 * slow moment then hits every target alike instead of whichever ran during it.
 */
const ROUNDS = Number(values.rounds);
// Start-up: fresh starts, the targets taking turns (odd passes the other way round), each stopped once ready.
const startMs = new Map(TARGETS.map((t) => [t, []]));
for (let i = 0; i < Number(values.starts); i++) {
  process.stderr.write(`bench: start-up, pass ${i + 1} of ${values.starts}\n`);
  for (const t of i % 2 ? [...TARGETS].reverse() : TARGETS) {
    const s = await start(t);
    startMs.get(t).push(s.startMs);
    await stopAll([s.child]);
    // A Worker target's workerd goes on tearing down after its launcher exits: let it finish before the next start.
    await new Promise((r) => setTimeout(r, 500));
  }
}
const running = [];
for (const t of TARGETS) {
  process.stderr.write(`bench: starting ${t.label}…\n`);
  const { child, url } = await start(t);
  await new Promise((r) => setTimeout(r, 500));
  const idle = usage(child.pid).rssMB;
  running.push({ target: t, child, url, p: paths(t.kind), startMs: median(startMs.get(t)), idle, peak: idle, cpuMs: 0, cpuRequests: 0, runs: {} });
}
// Peak RSS over the whole run, and per load (`phase`: the JSON turns, the streams, the SDK conversations), sampled
// every 100 ms; a target's figure for a load is its peak while it served that load.
let phase;
const sampler = setInterval(() => {
  for (const r of running) {
    const mb = usage(r.child.pid).rssMB;
    r.peak = Math.max(r.peak, mb);
    if (phase) r[phase] = Math.max(r[phase] ?? 0, mb);
  }
}, 100);
const record = (r, key, value) => (r.runs[key] ??= []).push(value);
try {
  for (const r of running) await cannon(r.url + r.p.json, JSON_BODY, 10, 2); // warm-up: JIT, caches
  // The SDK row's warm-up, every target alike before any is measured: the `openai` client's JIT and connection pool
  // and the servers' tool path. With 50 conversations in the first round only, the first target measured (always
  // this runtime) still paid the client's warm-up: its first measured round ran at ~60% of its later ones' rate.
  // The floor answers the conversation too (bench/servers/bare.mjs); the probe Worker does not.
  const converses = (r) => r.target.kind !== "floor" || r.target.key === "floor";
  for (const r of running) if (converses(r)) await conversations(r.url + r.p.toolsBase, WARM_CONVERSATIONS, 0);
  for (let round = 0; round < ROUNDS; round++) {
    process.stderr.write(`bench: round ${round + 1} of ${ROUNDS}\n`);
    // Odd rounds go the other way round, so no target always runs first (right after the client's own garbage).
    const order = round % 2 === 0 ? running : [...running].reverse();
    phase = "peakJson";
    for (const r of order) {
      const cpu0 = usage(r.child.pid).cpuMs;
      const c50 = await cannon(r.url + r.p.json, JSON_BODY, 50);
      r.cpuMs += usage(r.child.pid).cpuMs - cpu0;
      r.cpuRequests += c50.requests.total;
      record(r, "c50", c50.requests.average);
      record(r, "c50p50", c50.latency.p50);
      record(r, "c50p99", c50.latency.p99);
      record(r, "errors", c50.errors + c50.non2xx);
    }
    for (const r of order) {
      const c1 = await cannon(r.url + r.p.json, JSON_BODY, 1);
      record(r, "c1", c1.requests.average);
      record(r, "c1p50", c1.latency.p50);
      record(r, "c1p99", c1.latency.p99);
      record(r, "errors", c1.errors + c1.non2xx);
    }
    // The same row with a lean client (./lean-client.mjs): at one connection the client's own cost is in every round
    // trip, and autocannon's was quantised on this machine (docs/performance.md, "Wave 24").
    for (const r of order) {
      const lean = await leanRoundTrips(r.url + r.p.json, { method: "POST", headers: JSON_HEADERS, body: JSON_BODY, duration: DURATION });
      record(r, "c1lean", lean.rate);
      record(r, "c1leanP50", lean.p50);
      record(r, "c1leanP99", lean.p99);
      record(r, "errors", lean.non2xx);
    }
    phase = "peakStream";
    for (const r of order) {
      const stream = await cannon(r.url + r.p.stream, STREAM_BODY, 50);
      record(r, "stream", stream.requests.average);
      record(r, "errors", stream.errors + stream.non2xx);
    }
    phase = "peakConv";
    for (const r of order) {
      if (!converses(r)) continue;
      // The server's own CPU over the conversations: the row with the client's CPU taken out (the client in this
      // process saturates first, for every target alike, so conv/s above measures mostly the client).
      const cpu0 = usage(r.child.pid).cpuMs;
      const done = {};
      record(r, "conv", await conversations(r.url + r.p.toolsBase, CONVERSATIONS, DURATION, done));
      record(r, "convCpu", ((usage(r.child.pid).cpuMs - cpu0) / done.count) * 1000);
    }
    for (const r of order) {
      if (!REPLAYS.has(r.target.key)) continue;
      const cpu0 = usage(r.child.pid).cpuMs;
      const res = await replay(r);
      const conversations = res.requests.total / SDK_REQUESTS.length;
      record(r, "replay", res.requests.average / SDK_REQUESTS.length);
      record(r, "replayCpu", ((usage(r.child.pid).cpuMs - cpu0) / conversations) * 1000);
      record(r, "errors", res.errors + res.non2xx);
    }
  }
} finally {
  clearInterval(sampler);
  await stopAll(running.map((r) => r.child));
}

const results = {};
for (const r of running) {
  const m = Object.fromEntries(Object.entries(r.runs).map(([k, xs]) => [k, median(xs)]));
  results[r.target.key] = {
    ...m,
    errors: (r.runs.errors ?? []).reduce((a, b) => a + b, 0),
    startMs: r.startMs,
    idleMB: r.idle,
    peakMB: r.peak,
    peakJson: r.peakJson,
    peakStream: r.peakStream,
    peakConv: r.peakConv,
    cpuPer1000: (r.cpuMs / r.cpuRequests) * 1000,
    convPerCpuS: m.convCpu ? 1e6 / m.convCpu : undefined,
  };
}

const fmt = (n, digits = 0) => (n === undefined ? "–" : n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const ROWS = [
  ["JSON turn c=50 (req/s)", "c50", 0, "higher"],
  ["  p50 / p99 (ms)", (r) => `${fmt(r.c50p50, 1)} / ${fmt(r.c50p99, 1)}`],
  ["JSON turn c=1 (req/s)", "c1", 0, "higher"],
  ["  p50 / p99 (ms)", (r) => `${fmt(r.c1p50, 2)} / ${fmt(r.c1p99, 2)}`],
  ["JSON turn c=1, a lean client: one socket, the request's bytes (req/s)", "c1lean", 0, "higher"],
  ["  p50 / p99 (µs)", (r) => `${fmt(r.c1leanP50)} / ${fmt(r.c1leanP99)}`],
  ["200-word stream c=50 (req/s)", "stream", 0, "higher"],
  [`openai-SDK tool conversations, 10 at a time, ≥${CONVERSATIONS} and ≥${DURATION} s (conv/s)`, "conv", 0, "higher"],
  ["  server CPU per 1,000 of them (ms; the client's CPU taken out)", "convCpu", 0, "lower"],
  ["  conversations per second of server CPU (1,000,000 ÷ the row above)", "convPerCpuS", 0, "higher"],
  ["the same conversations' requests replayed, 10 connections, no client (conv/s)", "replay", 0, "higher"],
  ["  server CPU per 1,000 of them (ms)", "replayCpu", 0, "lower"],
  ["start-up to ready (ms)", "startMs", 0, "lower"],
  ["RSS idle (MB)", "idleMB", 0, "lower"],
  ["RSS peak, whole run (MB)", "peakMB", 0, "lower"],
  ["RSS peak under the JSON turns (MB)", "peakJson", 0, "lower"],
  ["RSS peak under the streams (MB)", "peakStream", 0, "lower"],
  ["RSS peak under the SDK conversations (MB)", "peakConv", 0, "lower"],
  ["server CPU per 1,000 JSON turns (ms)", "cpuPer1000", 0, "lower"],
  ["errors + non-2xx", "errors", 0, "lower"],
];
const keys = TARGETS.map((t) => t.key);
// Ratios shown: Node ÷ peer and ÷ floor; the Worker (and its baseline build) ÷ the probe, and ÷ the probe answering with
// mockllm's wire (probe-wire).
const RATIOS = [
  ["node", "peer", "Node ÷ peer"],
  ["node", "floor", "Node ÷ floor"],
  ["base-miniflare", "probe", "Worker baseline ÷ probe"],
  ["miniflare", "probe", "Worker ÷ probe"],
  ["miniflare", "probe-wire", "Worker ÷ probe with its wire"],
].filter(([a, b]) => results[a] && results[b]);
const header = ["figure", ...TARGETS.map((t) => t.label), ...RATIOS.map(([, , label]) => label)];
const lines = [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`];
for (const [label, key, digits] of ROWS) {
  const cells = keys.map((k) => (typeof key === "function" ? key(results[k]) : fmt(results[k][key], digits)));
  const ratio = (one, other) => {
    if (typeof key === "function") return "";
    const a = results[one][key];
    const b = results[other][key];
    return a === undefined || b === undefined || b === 0 ? "–" : `${(a / b).toFixed(2)}×`;
  };
  const extra = RATIOS.map(([one, other]) => ratio(one, other));
  lines.push(`| ${[label, ...cells, ...extra].join(" | ")} |`);
}
const table = lines.join("\n");
console.log(table);
if (values.markdown) writeFileSync(values.markdown, `${table}\n`);
