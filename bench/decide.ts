/**
 * The engine's step choice and reply on their own (`decide`, no parse, render, HTTP or storage) for the SDK
 * conversation's scenario (bench/workload.mjs `bench-tools`: a `toolResult` matcher, then a tool call): its first
 * request (one user message, a tool offered: the first step misses, the second answers with the call) and the
 * 121-message agent turn (bench/workload.mjs `LONG_BODY`, ending in a tool result and a follow-up). Medians of rounds.
 *   node_modules/.bin/node --import tsx bench/decide.ts [--rounds 7] [--iterations 100000]
 * For before and after: run it on each checkout, taking turns (the figure is in process, so it moves with the machine).
 */
import { parseArgs } from "node:util";
import { openaiChat } from "../src/providers/openai/chat";
import { decide } from "../src/scenario/engine";
import { ScenarioSchema } from "../src/scenario/schema";
import { LONG_BODY, SCENARIOS } from "./workload.mjs";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "7" }, iterations: { type: "string", default: "100000" } } });
const ROUNDS = Number(values.rounds);
const N = Number(values.iterations);
const scenario = ScenarioSchema.parse(SCENARIOS.find((s) => s.name === "bench-tools"));
const headers = new Headers({ "content-type": "application/json" });
const target = { path: "/v1/chat/completions", query: new URLSearchParams() };
const bodies = {
  "SDK first request": {
    model: "gpt-4o",
    messages: [{ role: "user", content: "What is the weather in Paris?" }],
    tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
  },
  "121-message agent turn": JSON.parse(LONG_BODY),
};
let sink = 0;
for (const [name, body] of Object.entries(bodies)) {
  const parsed = openaiChat.parse(body, headers, target);
  if (!parsed.ok) throw new Error(`${name}: ${JSON.stringify(parsed.error)}`);
  const turn = () => decide(scenario, { used: [], attempts: {} }, parsed.request, { scenario: "bench-tools", session: "b1" });
  if (turn().outcome.kind !== "reply") throw new Error(`${name}: no reply`);
  for (let i = 0; i < N / 5; i++) sink += turn().journal.reasons.length;
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) sink += turn().journal.reasons.length;
    rounds.push(((performance.now() - t0) * 1000) / N);
  }
  rounds.sort((a, b) => a - b);
  console.log(`${name} (${parsed.request.messages.length} messages): decide ${rounds[Math.floor((ROUNDS - 1) / 2)]!.toFixed(2)} µs (rounds ${rounds.map((v) => v.toFixed(2)).join(" ")})`);
}
if (sink < 0) console.log(sink);
