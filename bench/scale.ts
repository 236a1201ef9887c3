/**
 * How a run's cost grows with its size (issue 59, part 1): curves, each printed as a Markdown table and drawn as a
 * log-log SVG plot into docs/performance/scale-*.svg, with the fitted growth (the least-squares slope of log y on
 * log x: ~0 flat, ~1 linear, ~2 quadratic).
 *   npm run bench:scale [-- --quick] [-- --only conversation,compaction,chain,scenario,journal,sessions,sockets,worker,batch] [-- --no-svg]
 * (= node bin/build-node.mjs && node --expose-gc --max-semi-space-size=64 --import tsx bench/scale.ts)
 * - conversation: a turn's CPU and bytes allocated against the conversation's length (10 → 2,000 messages: a user
 *   turn, then rounds of an assistant tool call, its result and a user follow-up) on Chat, Responses (stateless) and
 *   Anthropic, in process through the engine (parse + decide + render, as bench/engine.ts), no HTTP or storage;
 * - compaction: the same with a compaction every 50 messages (a Responses `compaction` item, an Anthropic `compaction`
 *   block), Responses and Anthropic;
 * - chain: a Responses turn on a `previous_response_id` chain against its length (10 → 2,000 messages), beside the
 *   same conversation sent whole, over HTTP to the Node runtime (the built bundle) in this process;
 * - scenario: a turn's CPU against the scenario's size (10 → 10,000 steps, matchers of eight kinds, half of them
 *   `consume: false`, the answering step last), in process through the engine;
 * - journal: a turn's CPU and latency against the session's journal length (0 → past its bound), over HTTP to the
 *   Node runtime (the built bundle, dist/node) in this process;
 * - sessions: heap per session and a new session's first-turn latency against the number of live sessions
 *   (1 → 100,000; --quick stops at 10,000), Node runtime in this process;
 * - sockets: time and server CPU to open N Responses WebSockets and serve one turn on each (Node with ws 100 → 10,000,
 *   --quick → 3,000; the Worker under Miniflare 100 → 2,000, --quick → 300), bench/scale-servers.mjs, a fresh server
 *   per size in another process;
 * - worker: the Worker under Miniflare: Durable Objects created per second and a new session's first turn against the
 *   number existing (1 → 2,000; --quick → 300), bench/scale-servers.mjs; builds dist/worker first;
 * - batch: a batch's time and peak heap against its lines (100 → 10,000; --quick → 3,000), bench/batch-memory.ts
 *   in a child process per size.
 * Bytes allocated: with a 64 MB semi-space, a few turns run between a full GC and the next reading of the heap
 * without any collection, so heapUsed's rise is what they allocated (retained or not).
 * Figures depend on the machine and its load; the shape (the slope) is the point.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { anthropicBody, CONVERSATIONS, chatBody, followUp, responsesBody, result } from "./conversations";
import { anthropicMessages } from "../src/providers/anthropic/index";
import { openaiChat } from "../src/providers/openai/chat";
import { compactionBlob } from "../src/providers/openai/responses/compaction";
import { openaiResponses } from "../src/providers/openai/responses/index";
import type { ProviderSurface } from "../src/providers/types";
import { decide, type SessionState } from "../src/scenario/engine";
import { type Scenario, ScenarioSchema } from "../src/scenario/schema";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string", default: "conversation,compaction,chain,scenario,journal,sessions,sockets,worker,batch" },
    "no-svg": { type: "boolean", default: false },
  },
});
const QUICK = values.quick;
const ONLY = new Set(values.only.split(","));
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "docs", "performance");
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc (npm run bench:scale does)");

// ---------------------------------------------------------------------------------------------------------------
// Fitting, tables and plots

interface Series {
  name: string;
  points: [number, number][];
}

/** Least-squares slope of log y on log x. */
function slope(points: [number, number][]): number {
  const ps = points.filter(([x, y]) => x > 0 && y > 0).map(([x, y]) => [Math.log(x), Math.log(y)] as const);
  const mx = ps.reduce((s, p) => s + p[0], 0) / ps.length;
  const my = ps.reduce((s, p) => s + p[1], 0) / ps.length;
  const num = ps.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0);
  const den = ps.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

/** The points within 20× of the largest x: where a size's own cost, not the fixed cost of a turn, decides the slope. */
function top(points: [number, number][]): [number, number][] {
  const max = Math.max(...points.map((p) => p[0]));
  return points.filter((p) => p[0] * 20 >= max);
}

function growth(s: number): string {
  if (s < 0.25) return "flat";
  if (s < 1.15) return "at most linear";
  if (s < 1.6) return "WORSE than linear";
  return "QUADRATIC or worse";
}

const fmt = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString("en-US") : n >= 10 ? n.toFixed(1) : n.toFixed(2));

/** A Markdown table: one row per x, one column per series, then each series' fitted slope. */
function table(xLabel: string, series: Series[], unit: string): string {
  const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p[0])))].sort((a, b) => a - b);
  const lines = [`| ${xLabel} | ${series.map((s) => (unit ? `${s.name} (${unit})` : s.name)).join(" | ")} |`, `| ---: | ${series.map(() => "---:").join(" | ")} |`];
  for (const x of xs)
    lines.push(
      `| ${x.toLocaleString("en-US")} | ${series
        .map((s) => {
          const p = s.points.find((q) => q[0] === x);
          return p ? fmt(p[1]) : "";
        })
        .join(" | ")} |`,
    );
  lines.push(`| **log-log slope** | ${series.map((s) => `**${slope(s.points).toFixed(2)}** (${growth(slope(s.points))})`).join(" | ")} |`);
  lines.push(`| **slope of the top decades** | ${series.map((s) => `**${slope(top(s.points)).toFixed(2)}** (${growth(slope(top(s.points)))})`).join(" | ")} |`);
  return lines.join("\n");
}

/** A decade's label: 10, 1,000, 0.1. */
const tick = (d: number): string => (d >= 0 ? (10 ** d).toLocaleString("en-US") : String(10 ** d));

const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A log-log line plot, hand-written SVG: decade gridlines, one polyline and its points per series, a legend. */
function svg(title: string, xLabel: string, yLabel: string, series: Series[]): string {
  const W = 640;
  const H = 400;
  const L = 70;
  const R = 20;
  const T = 40;
  const B = 50;
  const all = series.flatMap((s) => s.points).filter(([x, y]) => x > 0 && y > 0);
  const lx0 = Math.floor(Math.log10(Math.min(...all.map((p) => p[0]))));
  const lx1 = Math.ceil(Math.log10(Math.max(...all.map((p) => p[0]))));
  const ly0 = Math.floor(Math.log10(Math.min(...all.map((p) => p[1]))));
  const ly1 = Math.max(ly0 + 1, Math.ceil(Math.log10(Math.max(...all.map((p) => p[1])))));
  const X = (x: number) => L + ((Math.log10(x) - lx0) / (lx1 - lx0 || 1)) * (W - L - R);
  const Y = (y: number) => H - B - ((Math.log10(y) - ly0) / (ly1 - ly0 || 1)) * (H - T - B);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${esc(title)}</text>`,
  ];
  for (let d = lx0; d <= lx1; d++) {
    const x = X(10 ** d).toFixed(1);
    out.push(`<line x1="${x}" y1="${T}" x2="${x}" y2="${H - B}" stroke="#ddd"/>`, `<text x="${x}" y="${H - B + 16}" text-anchor="middle">${tick(d)}</text>`);
  }
  for (let d = ly0; d <= ly1; d++) {
    const y = Y(10 ** d).toFixed(1);
    out.push(`<line x1="${L}" y1="${y}" x2="${W - R}" y2="${y}" stroke="#ddd"/>`, `<text x="${L - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${tick(d)}</text>`);
  }
  out.push(
    `<rect x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="none" stroke="#333"/>`,
    `<text x="${(L + W - R) / 2}" y="${H - 12}" text-anchor="middle">${esc(xLabel)} (log)</text>`,
    `<text transform="translate(16 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)} (log)</text>`,
  );
  series.forEach((s, i) => {
    const c = COLORS[i % COLORS.length];
    const ps = s.points.filter(([x, y]) => x > 0 && y > 0);
    out.push(`<polyline fill="none" stroke="${c}" stroke-width="2" points="${ps.map(([x, y]) => `${X(x).toFixed(1)},${Y(y).toFixed(1)}`).join(" ")}"/>`);
    for (const [x, y] of ps) out.push(`<circle cx="${X(x).toFixed(1)}" cy="${Y(y).toFixed(1)}" r="3" fill="${c}"/>`);
    out.push(`<text x="${L + 10}" y="${T + 16 + i * 16}" fill="${c}">${esc(`${s.name}: slope ${slope(s.points).toFixed(2)} (top decades ${slope(top(s.points)).toFixed(2)})`)}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

function report(file: string, title: string, xLabel: string, yLabel: string, unit: string, series: Series[]): void {
  console.log(`\n#### ${title}\n\n${table(xLabel, series, unit)}\n`);
  if (!values["no-svg"]) {
    mkdirSync(OUT, { recursive: true });
    writeFileSync(join(OUT, `scale-${file}.svg`), svg(title, xLabel, yLabel, series));
    console.log(`![${title}](performance/scale-${file}.svg)`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
};

/**
 * CPU µs (user + system) per call of `fn`: warmed for ~`budgetMs` (the JIT settles), then calls batched to ~`budgetMs`
 * of wall time, the least of 5 batches (a loaded machine only ever adds time).
 */
function cpuPerCall(fn: () => void, budgetMs = QUICK ? 40 : 150): number {
  const w0 = performance.now();
  let calls = 0;
  while (performance.now() - w0 < budgetMs || calls < 5) {
    fn();
    calls++;
  }
  const n = Math.max(3, Math.min(20_000, Math.round(calls)));
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) fn();
    const c = process.cpuUsage(c0);
    runs.push((c.user + c.system) / n);
  }
  return Math.min(...runs);
}

/** Bytes allocated per call: heapUsed's rise over `k` calls after a full GC (no collection in between), median of 5. */
function bytesPerCall(fn: () => void, k = 3): number {
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    gc!();
    const h0 = process.memoryUsage().heapUsed;
    for (let i = 0; i < k; i++) fn();
    const h1 = process.memoryUsage().heapUsed;
    runs.push((h1 - h0) / k);
  }
  return median(runs);
}

// ---------------------------------------------------------------------------------------------------------------
// Curve 1: a turn against the conversation's length (the conversations: bench/conversations.ts)

/** Every 50 messages a compaction stands for what came before (a long agent run compacted again and again). */
const COMPACT_EVERY = 50;

/** Responses stateless, a `compaction` item (mockllm's own blob) in place of every 50th message. */
function responsesCompactedBody(n: number): unknown {
  const body = responsesBody(n) as { input: unknown[] };
  const input = body.input.map((item, i) =>
    i > 0 && i % COMPACT_EVERY === 0 && i < body.input.length - 1 ? { type: "compaction", encrypted_content: compactionBlob(`summary of the first ${i} items`) } : item,
  );
  return { ...body, input: repairCalls(input) };
}

/** Drops a `function_call_output` whose `function_call` a compaction replaced (the API refuses an orphan output). */
function repairCalls(input: unknown[]): unknown[] {
  const calls = new Set(input.flatMap((i) => ((i as { type?: string }).type === "function_call" ? [(i as { call_id: string }).call_id] : [])));
  return input.filter((i) => (i as { type?: string }).type !== "function_call_output" || calls.has((i as { call_id: string }).call_id));
}

/** Anthropic, a `compaction` block (beta compact-2026-01-12) opening every assistant message at a multiple of 50. */
function anthropicCompactedBody(n: number): unknown {
  const body = anthropicBody(n) as { messages: { role: string; content: unknown }[] };
  const messages = body.messages.map((m, i) =>
    m.role === "assistant" && Array.isArray(m.content) && i >= COMPACT_EVERY && Math.floor(i / COMPACT_EVERY) !== Math.floor((i - 2) / COMPACT_EVERY)
      ? { ...m, content: [{ type: "compaction", content: `summary of the first ${i} messages` }, ...m.content] }
      : m,
  );
  return { ...body, messages };
}

const CONVERSATION_SCENARIO = ScenarioSchema.parse({
  name: "scale",
  steps: [
    { id: "tool", match: { lastUserMessage: { contains: "weather" } }, respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] } },
    { id: "answer", consume: false, respond: { text: "It is sunny in Paris today." } },
  ],
});

interface Surface {
  name: string;
  surface: ProviderSurface<any>;
  path: string;
  headers: Headers;
  body: (n: number) => unknown;
}

/** A conversation of bench/conversations.ts as `Surface` fields (its headers made once). */
const sent = (name: keyof typeof CONVERSATIONS) => ({ ...CONVERSATIONS[name], headers: CONVERSATIONS[name].headers() });

const SURFACES: Surface[] = [
  { name: "Chat", surface: openaiChat, ...sent("Chat") },
  { name: "Responses", surface: openaiResponses, ...sent("Responses") },
  { name: "Anthropic", surface: anthropicMessages, ...sent("Anthropic") },
];

/** The same conversations with compaction items in them (curve `compaction`). */
const COMPACTED: Surface[] = [
  { ...SURFACES[1]!, name: "Responses + compaction", body: responsesCompactedBody },
  {
    ...SURFACES[2]!,
    name: "Anthropic + compaction",
    headers: new Headers({ "x-api-key": "sk", "anthropic-version": "2023-06-01", "anthropic-beta": "compact-2026-01-12", "content-type": "application/json" }),
    body: anthropicCompactedBody,
  },
];

/** One turn in process: parse the body (from its JSON text, as a server receives it), decide, render to JSON text. */
function engineTurn(s: Surface, text: string, scenario: Scenario, state: SessionState = { used: [], attempts: {} }): () => void {
  const target = { path: s.path, query: new URLSearchParams() };
  return () => {
    const parsed = s.surface.parse(JSON.parse(text), s.headers, target);
    if (!parsed.ok) throw new Error(`${s.name}: ${parsed.error.message}`);
    const decision = decide(scenario, state, parsed.request, { scenario: "scale", session: "s" });
    if (decision.outcome.kind !== "reply") throw new Error(`${s.name}: unexpected ${decision.outcome.kind}`);
    JSON.stringify(s.surface.renderJson(decision.outcome.reply, { wire: parsed.wire, request: parsed.request, requestId: "req_1", created: 0 }));
  };
}

/**
 * CPU µs per call of `turn` and of `floor`, in interleaved batches (turn first, then floor, the order alternating),
 * each the least of its batches, and the median of the batches' ratios: a loaded machine slows both sides of a round
 * alike, so the ratio holds where the absolute figures drift (bench/engine.ts's gate does the same).
 */
function interleaved(turn: () => void, floor: () => void): { turn: number; floor: number; ratio: number } {
  const budget = QUICK ? 30 : 100;
  const calls = (fn: () => void) => {
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < budget || n < 3) {
      fn();
      n++;
    }
    return n;
  };
  const nt = calls(turn);
  const nf = calls(floor);
  const cpu = (fn: () => void, n: number) => {
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) fn();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / n;
  };
  const ts: number[] = [];
  const fs: number[] = [];
  const rs: number[] = [];
  for (let r = 0; r < (QUICK ? 5 : 9); r++) {
    const [t, f] = r % 2 === 0 ? [cpu(turn, nt), cpu(floor, nf)] : (([f2, t2]) => [t2, f2])([cpu(floor, nf), cpu(turn, nt)]);
    ts.push(t!);
    fs.push(f!);
    rs.push(t! / f!);
  }
  return { turn: Math.min(...ts), floor: Math.min(...fs), ratio: median(rs) };
}

function conversationCurve(surfaces = SURFACES, file = "conversation", what = ""): void {
  const sizes = QUICK ? [10, 100, 500, 2000] : [10, 30, 100, 300, 1000, 2000];
  const cpu: Series[] = [];
  const floors: Series[] = [];
  const ratios: Series[] = [];
  const alloc: Series[] = [];
  const kb: [number, number][] = [];
  let sink = 0;
  for (const s of surfaces) {
    const c: Series = { name: s.name, points: [] };
    const f: Series = { name: `${s.name} floor`, points: [] };
    const q: Series = { name: `${s.name} turn ÷ floor`, points: [] };
    const a: Series = { name: s.name, points: [] };
    for (const n of sizes) {
      const text = JSON.stringify(s.body(n));
      if (s.name === "Chat") kb.push([n, text.length / 1024]);
      const fn = engineTurn(s, text, CONVERSATION_SCENARIO);
      const m = interleaved(fn, () => {
        sink += JSON.stringify(JSON.parse(text)).length;
      });
      c.points.push([n, m.turn]);
      f.points.push([n, m.floor]);
      q.points.push([n, m.ratio]);
      a.points.push([n, bytesPerCall(fn) / 1024]);
    }
    cpu.push(c);
    floors.push(f);
    ratios.push(q);
    alloc.push(a);
  }
  if (sink === 0) throw new Error("unreachable");
  report(`${file}-cpu`, `A turn's CPU against the conversation's length${what} (in process)`, "messages", "CPU per turn (µs)", "µs", [...cpu, ...floors]);
  console.log("\nThe floor: `JSON.stringify(JSON.parse(body))` of the same body, the least any server does with it; turn ÷ floor, median of interleaved rounds:\n");
  console.log(`${table("messages", ratios, "")}\n`);
  for (const c of cpu) {
    const at = (n: number) => c.points.find((p) => p[0] === n)?.[1];
    const r = (at(2000) ?? 0) / (at(100) ?? 1);
    const f = floors.find((x) => x.name === `${c.name} floor`)!.points;
    const fr = (f.find((p) => p[0] === 2000)?.[1] ?? 0) / (f.find((p) => p[0] === 100)?.[1] ?? 1);
    console.log(`- ${c.name}: 2,000 messages ÷ 100 = ${r.toFixed(1)}× (target ≤ 20×: ${r <= 20 ? "met" : "MISSED"}); the floor's own ratio ${fr.toFixed(1)}×`);
  }
  if (kb.length > 0) console.log(`- Chat body sizes: ${kb.map(([n, k]) => `${n} messages ${k.toFixed(0)} KB`).join(", ")}`);
  report(`${file}-alloc`, `Bytes allocated per turn against the conversation's length${what}`, "messages", "allocated per turn (KB)", "KB", alloc);
}

// ---------------------------------------------------------------------------------------------------------------
// Curve 2: a turn against the scenario's size

/** `n` steps: matchers of eight kinds that do not hold for the request, half `consume: false`, the answer last. */
function bigScenario(n: number): Scenario {
  const kinds = [
    (i: number) => ({ lastUserMessage: { contains: `needle ${i}` } }),
    (i: number) => ({ model: { regex: `^model-${i}$` } }),
    (i: number) => ({ toolResult: { name: `tool_${i}` } }),
    (i: number) => ({ firstUserMessage: { equals: `first ${i}` } }),
    (i: number) => ({ system: { contains: `system ${i}` } }),
    (i: number) => ({ tools: [`tool_${i}`] }),
    (i: number) => ({ toolCall: { name: `tool_${i}`, arguments: { path: `src/file${i}.ts` } } }),
    (i: number) => ({ endpoint: "embeddings", lastUserMessage: `exact ${i}` }),
  ];
  const steps = Array.from({ length: n - 1 }, (_, i) => ({ id: `s${i}`, consume: i % 2 === 0 ? false : undefined, match: kinds[i % kinds.length]!(i), respond: { text: `step ${i}` } }));
  steps.push({ id: "answer", consume: false, match: undefined as never, respond: { text: "The answer." } });
  return ScenarioSchema.parse({ name: "scale", steps: steps.map(({ match, ...rest }) => (match ? { ...rest, match } : rest)) });
}

function scenarioCurve(): void {
  const sizes = QUICK ? [10, 100, 1000, 10000] : [10, 30, 100, 300, 1000, 3000, 10000];
  const chat = SURFACES[0]!;
  const text = JSON.stringify(chat.body(12));
  const series: Series = { name: "Chat, 12 messages", points: [] };
  for (const n of sizes) series.points.push([n, cpuPerCall(engineTurn(chat, text, bigScenario(n)))]);
  // A recorded script: every step consumed in order (the default), the session halfway through it.
  const script: Series = { name: "script of consumed steps, halfway", points: [] };
  for (const n of sizes) {
    const doc = ScenarioSchema.parse({ name: "scale", steps: Array.from({ length: n }, (_, i) => ({ id: `q${i}`, match: { lastUserMessage: `question ${i}` }, respond: { text: `answer ${i}` } })) });
    const half = n >> 1;
    const state = { used: Array.from({ length: half }, (_, i) => i), attempts: {} };
    const body = JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: `question ${half}` }] });
    script.points.push([n, cpuPerCall(engineTurn(chat, body, doc, state))]);
  }
  report("scenario-cpu", "A turn's CPU against the scenario's size (in process)", "steps", "CPU per turn (µs)", "µs", [series, script]);
}

// ---------------------------------------------------------------------------------------------------------------
// Curves 3 and 4: the Node runtime in this process

const ADMIN = { authorization: "Bearer scale", "content-type": "application/json" };
const TURN_BODY = JSON.stringify(chatBody(4));

/**
 * The Node runtime as users run it: the bundle `npm run bench:scale` builds (dist/node/index.js), not the sources
 * under tsx, whose `keepNames` transform gives every function a name property of its own (~9 KB per session instead
 * of ~2.7 KB in the closures alone).
 */
async function nodeServer() {
  const bundle = join(ROOT, "dist", "node", "index.js");
  const { startServer } = (await import(pathToFileURL(bundle).href)) as typeof import("../src/hosts/node/index");
  const server = await startServer({ adminToken: "scale", vars: { DEFAULT_WORDS_PER_SECOND: "0" }, log: () => {} });
  const doc = { name: "scale", steps: [{ id: "any", consume: false, respond: { text: "Scaled answer." } }] };
  // The same script under `limits` no turn reaches: each turn counts the session's last minute.
  const limited = { ...doc, name: "scale-limits", limits: { requestsPerMinute: 1_000_000, tokensPerMinute: 1_000_000_000 } };
  const res = await fetch(`${server.url}/admin/scenarios`, { method: "POST", headers: ADMIN, body: JSON.stringify([doc, limited]) });
  if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return server;
}

async function turnOn(url: string, session: string, scenario = "scale"): Promise<void> {
  const res = await fetch(`${url}/s/${scenario}/${session}/v1/chat/completions`, { method: "POST", headers: { authorization: "Bearer sk", "content-type": "application/json" }, body: TURN_BODY });
  if (res.status !== 200) throw new Error(`turn: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

async function journalCurve(): Promise<void> {
  const server = await nodeServer();
  const total = QUICK ? 1200 : 1500; // the bound is JOURNAL_LIMIT = 1,000 entries
  const bucket = 100;
  const cpu: Series = { name: "CPU per turn", points: [] };
  const wall: Series = { name: "latency per turn", points: [] };
  const limitedCpu: Series = { name: "CPU per turn, scenario with `limits`", points: [] };
  for (let i = 0; i < 50; i++) await turnOn(server.url, "warm");
  for (let i = 0; i < 50; i++) await turnOn(server.url, "warm", "scale-limits");
  for (let b = 0; b < total / bucket; b++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < bucket; i++) await turnOn(server.url, "long");
    const c = process.cpuUsage(c0);
    const x = b * bucket + bucket / 2;
    cpu.points.push([x, (c.user + c.system) / bucket]);
    wall.points.push([x, ((performance.now() - t0) * 1000) / bucket]);
    const l0 = process.cpuUsage();
    for (let i = 0; i < bucket; i++) await turnOn(server.url, "long", "scale-limits");
    const l = process.cpuUsage(l0);
    limitedCpu.points.push([x, (l.user + l.system) / bucket]);
  }
  await server.close();
  report("journal", "A turn's CPU and latency against the session's journal length (Node, HTTP, in process)", "journal entries before the turn", "µs per turn", "µs", [cpu, wall, limitedCpu]);
  console.log(
    "- journal bound: 1,000 entries (JOURNAL_LIMIT); turns past it drop the oldest entry. CPU includes the in-process client. " +
      "With `limits`, every entry is in the last minute: the window the session keeps in memory counts them all.",
  );
}

/**
 * A Responses conversation kept by the server: each turn sends only what is new (the tool's output and a follow-up)
 * with `previous_response_id`, and the server rebuilds the rest from the stored chain. At each length, 15 turns branch
 * off the chain's tip (the chain keeps its length), beside the same conversation sent whole, stateless.
 */
async function chainCurve(): Promise<void> {
  const server = await nodeServer();
  const doc = { name: "chain", steps: [{ id: "call", consume: false, respond: { toolCalls: [{ name: "read_file", arguments: { path: "src/next.ts" } }] } }] };
  const up = await fetch(`${server.url}/admin/scenarios`, { method: "POST", headers: ADMIN, body: JSON.stringify([doc]) });
  if (!up.ok) throw new Error(`upload: ${up.status} ${await up.text()}`);
  const url = `${server.url}/s/chain/c1/v1/responses`;
  const tools = [{ type: "function", name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } }];
  const post = async (body: unknown): Promise<{ id: string; output: { call_id?: string }[] }> => {
    const res = await fetch(url, { method: "POST", headers: { authorization: "Bearer sk", "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`chain turn: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  const turnBody = (previous: string | undefined, callId: string | undefined, i: number) => ({
    model: "gpt-4o",
    tools,
    ...(previous ? { previous_response_id: previous } : {}),
    input: callId
      ? [
          { type: "function_call_output", call_id: callId, output: result(i) },
          { role: "user", content: followUp(i) },
        ]
      : [{ role: "user", content: "bench long" }],
  });
  const sizes = QUICK ? [10, 100, 500, 2000] : [10, 30, 100, 300, 1000, 2000];
  const chainCpu: Series = { name: "previous_response_id chain, CPU", points: [] };
  const chainWall: Series = { name: "chain, latency", points: [] };
  const wholeCpu: Series = { name: "stateless (sent whole), CPU", points: [] };
  const measure = async (fn: () => Promise<unknown>): Promise<[number, number]> => {
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let k = 0; k < 15; k++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await fn();
      const c = process.cpuUsage(c0);
      cpu.push(c.user + c.system);
      wall.push((performance.now() - t0) * 1000);
    }
    return [median(cpu), median(wall)];
  };
  // The chain: 1 message, then 3 a turn (the tool's output, a follow-up, the model's next call).
  let tip = await post(turnBody(undefined, undefined, 0));
  let messages = 2;
  let turns = 1;
  for (const n of sizes) {
    while (messages + 3 <= n) {
      tip = await post(turnBody(tip.id, tip.output[0]?.call_id, turns++));
      messages += 3;
    }
    const from = tip;
    const [cpu, wall] = await measure(() => post(turnBody(from.id, from.output[0]?.call_id, turns)));
    chainCpu.points.push([n, cpu]);
    chainWall.points.push([n, wall]);
    const whole = { ...(responsesBody(n) as object), store: false };
    const stateless = `${server.url}/s/scale/whole/v1/responses`;
    const [wcpu] = await measure(async () => {
      const res = await fetch(stateless, { method: "POST", headers: { authorization: "Bearer sk", "content-type": "application/json" }, body: JSON.stringify(whole) });
      if (res.status !== 200) throw new Error(`stateless: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    });
    wholeCpu.points.push([n, wcpu]);
  }
  await server.close();
  report("chain", "A Responses turn against the conversation's length: previous_response_id chain vs sent whole (Node, HTTP, in process)", "messages", "µs per turn", "µs", [
    chainCpu,
    chainWall,
    wholeCpu,
  ]);
  const at = (s: Series, n: number) => s.points.find((p) => p[0] === n)?.[1] ?? Number.NaN;
  console.log(`- chain: ${turns} turns stored; 2,000 messages ÷ 100 = ${(at(chainCpu, 2000) / at(chainCpu, 100)).toFixed(1)}× CPU (target ≤ 20×). CPU includes the in-process client (fetch + JSON).`);
}

async function sessionsCurve(): Promise<void> {
  const server = await nodeServer();
  const marks = QUICK ? [1, 10, 100, 1000, 10000] : [1, 10, 100, 1000, 10000, 100000];
  const heap: Series = { name: "heap per session (KB)", points: [] };
  const first: Series = { name: "first turn of a new session (µs)", points: [] };
  for (let i = 0; i < 50; i++) await turnOn(server.url, `warm-${i}`);
  await fetch(`${server.url}/admin/sessions/scale`, { method: "DELETE", headers: ADMIN }).catch(() => undefined);
  gc!();
  gc!();
  const base = process.memoryUsage().heapUsed;
  let created = 0;
  const journalBytes = await (async () => {
    await turnOn(server.url, "probe");
    const res = await fetch(`${server.url}/admin/sessions/scale/probe/requests`, { headers: ADMIN });
    return (await res.text()).length;
  })();
  const table: string[] = [];
  for (const mark of marks) {
    const CONC = 16;
    while (created < mark) {
      const batch: Promise<void>[] = [];
      for (let k = 0; k < CONC && created < mark; k++) batch.push(turnOn(server.url, `s-${created++}`));
      await Promise.all(batch);
    }
    gc!();
    gc!();
    const used = process.memoryUsage().heapUsed;
    const perSession = (used - base) / mark;
    const lat: number[] = [];
    for (let k = 0; k < 21; k++) {
      const t0 = performance.now();
      await turnOn(server.url, `new-${mark}-${k}`);
      lat.push((performance.now() - t0) * 1000);
    }
    if (mark >= 100) heap.points.push([mark, perSession / 1024]);
    first.points.push([mark, median(lat)]);
    table.push(
      `| ${mark.toLocaleString("en-US")} | ${((used - base) / 1024 / 1024).toFixed(1)} | ${mark >= 100 ? (perSession / 1024).toFixed(2) : "—"} | ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} | ${fmt(median(lat))} |`,
    );
  }
  await server.close();
  console.log("\n#### Live sessions on Node (in process, one turn each)\n");
  console.log("| sessions | heap above the empty server (MB) | heap per session (KB) | RSS (MB) | first turn of a new session (µs, median of 21) |");
  console.log("| ---: | ---: | ---: | ---: | ---: |");
  for (const l of table) console.log(l);
  const last = heap.points.at(-1)![1] * 1024;
  console.log(
    `\n- each session holds one journal entry, ${journalBytes.toLocaleString("en-US")} bytes as JSON (GET …/requests); heap per session at ${marks.at(-1)!.toLocaleString("en-US")}: ${Math.round(last).toLocaleString("en-US")} bytes, ` +
      `so about ${Math.round(last - journalBytes).toLocaleString("en-US")} bytes beyond the journal's JSON size (target ≤ 2 KB: ${last - journalBytes <= 2048 ? "met" : "MISSED"})`,
  );
  console.log(`- first-turn latency slope: ${slope(first.points).toFixed(2)} (${growth(slope(first.points))})`);
  report("sessions", "Live sessions on Node: heap per session and a new session's first turn", "live sessions", "KB per session / µs per first turn", "", [heap, first]);
}

/** Runs bench/scale-servers.mjs (a server in another process, fresh per size): its JSON lines. */
function servers<T>(args: string[]): T[] {
  const r = spawnSync(process.execPath, ["bench/scale-servers.mjs", ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`scale-servers ${args.join(" ")}: ${r.status} ${r.stderr}`);
  return r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as T);
}

/** The Worker bundle (dist/worker) Miniflare runs, built once per bench run. */
let workerBuilt = false;
function buildWorker(): void {
  if (workerBuilt) return;
  const r = spawnSync(process.execPath, ["bin/build-worker.mjs"], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`build-worker: ${r.stderr}`);
  workerBuilt = true;
}

interface SocketRow {
  n: number;
  open: number;
  served: number;
  errors: number;
  firstError?: string;
  openMs: number;
  serveMs: number;
  serverCpuMs: number;
  serverRssMB?: number;
}

function socketsCurve(): void {
  const targets = [
    { key: "node", name: "Node (ws)", sizes: QUICK ? [100, 1000, 3000] : [100, 300, 1000, 3000, 10000] },
    { key: "miniflare", name: "Worker, Miniflare", sizes: QUICK ? [100, 300] : [100, 300, 1000, 2000] },
  ];
  buildWorker();
  const series: Series[] = [];
  console.log("\n#### WebSockets: N opened (500 upgrades in flight at most), one Responses WebSocket turn on each, closed\n");
  console.log("| runtime | sockets | opened | turns served | errors | open all (ms) | serve all (ms) | server CPU (ms) | server CPU per socket (ms) | server RSS (MB) |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const t of targets) {
    const rows = servers<SocketRow>(["--curve", "sockets", "--target", t.key, "--sizes", t.sizes.join(",")]);
    for (const r of rows)
      console.log(
        `| ${t.name} | ${r.n.toLocaleString("en-US")} | ${r.open.toLocaleString("en-US")} | ${r.served.toLocaleString("en-US")} | ${r.errors} | ${fmt(r.openMs)} | ${fmt(r.serveMs)} | ${fmt(r.serverCpuMs)} | ${fmt(r.serverCpuMs / r.n)} | ${r.serverRssMB ?? "—"} |`,
      );
    for (const r of rows) if (r.firstError) console.log(`- ${t.name}, ${r.n}: first error: ${r.firstError}`);
    series.push({ name: `${t.name}: open + serve (ms)`, points: rows.map((r) => [r.n, r.openMs + r.serveMs]) });
    series.push({ name: `${t.name}: server CPU (ms)`, points: rows.map((r) => [r.n, Math.max(1, r.serverCpuMs)]) });
  }
  report("sockets", "WebSockets: time and server CPU to open and serve N", "sockets", "ms", "", series);
}

function workerCurve(): void {
  buildWorker();
  const sizes = QUICK ? [1, 10, 100, 300] : [1, 10, 100, 1000, 2000];
  const rows = servers<{ n: number; createdPerSecond?: number; firstTurnUs: number }>(["--curve", "objects", "--sizes", sizes.join(",")]);
  const rate: Series = { name: "Durable Objects created per second (ramp to this size)", points: rows.flatMap((r) => (r.createdPerSecond ? [[r.n, r.createdPerSecond] as [number, number]] : [])) };
  const first: Series = { name: "first turn of a new session (µs)", points: rows.map((r) => [r.n, r.firstTurnUs]) };
  report("worker", "The Worker under Miniflare: Durable Objects created per second and a new session's first turn", "sessions existing", "per second / µs", "", [rate, first]);
}

function batchCurve(): void {
  const sizes = QUICK ? [100, 300, 1000, 3000] : [100, 300, 1000, 3000, 10000];
  const time: Series = { name: "processing (ms)", points: [] };
  const peak: Series = { name: "peak heap above start (MB)", points: [] };
  for (const n of sizes) {
    const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", "bench/batch-memory.ts", "--lines", String(n)], { cwd: ROOT, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`batch-memory ${n}: ${r.stderr}`);
    const out = JSON.parse(r.stdout.slice(r.stdout.indexOf("{"))) as { processingMs: number; heapBefore: string; heapPeakDuring: string; status: string };
    if (out.status !== "completed") throw new Error(`batch ${n}: ${out.status}`);
    time.points.push([n, out.processingMs]);
    peak.points.push([n, Math.max(0.01, Number.parseFloat(out.heapPeakDuring) - Number.parseFloat(out.heapBefore))]);
  }
  report("batch", "A batch's time and peak heap against its lines (Node, bench/batch-memory.ts)", "lines", "ms / MB", "", [time, peak]);
}

console.log(`mockllm scale curves${QUICK ? " (--quick)" : ""} — Node ${process.version}, ${new Date().toISOString()}`);
const started = performance.now();
if (ONLY.has("conversation")) conversationCurve();
if (ONLY.has("compaction")) conversationCurve(COMPACTED, "compaction", " with compaction items every 50 messages");
if (ONLY.has("chain")) await chainCurve();
if (ONLY.has("scenario")) scenarioCurve();
if (ONLY.has("journal")) await journalCurve();
if (ONLY.has("sessions")) await sessionsCurve();
if (ONLY.has("sockets")) socketsCurve();
if (ONLY.has("worker")) workerCurve();
if (ONLY.has("batch")) batchCurve();
console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
