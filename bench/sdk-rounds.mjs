#!/usr/bin/env node
// The SDK conversation row in longer rounds: two-turn tool conversations through the `openai` client (10 at a time,
// the bench process is the client), mockllm's Node runtime and the peer taking turns, with what decides that row on a
// 2-core machine beside the rate: the client's event-loop utilisation, the client's and the server's CPU per
// conversation, the median request's latency. Medians of the rounds.
//   node bench/sdk-rounds.mjs [--rounds 6] [--conversations 1000] [--warm 300] [--baseline DIR] [--floor] [--node-args="--flag …"]
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median, start, stopAll } from "./launch.mjs";
import { usage } from "./proc.mjs";
import { benchClient, toolConversations } from "./sdk-conversations.mjs";
import { paths } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "6" },
    conversations: { type: "string", default: "1000" },
    warm: { type: "string", default: "300" },
    // Another checkout's built Node runtime (DIR/dist/node), first among the targets: before and after a change.
    baseline: { type: "string" },
    // The floor too (bench/servers/bare.mjs: node:http answering the conversation's two fixed bodies, no parsing):
    // what the row costs with no mock in it, on the same client.
    floor: { type: "boolean", default: false },
    // This build once more, started with these Node/V8 flags (space-separated), as bench/cpu-rows.mjs --node-args.
    "node-args": { type: "string" },
  },
});
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const TARGETS = [
  { label: "mockllm Node runtime", launcher: here("./servers/mockllm-node.mjs"), kind: "mockllm" },
  { label: "peer (aimock 1.43)", launcher: here("./servers/aimock.mjs"), kind: "peer" },
];
if (values["node-args"]) TARGETS.splice(1, 0, { label: `mockllm ${values["node-args"]}`, launcher: here("./servers/mockllm-node.mjs"), kind: "mockllm", nodeArgs: values["node-args"].split(" ") });
if (values.floor) TARGETS.push({ label: "floor (bare node:http)", launcher: here("./servers/bare.mjs"), kind: "floor" });
if (values.baseline) {
  const env = { MOCKLLM_NODE_DIST: `${values.baseline}/dist/node/index.js` };
  TARGETS.unshift({ label: "mockllm Node runtime, baseline build", launcher: here("./servers/mockllm-node.mjs"), kind: "mockllm", env });
}
const COUNT = Number(values.conversations);
const running = [];
for (const t of TARGETS) {
  const { child, url } = await start(t, t.nodeArgs);
  const openai = benchClient(url + paths(t.kind).toolsBase);
  running.push({ ...t, child, openai, rate: [], elu: [], client: [], server: [], p50: [] });
}
try {
  for (const r of running) await toolConversations(r.openai, Number(values.warm));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const r of round % 2 ? [...running].reverse() : running) {
      const cpu0 = process.cpuUsage();
      const server0 = usage(r.child.pid).cpuMs;
      const elu0 = performance.eventLoopUtilization();
      const latencies = [];
      r.rate.push(await toolConversations(r.openai, COUNT, latencies));
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
const peer = running.find((r) => r.kind === "peer");
for (const r of running.filter((r) => r !== peer))
  console.log(`${r.label} ÷ peer: conversations/s ${(median(r.rate) / median(peer.rate)).toFixed(2)}×, server CPU per conversation ${(median(r.server) / median(peer.server)).toFixed(2)}×`);
