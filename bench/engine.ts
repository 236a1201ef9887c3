/**
 * The engine's own cost (issue 15): parse + decide + render of a Chat Completions turn, in process, no HTTP, no
 * storage — so the Worker path's overhead beyond it is plainly the rest (RPC, storage, KV, serialisation).
 * Budget: ≤ 50 µs for a 100-message (≈10 KB) request, growing linearly with its size. Exits 1 over budget.
 *   npx tsx bench/engine.ts [--iterations 20000]
 */
import { parseArgs } from "node:util";
import { openaiChat } from "../src/providers/openai/chat";
import { decide } from "../src/scenario/engine";
import { ScenarioSchema } from "../src/scenario/schema";

const { values } = parseArgs({ options: { iterations: { type: "string", default: "20000" } } });
const N = Number(values.iterations);
const BUDGET_US = 50;

const scenario = ScenarioSchema.parse({
  name: "engine",
  steps: [
    { id: "tool", match: { lastUserMessage: { contains: "weather" } }, respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] } },
    { id: "answer", consume: false, respond: { text: "It is sunny in Paris today." } },
  ],
});
const headers = new Headers({ authorization: "Bearer sk", "content-type": "application/json" });
const target = { path: "/v1/chat/completions", query: new URLSearchParams() };

/** A body of `n` messages, alternating user and assistant, about 100 bytes each. */
function body(n: number): unknown {
  const messages = Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? { role: "user", content: `Message ${i}: please tell me something about the number ${i} in a short sentence.` }
      : { role: "assistant", content: `Reply ${i}: the number ${i} is a fine number, and here is a sentence about it.` },
  );
  return JSON.parse(JSON.stringify({ model: "gpt-4o", messages }));
}

function turn(raw: unknown): void {
  const parsed = openaiChat.parse(raw, headers, target);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const decision = decide(scenario, { used: [], attempts: {} }, parsed.request, { scenario: "engine", session: "s" });
  if (decision.outcome.kind !== "reply") throw new Error(`unexpected ${decision.outcome.kind}`);
  JSON.stringify(openaiChat.renderJson(decision.outcome.reply, { wire: parsed.wire, request: parsed.request, requestId: "req_1", created: 0 }));
}

function measure(n: number): number {
  const raw = body(n);
  for (let i = 0; i < Math.min(N, 5000); i++) turn(raw); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) turn(raw);
  return Number(process.hrtime.bigint() - t0) / N / 1000;
}

const rows = [2, 26, 52, 102].map((n) => ({ messages: n, bytes: JSON.stringify(body(n)).length, us: measure(n) }));
console.log("| messages | body (bytes) | parse + decide + render (µs) | µs per KB |");
console.log("| --- | --- | --- | --- |");
for (const r of rows) console.log(`| ${r.messages} | ${r.bytes} | ${r.us.toFixed(1)} | ${((r.us / r.bytes) * 1024).toFixed(2)} |`);
const big = rows.at(-1)!;
const ok = big.us <= BUDGET_US;
console.log(`\n${ok ? "within" : "OVER"} budget: ${big.us.toFixed(1)} µs for ${big.messages} messages (budget ${BUDGET_US} µs)`);
process.exit(ok ? 0 : 1);
