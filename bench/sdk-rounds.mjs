#!/usr/bin/env node
// The SDK conversation row in longer rounds: two-turn tool conversations through the `openai` client (10 at a time,
// the bench process is the client), mockllm's Node runtime and the peer taking turns, with what decides that row on a
// 2-core machine beside the rate: the client's event-loop utilisation, the client's and the server's CPU per
// conversation, the median request's latency. Medians of the rounds.
//   node bench/sdk-rounds.mjs [--rounds 6] [--conversations 1000] [--warm 300]
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import OpenAI from "openai";
import { median, start, stopAll } from "./launch.mjs";
import { usage } from "./proc.mjs";
import { paths } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "6" },
    conversations: { type: "string", default: "1000" },
    warm: { type: "string", default: "300" },
  },
});
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const TARGETS = [
  { label: "mockllm Node runtime", launcher: here("./servers/mockllm-node.mjs"), kind: "mockllm" },
  { label: "peer (aimock 1.43)", launcher: here("./servers/aimock.mjs"), kind: "peer" },
];
const TOOLS = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }];

/** `count` conversations, 10 at a time; each request's latency goes to `latencies`. Conversations per second. */
async function conversations(openai, count, latencies = []) {
  const timed = async (p) => {
    const t0 = performance.now();
    const out = await p;
    latencies.push(performance.now() - t0);
    return out;
  };
  const one = async () => {
    const messages = [{ role: "user", content: "What is the weather in Paris?" }];
    const first = await timed(openai.chat.completions.create({ model: "gpt-4o", messages, tools: TOOLS }));
    const call = first.choices[0].message.tool_calls?.[0];
    if (!call) throw new Error("no tool call");
    const second = await timed(openai.chat.completions.create({
      model: "gpt-4o",
      tools: TOOLS,
      messages: [...messages, first.choices[0].message, { role: "tool", tool_call_id: call.id, content: "sunny" }],
    }));
    if (!second.choices[0].message.content) throw new Error("no answer");
  };
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 10 }, async () => {
    while (next++ < count) await one();
  }));
  return count / ((performance.now() - t0) / 1000);
}

const COUNT = Number(values.conversations);
const running = [];
for (const t of TARGETS) {
  const { child, url } = await start(t);
  const openai = new OpenAI({ apiKey: "sk-bench", baseURL: url + paths(t.kind).toolsBase, maxRetries: 0 });
  running.push({ ...t, child, openai, rate: [], elu: [], client: [], server: [], p50: [] });
}
try {
  for (const r of running) await conversations(r.openai, Number(values.warm));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const r of round % 2 ? [...running].reverse() : running) {
      const cpu0 = process.cpuUsage();
      const server0 = usage(r.child.pid).cpuMs;
      const elu0 = performance.eventLoopUtilization();
      const latencies = [];
      r.rate.push(await conversations(r.openai, COUNT, latencies));
      r.elu.push(performance.eventLoopUtilization(elu0).utilization);
      const cpu = process.cpuUsage(cpu0);
      r.client.push((cpu.user + cpu.system) / COUNT);
      r.server.push(((usage(r.child.pid).cpuMs - server0) * 1000) / COUNT);
      r.p50.push(median(latencies));
    }
  }
} finally {
  await stopAll(running.map((r) => r.child));
}

const rows = [
  ["conversations/s (each round)", (r) => `${median(r.rate).toFixed(0)} (${r.rate.map((x) => x.toFixed(0)).join(" ")})`],
  ["client event-loop utilisation", (r) => median(r.elu).toFixed(3)],
  ["client CPU per conversation (µs)", (r) => median(r.client).toFixed(0)],
  ["server CPU per conversation (µs)", (r) => median(r.server).toFixed(0)],
  ["median request latency (ms)", (r) => median(r.p50).toFixed(2)],
];
console.log(`| ${COUNT} conversations a round, median of ${values.rounds} | ${running.map((r) => r.label).join(" | ")} |`);
console.log(`| --- | ${running.map(() => "---").join(" | ")} |`);
for (const [label, cell] of rows) console.log(`| ${label} | ${running.map(cell).join(" | ")} |`);
console.log(`\nmockllm ÷ peer, conversations/s: ${(median(running[0].rate) / median(running[1].rate)).toFixed(2)}×`);
