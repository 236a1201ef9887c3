/**
 * The tokenizer's cost (issue 58 part 4): what counting usage (`"usage": "count"`, `USAGE=count`) adds to a turn.
 * Prints the one-off cost of loading each encoding (the first counted request on a cold isolate or process pays it),
 * then µs per request of counting a 100-message Chat conversation (prompt by the cookbook formula + a reply) beside
 * the engine's own parse + decide + render of the same body (bench/engine.ts). Bodies differ per iteration (numbers
 * in the text), so the tokenizer's merge cache does not flatter it. Not gated: a figure for docs/reference/usage.md.
 *   npx tsx bench/tokenizer.ts [--iterations 2000]
 */
import { parseArgs } from "node:util";
import { openaiChat } from "../src/providers/openai/chat";
import { countChatUsage } from "../src/providers/openai/usage/surfaces";
import { loadEncoder } from "../src/providers/openai/usage/count";
import { decide } from "../src/scenario/engine";
import { ScenarioSchema } from "../src/scenario/schema";
import type { ChatRequest } from "../src/providers/openai/chat/wire";

const { values } = parseArgs({ options: { iterations: { type: "string", default: "2000" } } });
const N = Number(values.iterations);

const scenario = ScenarioSchema.parse({ name: "tokenizer", steps: [{ id: "answer", consume: false, respond: { text: "It is sunny in Paris today, with a light breeze from the west." } }] });
const headers = new Headers({ authorization: "Bearer sk", "content-type": "application/json" });
const target = { path: "/v1/chat/completions", query: new URLSearchParams() };

/** 100 messages (a system prompt, then user and assistant alternating), about 100 bytes each; `salt` varies the text. */
function body(salt: number, model: string): unknown {
  const messages = [
    { role: "system", content: `You are assistant ${salt}; answer in one short sentence.` },
    ...Array.from({ length: 99 }, (_, i) =>
      i % 2 === 0
        ? { role: "user", content: `Message ${i * 7 + salt}: please tell me something about the number ${i + salt} in a short sentence.` }
        : { role: "assistant", content: `Reply ${i}: the number ${i + salt * 3} is a fine number, and here is a sentence about it.` },
    ),
  ];
  return { model, messages };
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

for (const name of ["o200k_base", "cl100k_base"] as const) {
  const t0 = process.hrtime.bigint();
  const enc = await loadEncoder(name);
  const load = ms(t0);
  const t1 = process.hrtime.bigint();
  enc.count("The first count after loading.");
  console.log(`${name}: load ${load.toFixed(1)} ms, first count ${ms(t1).toFixed(2)} ms`);
}

const bodies = Array.from({ length: 64 }, (_, i) => body(i, "gpt-4o"));
const parsedBodies = bodies.map((b) => {
  const p = openaiChat.parse(b, headers, target);
  if (!p.ok) throw new Error(p.error.message);
  return p;
});

function engineTurn(i: number) {
  const parsed = parsedBodies[i % parsedBodies.length]!;
  const again = openaiChat.parse(bodies[i % bodies.length], headers, target);
  if (!again.ok) throw new Error(again.error.message);
  const decision = decide(scenario, { used: [], attempts: {} }, parsed.request, { scenario: "tokenizer", session: "s" });
  if (decision.outcome.kind !== "reply") throw new Error("unexpected outcome");
  JSON.stringify(openaiChat.renderJson(decision.outcome.reply, { wire: parsed.wire, request: parsed.request, requestId: "req_1", created: 0 }));
  return decision.outcome.reply;
}

const reply = engineTurn(0);
async function timeAsync(fn: (i: number) => unknown, n: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn(i);
  return Number(process.hrtime.bigint() - t0) / n / 1000;
}
await timeAsync((i) => countChatUsage(parsedBodies[i % 64]!.wire as ChatRequest, parsedBodies[i % 64]!.request, reply), 200); // warm-up
await timeAsync(engineTurn, 200);
const count = await timeAsync((i) => countChatUsage(parsedBodies[i % 64]!.wire as ChatRequest, parsedBodies[i % 64]!.request, reply), N);
const engine = await timeAsync(engineTurn, N);
console.log(`| 100-message turn (${JSON.stringify(bodies[0]).length} bytes) | µs per request |`);
console.log("| --- | --- |");
console.log(`| engine: parse + decide + render | ${engine.toFixed(1)} |`);
console.log(`| counting usage (o200k_base, cookbook formula) | ${count.toFixed(1)} |`);
console.log(`| ratio counting ÷ engine | ${(count / engine).toFixed(2)} |`);
