#!/usr/bin/env node
// `npm run bench:soak`: endurance under mixed traffic (issue 34). For each runtime (the Node runtime; the Worker under
// Miniflare), V virtual users run for N minutes, each cycling through JSON and streamed turns on four providers
// (OpenAI, Anthropic, Gemini, Ollama), Bedrock event streams, Responses WebSocket turns, MCP tool calls, a namespace
// key, a scripted failure and a client that aborts mid-stream (bench/soak-traffic.mjs), on a new session every 140
// operations. It samples RSS (and, on Node, the V8 heap after a full collection) every 10 s. Reports: operations and
// unscripted errors per kind, the RSS / heap slope after warm-up (least squares, MB per 10 minutes), and whether every
// journal holds exactly the requests sent to its session.
// Sessions idle for --ttl seconds (SESSION_TTL, default 120) are dropped, so memory can level off while new ones start;
// each session's journal is read as its virtual user leaves it.
// With --rate R the virtual users together start at most R operations a second, so the number of sessions alive within
// the TTL (and with them the memory a server must hold) stays level whatever else the machine runs; without it they run
// flat out and the level follows the machine's load.
//   node bench/soak.mjs [--minutes 60] [--only node,miniflare] [--vus 12] [--rate R] [--ttl 120] [--warmup M] [--markdown out.md]
// The hour (the default) is for a quiet machine; `--minutes 10` gives a shorter documented run.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { start, stopAll } from "./launch.mjs";
import { usage } from "./proc.mjs";
import { NS_SCENARIO, OPERATIONS, SOAK_SCENARIO, Unscripted } from "./soak-traffic.mjs";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "60" },
    only: { type: "string", default: "node,miniflare" },
    vus: { type: "string", default: "12" },
    rate: { type: "string" },
    warmup: { type: "string" },
    // SESSION_TTL in seconds: sessions idle this long are dropped, so memory can level off while new ones start.
    ttl: { type: "string", default: "120" },
    markdown: { type: "string" },
  },
});
const MINUTES = Number(values.minutes);
const VUS = Number(values.vus);
const RATE = values.rate === undefined ? undefined : Number(values.rate);
// With --rate, each virtual user starts its n-th operation no earlier than t0 + n × this.
const VU_INTERVAL_MS = RATE === undefined ? 0 : (VUS / RATE) * 1000;
const TTL_S = Number(values.ttl);
// Warm-up: until sessions have begun to expire (the TTL, then the expiry sweep's minute), at least a fifth of the run.
const WARMUP_MS = values.warmup === undefined ? Math.max(MINUTES * 12_000, (TTL_S + 90) * 1000) : Number(values.warmup) * 60_000;
const SAMPLE_MS = 10_000;
const OPS_PER_SESSION = 140; // 10 cycles of the 14 kinds; the journal keeps 1,000, so every entry stays readable
const TOKEN = "bench";
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const TARGETS = [
  { key: "node", label: "Node runtime", launcher: here("./servers/mockllm-node.mjs"), env: { MOCKLLM_BENCH_HEAP: "1" } },
  { key: "miniflare", label: "Worker under Miniflare (workerd)", launcher: here("./servers/mockllm-miniflare.mjs") },
]
  .map((t) => ({ ...t, env: { ...t.env, MOCKLLM_BENCH_VARS: JSON.stringify({ SESSION_TTL: String(TTL_S) }) } }))
  .filter((t) => values.only.split(",").includes(t.key));
const KINDS = Object.keys(OPERATIONS);

async function admin(base, path, init = {}, token = TOKEN) {
  const res = await fetch(`${base}/admin${path}`, { ...init, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } });
  if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The scenarios, a namespace with an admin and a run key, and the namespace's own `soak` scenario. */
async function setUp(base) {
  await admin(base, "/scenarios", { method: "POST", body: JSON.stringify([SOAK_SCENARIO]) });
  await admin(base, "/namespaces", { method: "POST", body: JSON.stringify({ name: "soak-ns" }) });
  const nsAdmin = (await admin(base, "/namespaces/soak-ns/keys", { method: "POST", body: JSON.stringify({ scope: "admin" }) })).key;
  const nsRun = (await admin(base, "/namespaces/soak-ns/keys", { method: "POST", body: JSON.stringify({ scope: "run" }) })).key;
  await admin(base, "/scenarios/soak", { method: "PUT", body: JSON.stringify(NS_SCENARIO) }, nsAdmin);
  return { nsAdmin, nsRun };
}

/** Least-squares slope of y (MB) over t (ms), in MB per 10 minutes. */
function slope(points) {
  const n = points.length;
  if (n < 2) return undefined;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const num = points.reduce((a, p) => a + (p.t - mt) * (p.y - my), 0);
  const den = points.reduce((a, p) => a + (p.t - mt) ** 2, 0);
  return (num / den) * 600_000;
}

async function soak(target) {
  process.stderr.write(`soak: starting ${target.label}…\n`);
  const { child, url } = await start(target, target.key === "node" ? ["--expose-gc"] : []);
  let heapMB;
  child.stdout.on("data", (d) => {
    const m = /heap (\d+)/.exec(String(d));
    if (m) heapMB = Number(m[1]) / 1e6;
  });
  const keys = await setUp(url);
  const t0 = Date.now();
  const deadline = t0 + MINUTES * 60_000;
  const samples = [];
  const stats = Object.fromEntries(KINDS.map((k) => [k, { n: 0, errors: 0, ms: 0, first: undefined }]));
  const sampler = setInterval(() => {
    samples.push({ t: Date.now() - t0, rss: usage(child.pid).rssMB, heap: heapMB });
    const s = samples.at(-1);
    const done = Object.values(stats).reduce((a, x) => a + x.n, 0);
    process.stderr.write(
      `soak ${target.key}: ${(s.t / 60_000).toFixed(1)} min, ${done} ops, RSS ${s.rss.toFixed(0)} MB${s.heap ? `, heap ${s.heap.toFixed(0)} MB` : ""}, errors ${Object.values(stats).reduce((a, x) => a + x.errors, 0)}\n`,
    );
  }, SAMPLE_MS);
  const expected = new Map(); // session -> entries its journal must hold
  const nsExpected = new Map();
  let incomplete = 0;
  let checked = 0;
  let firstGap;
  const check = async (session, want, token) => {
    if (want === undefined || Number.isNaN(want)) return;
    const got = (await admin(url, `/sessions/soak/${session}/requests`, {}, token)).length;
    checked++;
    if (got !== want) {
      incomplete++;
      firstGap ??= `${session}: ${got} entries, ${want} sent`;
    }
  };
  await Promise.all(
    Array.from({ length: VUS }, async (_, vu) => {
      let started = 0;
      for (let gen = 0; Date.now() < deadline; gen++) {
        const session = `v${vu}-g${gen}`;
        const ctx = { base: url, prefix: `/s/soak/${session}`, nsKey: keys.nsRun, state: {} };
        expected.set(session, 0);
        for (let i = 0; i < OPS_PER_SESSION && Date.now() < deadline; i++) {
          const kind = KINDS[(i + vu) % KINDS.length];
          if (RATE !== undefined) {
            // A slot missed (the server or the machine was slow) is skipped, not caught up in a burst.
            const offset = t0 + vu * (VU_INTERVAL_MS / VUS);
            started = Math.max(started, Math.ceil((Date.now() - offset) / VU_INTERVAL_MS));
            const due = offset + started++ * VU_INTERVAL_MS;
            if (Date.now() < due) await new Promise((r) => setTimeout(r, due - Date.now()));
          }
          const t = performance.now();
          try {
            expected.set(session, expected.get(session) + (await OPERATIONS[kind](ctx)));
            if (kind === "namespaceKey") nsExpected.set(session, (nsExpected.get(session) ?? 0) + 1);
          } catch (e) {
            stats[kind].errors++;
            stats[kind].first ??= e instanceof Unscripted ? e.message : `${e.name}: ${e.message} ${e.cause?.code ?? ""}`;
            // A failed request may or may not have reached the journal: this session's count is no longer known.
            expected.set(session, Number.NaN);
          }
          stats[kind].n++;
          stats[kind].ms += performance.now() - t;
        }
        ctx.state.socket?.close();
        // The session's journal, read as the virtual user leaves it (before its TTL drops it): exactly what was sent.
        await new Promise((r) => setTimeout(r, 200)); // an aborted stream's last write settles
        await check(session, expected.get(session), TOKEN);
        await check(session, nsExpected.get(session), keys.nsAdmin);
      }
    }),
  );
  clearInterval(sampler);
  await stopAll([child]);
  const after = samples.filter((s) => s.t >= WARMUP_MS);
  return {
    target,
    stats,
    samples,
    rssSlope: slope(after.map((s) => ({ t: s.t, y: s.rss }))),
    heapSlope: after.every((s) => s.heap !== undefined) ? slope(after.map((s) => ({ t: s.t, y: s.heap }))) : undefined,
    journals: { checked, incomplete, firstGap, sessions: expected.size + nsExpected.size },
  };
}

const fmt = (n, d = 0) => (n === undefined || Number.isNaN(n) ? "–" : n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d }));
const out = [];
for (const target of TARGETS) {
  const r = await soak(target);
  const total = Object.values(r.stats).reduce((a, x) => a + x.n, 0);
  const errors = Object.values(r.stats).reduce((a, x) => a + x.errors, 0);
  const after = r.samples.filter((s) => s.t >= WARMUP_MS);
  const range = (k) => (after.length ? `${fmt(Math.min(...after.map((s) => s[k])))}–${fmt(Math.max(...after.map((s) => s[k])))}` : "–");
  out.push(`### ${target.label}: ${MINUTES} min, ${VUS} virtual users${RATE === undefined ? "" : ` at ${RATE} operations/s`}, SESSION_TTL ${TTL_S} s`, "");
  out.push(`| kind | operations | unscripted errors | mean ms | first error |`, `| --- | --- | --- | --- | --- |`);
  for (const [k, s] of Object.entries(r.stats)) out.push(`| ${k} | ${fmt(s.n)} | ${s.errors} | ${fmt(s.ms / s.n, 1)} | ${s.first ?? ""} |`);
  out.push(`| all | ${fmt(total)} (${fmt(total / (MINUTES * 60), 0)}/s) | ${errors} | | |`, "");
  out.push(`| figure | value |`, `| --- | --- |`);
  out.push(`| RSS after warm-up (${fmt(WARMUP_MS / 60_000, 1)} min), min–max (MB) | ${range("rss")} |`);
  out.push(`| RSS slope after warm-up (MB per 10 min) | ${fmt(r.rssSlope, 2)} |`);
  if (r.heapSlope !== undefined) {
    out.push(`| V8 heap used after warm-up, min–max (MB) | ${range("heap")} |`);
    out.push(`| V8 heap slope after warm-up (MB per 10 min) | ${fmt(r.heapSlope, 2)} |`);
  }
  out.push(
    `| sessions' journals complete | ${r.journals.checked - r.journals.incomplete} of ${r.journals.checked} checked (${r.journals.sessions} sessions)${r.journals.firstGap ? `; first gap ${r.journals.firstGap}` : ""} |`,
    "",
  );
}
const text = out.join("\n");
console.log(text);
if (values.markdown) writeFileSync(values.markdown, `${text}\n`);
