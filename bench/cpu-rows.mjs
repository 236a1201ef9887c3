#!/usr/bin/env node
// Server CPU per 1,000 requests, several targets taking turns (a fixed number of requests at `--connections`, medians
// of the rounds): mockllm's Node runtime (this build and, with `--a DIR`, another build's dist/node/index.js), the
// peer and the floor, on the JSON turn (and with `--health`, mockllm's GET /healthz: its transport without the turn).
//   node bench/cpu-rows.mjs [--a DIR/dist/node/index.js] [--load json|stream|sdk|gemini|responses|messages] [--rounds 5] [--requests 10000] [--warm 15000] [--connections 50] [--health] [--node-args="--flag …"]
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { median, start, stopAll } from "./launch.mjs";
import { usage } from "./proc.mjs";
import { sdkReplay, sdkRequests } from "./sdk-conversations.mjs";
import { GEMINI_BODY, JSON_BODY, JSON_HEADERS, MESSAGES_BODY, MESSAGES_HEADERS, paths, RESPONSES_BODY, STREAM_BODY } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    a: { type: "string" },
    rounds: { type: "string", default: "5" },
    requests: { type: "string", default: "10000" },
    // Requests to each target before the first round: a fresh server (mockllm's and the peer's alike) costs 3–7× its
    // settled CPU a request over its first 2,000 and settles after ~10,000 (V8's tiers, the heap's growth).
    warm: { type: "string", default: "15000" },
    connections: { type: "string", default: "50" },
    // json: the bench's JSON turn; stream: its 200-word stream; sdk: the SDK conversation's two requests in turn, with
    // the `openai` client's headers and bodies (bench/sdk-conversations.mjs sdkRequests) but without the client's CPU;
    // gemini: the JSON turn's text as Gemini's generateContent; responses: as the Responses API; messages: as
    // Anthropic's Messages API (with Anthropic's headers).
    load: { type: "string", default: "json" },
    health: { type: "boolean", default: false },
    // This build once more, started with these Node/V8 flags (space-separated): a flag's cost beside the build without it.
    "node-args": { type: "string" },
  },
});
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const mock = (label, dist) => ({ label, launcher: here("./servers/mockllm-node.mjs"), env: dist ? { MOCKLLM_NODE_DIST: dist } : undefined, kind: "mockllm" });
const TARGETS = [
  ...(values.a ? [mock("A", values.a)] : []),
  mock("B"),
  ...(values["node-args"] ? [{ ...mock(`B ${values["node-args"]}`), nodeArgs: values["node-args"].split(" ") }] : []),
  ...(values.health ? [{ ...mock("B /healthz"), health: true }] : []),
  { label: "peer", launcher: here("./servers/aimock.mjs"), kind: "peer" },
  { label: "floor", launcher: here("./servers/bare.mjs"), kind: "floor" },
];
if (!["json", "stream", "sdk", "gemini", "responses", "messages"].includes(values.load)) throw new Error("--load: json, stream, sdk, gemini, responses or messages");
const stream = values.load === "stream";
const gemini = values.load === "gemini";
const responses = values.load === "responses";
const messages = values.load === "messages";
const sdk = values.load === "sdk" ? await sdkRequests() : undefined;
const running = [];
for (const t of TARGETS) running.push({ t, ...(await start(t, t.nodeArgs)), cpu: [] });
const fire = (r, amount) =>
  sdk && !r.t.health
    ? autocannon({ ...sdkReplay(r.url + paths(r.t.kind).toolsBase, sdk), connections: Number(values.connections), amount })
    : autocannon({
        url: r.url + (r.t.health ? "/healthz" : paths(r.t.kind)[stream ? "stream" : gemini ? "gemini" : responses ? "responses" : messages ? "messages" : "json"]),
        method: r.t.health ? "GET" : "POST",
        connections: Number(values.connections),
        amount,
        headers: r.t.health ? {} : messages ? MESSAGES_HEADERS : JSON_HEADERS,
        body: r.t.health ? undefined : stream ? STREAM_BODY : gemini ? GEMINI_BODY : responses ? RESPONSES_BODY : messages ? MESSAGES_BODY : JSON_BODY,
      });
try {
  for (const r of running) await fire(r, Number(values.warm));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const r of round % 2 ? [...running].reverse() : running) {
      const c0 = usage(r.child.pid).cpuMs;
      const res = await fire(r, Number(values.requests));
      if (res.non2xx || res.errors) throw new Error(`${r.t.label}: ${res.non2xx} answers not 2xx, ${res.errors} errors`);
      r.cpu.push(((usage(r.child.pid).cpuMs - c0) / res.requests.total) * 1000);
    }
  }
} finally {
  await stopAll(running.map((r) => r.child));
}
const peerRounds = running.find((r) => r.t.label === "peer").cpu;
const peer = median(peerRounds);
for (const r of running) {
  // Each round's figure over the peer's in the same round (the rounds move together on a shared machine): the spread
  // of the ratio, where the medians' ratio is one number.
  const paired = r.cpu.map((x, i) => x / peerRounds[i]).sort((a, b) => a - b);
  const spread = r.t.label === "peer" ? "" : `, by round ${median(paired).toFixed(2)}× (${paired[0].toFixed(2)}–${paired.at(-1).toFixed(2)})`;
  console.log(
    `${r.t.label.padEnd(12)} ${median(r.cpu).toFixed(1).padStart(6)} ms per 1,000 (÷ peer ${(median(r.cpu) / peer).toFixed(2)}×${spread})  rounds ${r.cpu.map((x) => x.toFixed(0)).join(" ")}`,
  );
}
