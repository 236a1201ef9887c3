#!/usr/bin/env node
// `npm run bench:ws`: many concurrent WebSockets on one mockllm, each through one paced scripted turn of the Responses
// WebSocket mode (`response.create` → the full event sequence). Reports connect time, turn latency and errors for the
// Node runtime (one process, `ws`) and the Worker under Miniflare (each session a Durable Object holding its socket).
//   node bench/ws-scale.mjs [--sockets 1000] [--only node,miniflare] [--shared]
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { pct } from "./launch.mjs";
import { usage } from "./proc.mjs";
import { openSocket } from "./ws-open.mjs";

const { values } = parseArgs({ options: { sockets: { type: "string", default: "1000" }, only: { type: "string" }, shared: { type: "boolean", default: false } } });
const SOCKETS = Number(values.sockets);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const TARGETS = [
  { key: "node", label: "mockllm Node runtime (ws)", launcher: here("./servers/mockllm-node.mjs") },
  { key: "miniflare", label: "mockllm Worker, Miniflare (DO hibernation API)", launcher: here("./servers/mockllm-miniflare.mjs") },
].filter((t) => !values.only || values.only.split(",").includes(t.key));

// 20 words in 2-word deltas at 100 words/s: each turn is due over ~190 ms.
const TEXT = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty";
const SCENARIO = { name: "ws-scale", steps: [{ consume: false, respond: { text: TEXT, stream: { tokensPerSecond: 100, chunkWords: 2 } } }] };
const DELTAS = 10;
const PACED_MS = 190;

function start(target) {
  const child = spawn(process.execPath, [target.launcher], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const url = /^(http:\/\/\S+)$/m.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.on("exit", (code) => reject(new Error(`${target.label} exited with ${code}`)));
  });
}

/** One paced turn on an open socket: resolves with its latency, or rejects on anything but the full sequence. */
function turn(ws) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let deltas = 0;
    ws.on("message", (data) => {
      const e = JSON.parse(String(data));
      if (e.type === "response.output_text.delta") deltas++;
      if (e.type === "error") reject(new Error(JSON.stringify(e)));
      if (e.type === "response.completed") {
        if (deltas !== DELTAS || e.response.output[0].content[0].text !== TEXT) reject(new Error(`bad turn: ${deltas} deltas`));
        else resolve(performance.now() - t0);
      }
    });
    ws.once("close", (code) => reject(new Error(`closed ${code} mid-turn`)));
    ws.send(JSON.stringify({ type: "response.create", model: "gpt-4.1", input: "go" }));
  });
}

async function run(target) {
  const { child, url } = await start(target);
  try {
    const up = await fetch(`${url}/admin/scenarios`, { method: "POST", headers: { authorization: "Bearer bench", "content-type": "application/json" }, body: JSON.stringify([SCENARIO]) });
    if (!up.ok) throw new Error(`upload: ${up.status} ${await up.text()}`);
    const base = url.replace("http", "ws");
    const before = usage(child.pid);
    const t0 = performance.now();
    const settled = await Promise.allSettled(Array.from({ length: SOCKETS }, (_, i) => openSocket(`${base}/s/ws-scale/${values.shared ? "shared" : `c${i}`}/v1/responses`)));
    const connectMs = performance.now() - t0;
    const sockets = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    const errors = settled.filter((s) => s.status === "rejected").map((s) => String(s.reason));
    const t1 = performance.now();
    const turns = await Promise.allSettled(sockets.map(turn));
    const turnsMs = performance.now() - t1;
    const after = usage(child.pid);
    for (const t of turns) if (t.status === "rejected") errors.push(String(t.reason));
    const lat = turns.flatMap((t) => (t.status === "fulfilled" ? [t.value] : []));
    for (const ws of sockets) ws.close();
    return {
      target: target.label,
      sockets: SOCKETS,
      open: sockets.length,
      completed: lat.length,
      errors: errors.length,
      firstError: errors[0],
      connectAllMs: Math.round(connectMs),
      allTurnsMs: Math.round(turnsMs),
      turnP50Ms: Math.round(pct(lat, 50) ?? 0),
      turnP99Ms: Math.round(pct(lat, 99) ?? 0),
      pacedMs: PACED_MS,
      serverCpuMs: after.cpuMs - before.cpuMs,
      serverRssMB: Math.round(after.rssMB),
    };
  } finally {
    child.kill();
  }
}

const results = [];
for (const target of TARGETS) results.push(await run(target));
console.table(results.map(({ firstError, ...r }) => r));
for (const r of results) if (r.firstError) console.error(`${r.target}: first error: ${r.firstError}`);
process.exit(results.every((r) => r.errors === 0 && r.completed === SOCKETS) ? 0 : 1);
