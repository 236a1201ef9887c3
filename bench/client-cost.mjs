#!/usr/bin/env node
// What the `openai` client spends on each target's answers, with no server cost at all: the answers of both turns of
// the SDK tool conversation are captured once from mockllm's Node runtime and from the peer, then replayed byte for
// byte by a stand-in in this process while a fresh client process runs the conversations and reports its own CPU.
// Variants: mockllm's answers, the peer's, and mockllm's without the contract's `x-mockllm-*` headers (what those
// headers cost a client). Client processes take turns per round; means of the rounds.
//   node bench/client-cost.mjs [--rounds 4] [--conversations 4000] [--warm 2000]
import { spawn } from "node:child_process";
import { createServer, connect } from "node:net";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { start, stopAll } from "./launch.mjs";
import { benchClient, toolConversations } from "./sdk-conversations.mjs";
import { paths } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "4" },
    conversations: { type: "string", default: "4000" },
    warm: { type: "string", default: "2000" },
    client: { type: "string" }, // internal: run as the client against this base URL, print µs of CPU per conversation
  },
});

if (values.client) {
  const openai = benchClient(values.client);
  await toolConversations(openai, Number(values.warm));
  const cpu0 = process.cpuUsage();
  await toolConversations(openai, Number(values.conversations));
  const cpu = process.cpuUsage(cpu0);
  console.log(((cpu.user + cpu.system) / Number(values.conversations)).toFixed(1));
  process.exit(0);
}

/** Each HTTP/1.1 response of one conversation through a recording TCP proxy in front of `url`: [turn 1, turn 2]. */
async function capture(url, base) {
  const upstream = new URL(url);
  let received = "";
  const proxy = createServer((socket) => {
    const up = connect(Number(upstream.port), upstream.hostname);
    socket.on("data", (d) => up.write(d));
    up.on("data", (d) => {
      received += d.toString("latin1");
      socket.write(d);
    });
    socket.on("close", () => up.destroy());
  });
  await new Promise((r) => proxy.listen(0, "127.0.0.1", r));
  await toolConversations(benchClient(`http://127.0.0.1:${proxy.address().port}${base}`), 1);
  proxy.close();
  const answers = received.split(/(?=HTTP\/1\.1 \d{3} )/).map((a) => Buffer.from(a, "latin1"));
  if (answers.length !== 2) throw new Error(`expected two answers, got ${answers.length}`);
  return answers;
}

/** A response with its header lines filtered (`content-length` kept: the body does not change). */
function withoutHeaders(answer, drop) {
  const text = answer.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  const lines = text
    .slice(0, end)
    .split("\r\n")
    .filter((line, i) => i === 0 || !drop.test(line));
  return Buffer.from(`${lines.join("\r\n")}${text.slice(end)}`, "latin1");
}

/** A stand-in that answers every request with the captured answer of its turn (turn 2 carries a tool result). */
async function replay(answers) {
  const server = createServer((socket) => {
    let buffered = Buffer.alloc(0);
    socket.on("data", (d) => {
      buffered = buffered.length > 0 ? Buffer.concat([buffered, d]) : d;
      for (;;) {
        const headEnd = buffered.indexOf("\r\n\r\n");
        if (headEnd < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffered.subarray(0, headEnd).toString("latin1"))?.[1] ?? 0);
        if (buffered.length < headEnd + 4 + length) return;
        const body = buffered.subarray(headEnd + 4, headEnd + 4 + length);
        socket.write(body.includes("tool_call_id") ? answers[1] : answers[0]);
        buffered = buffered.subarray(headEnd + 4 + length);
      }
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const captured = {};
for (const t of [
  { key: "mockllm", launcher: here("./servers/mockllm-node.mjs"), kind: "mockllm" },
  { key: "peer", launcher: here("./servers/aimock.mjs"), kind: "peer" },
]) {
  const { child, url } = await start({ label: t.key, launcher: t.launcher });
  try {
    captured[t.key] = await capture(url, paths(t.kind).toolsBase);
  } finally {
    await stopAll([child]);
  }
}
const VARIANTS = [
  { label: "mockllm's answers", answers: captured.mockllm },
  { label: "the peer's answers", answers: captured.peer },
  { label: "mockllm's answers without x-mockllm-* headers", answers: captured.mockllm.map((a) => withoutHeaders(a, /^x-mockllm-/i)) },
];
const servers = await Promise.all(VARIANTS.map((v) => replay(v.answers)));
const cost = VARIANTS.map(() => []);
const client = (i) =>
  new Promise((resolve, reject) => {
    const args = [fileURLToPath(import.meta.url), "--client", `http://127.0.0.1:${servers[i].address().port}/v1`, "--conversations", values.conversations, "--warm", values.warm];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("exit", (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error(`client exited with ${code}`))));
  });
for (let round = 0; round < Number(values.rounds); round++) {
  const order = VARIANTS.map((_, i) => i);
  for (const i of round % 2 ? order.reverse() : order) cost[i].push(await client(i));
}
for (const s of servers) s.close();

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`| client CPU per conversation (µs), mean of ${values.rounds} | each round | header lines | body bytes (turn 1 / 2) |`);
console.log("| --- | --- | --- | --- |");
VARIANTS.forEach((v, i) => {
  const [head, body] = v.answers[0].toString("latin1").split("\r\n\r\n");
  const bytes = v.answers.map((a) => a.length - a.toString("latin1").indexOf("\r\n\r\n") - 4).join(" / ");
  console.log(`| ${v.label}: ${mean(cost[i]).toFixed(0)} | ${cost[i].map((x) => x.toFixed(0)).join(" ")} | ${head.split("\r\n").length - 1} | ${body === undefined ? "–" : bytes} |`);
});
