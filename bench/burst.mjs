#!/usr/bin/env node
// `npm run bench:burst`: a burst of N concurrent paced streams (default 1,000; 100 words at 50 words a second after a
// 200 ms time to first token) against mockllm's Node runtime and the leading local peer (@copilotkit/aimock), and
// optionally mockllm's Worker under Miniflare, from one client (node:http, an agent without a socket limit, a new
// connection per stream). Rounds alternate the targets' order; each figure is the median over the rounds. Two cases
// (`--case pool|harness|both`, default both): "pool", warm servers and one session; "harness", the outside harness's
// (issue 34): per round a freshly started server, a cold burst spread over 50 sessions of one scenario
// (`/s/bench-burst/p4-{i % 50}`), then a second, warm burst on the same server.
//   node bench/burst.mjs [--streams 1000] [--rounds 3] [--only node,peer,miniflare] [--markdown out.md]
//                        [--case both] [--sessions 50] [--client http|fetch]
//                        [--profile DIR]   (mockllm's Node runtime writes a V8 CPU profile there when stopped)
//                        [--baseline DIR]  (also another checkout's built Node runtime, DIR/dist/node: before and after)
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median, pct, start, stopAll } from "./launch.mjs";
import { usage } from "./proc.mjs";
import { stream, streamFetch } from "./burst-client.mjs";
import { BURST_PACING, paths } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    streams: { type: "string", default: "1000" },
    rounds: { type: "string", default: "3" },
    only: { type: "string", default: "node,peer" },
    markdown: { type: "string" },
    profile: { type: "string" },
    baseline: { type: "string" },
    case: { type: "string", default: "both" },
    sessions: { type: "string", default: "50" },
    client: { type: "string", default: "http" },
  },
});
const STREAMS = Number(values.streams);
const ROUNDS = Number(values.rounds);
const SESSIONS = Number(values.sessions);
const CASE = values.case;
// --client http (node:http, a new connection per stream) or fetch (undici's keep-alive pool, as `fetch` and the SDKs).
const send = values.client === "fetch" ? streamFetch : stream;
if (!["pool", "harness", "both"].includes(CASE)) throw new Error("--case is pool, harness or both");
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
  TARGETS.unshift({
    ...(TARGETS.find((t) => t.key === "node") ?? { launcher: here("./servers/mockllm-node.mjs"), kind: "mockllm", idealMs: BURST_PACING.ttftMs + WORDS * interval }),
    key: "base",
    label: "mockllm Node runtime, baseline build",
    env: { MOCKLLM_NODE_DIST: dist },
  });
}

/** Percentiles of one of a burst's timings over its streams that succeeded. */
const TIMINGS = { "": "ms", ttfb: "ttfb", byte: "firstByte", ttft: "ttft" };

/**
 * N streams at once (stream i to `urlOf(i)`); the figures of one burst, with the server's peak RSS while it ran
 * (sampled every 100 ms; the figure for the burst alone, not the run's).
 */
async function burst(r, n, urlOf = () => r.url + r.p.burst) {
  const cpu0 = usage(r.child.pid).cpuMs;
  const client0 = process.cpuUsage();
  let peakMB = usage(r.child.pid).rssMB;
  const sampler = setInterval(() => (peakMB = Math.max(peakMB, usage(r.child.pid).rssMB)), 100);
  const results = await Promise.all(Array.from({ length: n }, (_, i) => send(urlOf(i)))).finally(() => clearInterval(sampler));
  const cpuMs = usage(r.child.pid).cpuMs - cpu0;
  const client = process.cpuUsage(client0);
  const ok = results.filter((x) => x.ok);
  const figures = {
    max: pct(
      ok.map((x) => x.ms),
      100,
    ),
  };
  for (const [prefix, field] of Object.entries(TIMINGS)) {
    const xs = ok.map((x) => x[field]);
    figures[prefix ? `${prefix}50` : "p50"] = pct(xs, 50);
    figures[prefix ? `${prefix}99` : "p99"] = pct(xs, 99);
  }
  return { ...figures, errors: n - ok.length, cpuMs, clientCpuMs: (client.user + client.system) / 1000, peakMB, firstError: results.find((x) => !x.ok) };
}

const line = (b) =>
  `p50 ${b.p50?.toFixed(0)} p99 ${b.p99?.toFixed(0)} ms, ttfb p99 ${b.ttfb99?.toFixed(0)} ms, first byte p99 ${b.byte99?.toFixed(0)} ms, ttft p99 ${b.ttft99?.toFixed(0)} ms, cpu ${b.cpuMs} ms, peak RSS ${b.peakMB.toFixed(0)} MB, errors ${b.errors}${b.firstError ? ` (${JSON.stringify(b.firstError)})` : ""}`;
const record = (runs, b) => {
  for (const [k, v] of Object.entries(b)) if (typeof v === "number") (runs[k] ??= []).push(v);
};
const launch = async (t) => {
  const args = t.key === "node" && values.profile ? ["--cpu-prof", "--cpu-prof-dir", values.profile] : [];
  const { child, url } = await start(t, args);
  return { target: t, child, url, p: paths(t.kind) };
};
const pause = (ms) => new Promise((res) => setTimeout(res, ms));

/** `each(item, round)` for every round and item, the order alternating by round (no target always runs first). */
async function inRounds(items, each) {
  for (let round = 0; round < ROUNDS; round++) {
    for (const item of round % 2 === 0 ? items : [...items].reverse()) await each(item, round + 1);
  }
}

/**
 * The pooled case: every target started once, warmed with 100 streams, then `rounds` bursts of N streams on one
 * session each (`/s/bench-burst/b1`), the targets taking turns.
 */
async function pooled() {
  const running = [];
  try {
    for (const t of TARGETS) {
      process.stderr.write(`burst: starting ${t.label}…\n`);
      running.push({ ...(await launch(t)), runs: {} });
    }
    for (const r of running) await burst(r, Math.min(STREAMS, 100)); // warm-up: JIT, the session, the client's pool
    await inRounds(running, async (r, round) => {
      await pause(500); // let the last burst's sockets close
      const b = await burst(r, STREAMS);
      process.stderr.write(`burst: round ${round}/${ROUNDS} ${r.target.key}: ${line(b)}\n`);
      record(r.runs, b);
    });
  } finally {
    await stopAll(running.map((r) => r.child));
  }
  return running.map((r) => ({ key: r.target.key, label: r.target.label, ideal: r.target.idealMs, runs: r.runs }));
}

/**
 * The outside harness's case: per round, every target freshly started (nothing served yet), then a cold burst of N
 * streams spread over SESSIONS sessions of one scenario (`/s/bench-burst/p4-{i % SESSIONS}`: the sessions are created
 * by the burst itself), then, after the sockets close, a warm burst on the same server and the same sessions.
 * Targets take turns (the order alternates by round); the others are not running meanwhile.
 */
async function harness() {
  const out = Object.fromEntries(TARGETS.map((t) => [t.key, { key: t.key, label: t.label, ideal: t.idealMs, cold: {}, warm: {} }]));
  await inRounds(TARGETS, async (t, round) => {
    process.stderr.write(`burst (harness): round ${round}/${ROUNDS}, starting ${t.label}…\n`);
    const r = await launch(t);
    try {
      await pause(500); // idle, as after `mockllm serve` prints its URL
      const urlOf = r.target.kind === "mockllm" ? (i) => `${r.url}/s/bench-burst/p4-${i % SESSIONS}/v1/chat/completions` : () => r.url + r.p.burst;
      for (const phase of ["cold", "warm"]) {
        if (phase === "warm") await pause(1000); // let the cold burst's sockets close
        const b = await burst(r, STREAMS, urlOf);
        process.stderr.write(`burst (harness): round ${round}/${ROUNDS} ${t.key} ${phase}: ${line(b)}\n`);
        record(out[t.key][phase], b);
      }
    } finally {
      await stopAll([r.child]);
    }
  });
  return Object.values(out);
}

const fmt = (n, digits = 0) => (n === undefined ? "–" : n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const ROWS = [
  ["stream duration p50 / p99 (ms)", (x) => `${fmt(x.p50)} / ${fmt(x.p99)}`],
  ["p99 ÷ ideal duration", (x) => `${(x.p99 / x.ideal).toFixed(2)}× (of ${fmt(x.ideal)} ms)`],
  ["slowest stream (ms)", (x) => fmt(x.max)],
  ["time to response head p50 / p99 (ms)", (x) => `${fmt(x.ttfb50)} / ${fmt(x.ttfb99)}`],
  ["time to first body byte p50 / p99 (ms)", (x) => `${fmt(x.byte50)} / ${fmt(x.byte99)}`],
  ["time to first word p50 / p99 (ms)", (x) => `${fmt(x.ttft50)} / ${fmt(x.ttft99)}`],
  ["server CPU per burst (ms)", (x) => fmt(x.cpuMs)],
  ["client CPU per burst (ms)", (x) => fmt(x.clientCpuMs)],
  ["RSS peak during the burst (MB)", (x) => fmt(x.peakMB)],
  ["errors (all rounds)", (x) => fmt(x.errors)],
];
const summary = (runs, ideal) => ({ ...Object.fromEntries(Object.entries(runs).map(([k, xs]) => [k, median(xs)])), errors: (runs.errors ?? []).reduce((a, b) => a + b, 0), ideal });
const range = (xs) => (xs && xs.length > 1 ? ` (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})` : "");

/** One Markdown table: a column per target, the ratio row when mockllm and the peer both ran. */
function table(title, cols) {
  const res = Object.fromEntries(cols.map((c) => [c.key, summary(c.runs, c.ideal)]));
  const keys = cols.map((c) => c.key);
  const header = [title, ...cols.map((c) => c.label)];
  const lines = [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`];
  for (const [label, cell] of ROWS) lines.push(`| ${[label, ...keys.map((k) => cell(res[k]))].join(" | ")} |`);
  lines.push(`| p99 duration / head p99 range over rounds (ms) | ${cols.map((c) => `${range(c.runs.p99)} / ${range(c.runs.ttfb99)}`).join(" | ")} |`);
  lines.push(`| RSS peak range over rounds (MB) | ${cols.map((c) => range(c.runs.peakMB)).join(" | ")} |`);
  if (res.node && res.peer) {
    const r = (k) => `${(res.node[k] / res.peer[k]).toFixed(2)}×`;
    lines.push(
      `| mockllm ÷ peer: p99 duration / p99 head / p99 first byte / p99 first word / RSS peak | ${r("p99")} / ${r("ttfb99")} / ${r("byte99")} / ${r("ttft99")} / ${r("peakMB")} |${" |".repeat(keys.length - 1)}`,
    );
  }
  return lines.join("\n");
}

const tables = [];
if (CASE !== "harness") {
  const cols = await pooled();
  tables.push(table(`${STREAMS} paced streams at once on one session, warm, median of ${ROUNDS} rounds`, cols));
}
if (CASE !== "pool") {
  const cols = await harness();
  for (const phase of ["cold", "warm"]) {
    const title = `${STREAMS} paced streams at once over ${SESSIONS} sessions, ${phase === "cold" ? "first burst on a fresh server" : "second burst, same server"}, median of ${ROUNDS} rounds`;
    tables.push(
      table(
        title,
        cols.map((c) => ({ ...c, runs: c[phase] })),
      ),
    );
  }
}
const text = tables.join("\n\n");
console.log(text);
if (values.markdown) writeFileSync(values.markdown, `${text}\n`);
