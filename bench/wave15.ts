/**
 * Issue 58's per-request costs beside the engine budget (bench/engine.ts, ≤ 50 µs a turn): a chaos draw in the
 * engine (decide with `chaos`), the limits check over a full minute's window, the budget figures of a 1000-entry
 * journal (verify's cost, not a request's), and building one OTLP span (the exporter's cost on the request path;
 * the POST happens in waitUntil). Exits 1 over a part's budget: the chaos draw 10 µs, a span 25 µs, the limits check
 * over a 600-request window 100 µs (the journal read before it is the storage's cost, not measured here).
 *   npx tsx bench/wave15.ts [--iterations 50000]
 */
import { parseArgs } from "node:util";
import type { CanonicalRequest } from "../src/canonical/request";
import { decide } from "../src/scenario/engine";
import { checkLimits } from "../src/scenario/limits";
import { ScenarioSchema } from "../src/scenario/schema";
import { usageOf } from "../src/session/budget";
import type { JournalEntry } from "../src/session/core";
import { spanOf } from "../src/turn/otel";

const { values } = parseArgs({ options: { iterations: { type: "string", default: "50000" } } });
const N = Number(values.iterations);

const req: CanonicalRequest = {
  provider: "openai",
  endpoint: "chat.completions",
  model: "gpt-4o",
  stream: false,
  system: "",
  messages: [{ role: "user", text: "weather in Paris?" }],
  tools: ["get_weather"],
  reasoning: "disabled",
  headers: {},
};
const plain = ScenarioSchema.parse({ name: "b", steps: [{ consume: false, respond: { text: "ok" } }] });
const chaotic = ScenarioSchema.parse({ name: "b", chaos: { seed: 42, rate: 0.3 }, steps: [{ consume: false, respond: { text: "ok" } }] });
const state = { used: [], attempts: { "0:openai": 41 } };
const ctx = { scenario: "b", session: "s" };

function time(label: string, n: number, fn: (i: number) => unknown, perRequest: boolean): number {
  for (let i = 0; i < Math.min(n, 2000); i++) fn(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn(i);
  const us = Number(process.hrtime.bigint() - start) / 1000 / n;
  console.log(`${label.padEnd(52)} ${us.toFixed(2).padStart(8)} µs${perRequest ? "" : " (verify, not per request)"}`);
  return perRequest ? us : 0;
}

const now = Date.now();
const window = Array.from({ length: 600 }, (_, i) => ({ at: now - (600 - i) * 100, tokens: 96 }));
const journal = Array.from({ length: 1000 }, (_, i) => ({
  seq: i + 1,
  surface: undefined,
  step: "step-1",
  outcome: "response",
  canonical: { model: i % 2 ? "gpt-4o" : "claude-sonnet-4-5", usage: { inputTokens: 64, outputTokens: 32, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
})) as unknown as JournalEntry[];
const outcome = decide(plain, state, req, ctx).outcome;

const base = time("decide, no chaos", N, () => decide(plain, state, req, ctx), true);
const withChaos = time("decide, chaos { seed, rate: 0.3 }", N, () => decide(chaotic, state, req, ctx), true);
console.log(`${"  → the chaos draw".padEnd(52)} ${(withChaos - base).toFixed(2).padStart(8)} µs`);
const over: string[] = [];
const check = (label: string, us: number, budget: number) => us > budget && over.push(`${label} ${us.toFixed(2)} µs > ${budget} µs`);
check("the chaos draw", withChaos - base, 10);
check(
  "checkLimits",
  time("checkLimits over 600 requests in the window", N / 10, () => checkLimits({ requestsPerMinute: 1000, tokensPerMinute: 100000 }, window, now), true),
  100,
);
check(
  "spanOf",
  time("spanOf (one OTLP span)", N, () => spanOf(req, outcome, "response", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", now, now + 3), true),
  25,
);
time("usageOf over a 1000-entry journal", N / 100, () => usageOf(journal, plain), false);
if (over.length > 0) {
  console.error(`over budget: ${over.join("; ")}`);
  process.exit(1);
}
