#!/usr/bin/env node
// bench/scale.ts's curves that need a server in another process (issue 59): one fresh server per size, its figures
// as one JSON line per size on stdout.
//   node bench/scale-servers.mjs --curve sockets --target node|miniflare --sizes 100,1000,10000
//     N WebSockets opened (at most --window upgrades in flight), one Responses WebSocket turn on each (an unpaced
//     scripted answer: 3 text deltas), then all closed: time to open them all, to serve every turn, errors; for Node
//     the server's CPU and RSS (/proc: the child process).
//   node bench/scale-servers.mjs --curve objects --sizes 1,10,100,1000
//     the Worker under Miniflare (dist/worker, bench/miniflare.mjs): Durable Objects created by one turn each (16 at
//     a time) up to each size, the rate they were created at, and the median first turn of 11 new sessions there.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Miniflare } from "miniflare";
import { mockllmOptions } from "./miniflare.mjs";
import { cpuMsOf, tree, usage } from "./proc.mjs";
import { openSocket } from "./ws-open.mjs";

const { values } = parseArgs({
  options: {
    curve: { type: "string", default: "sockets" },
    target: { type: "string", default: "node" },
    sizes: { type: "string", default: "100,1000" },
    window: { type: "string", default: "500" },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const WINDOW = Number(values.window);
const TEXT = "Scaled socket answer.";
const SCENARIO = { name: "scale-ws", steps: [{ consume: false, respond: { text: TEXT } }] };
const CHAT = { name: "scale-do", steps: [{ consume: false, respond: { text: "Scaled answer." } }] };
const ADMIN = { authorization: "Bearer bench", "content-type": "application/json" };

/** A server: the Node runtime (bench/servers/mockllm-node.mjs, the built bundle) in a child, or the Worker under Miniflare. */
async function start(target) {
  if (target === "miniflare") {
    const mf = new Miniflare(mockllmOptions({ DEFAULT_WORDS_PER_SECOND: "0", ADMIN_TOKEN: "bench" }));
    const url = (await mf.ready).origin;
    // workerd: this process's descendants (Miniflare starts it).
    return { url, pid: undefined, close: () => mf.dispose() };
  }
  const child = spawn(process.execPath, [fileURLToPath(new URL("./servers/mockllm-node.mjs", import.meta.url))], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const u = /^(http:\/\/\S+)$/m.exec(out)?.[1];
      if (u) resolve(u);
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid,
    close: async () => {
      child.kill();
      await new Promise((r) => child.once("exit", r));
    },
  };
}

async function upload(url, doc) {
  const res = await fetch(`${url}/admin/scenarios`, { method: "POST", headers: ADMIN, body: JSON.stringify([doc]) });
  if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
}

/** One turn: resolves on `response.completed` with the scripted text, rejects on anything else. */
function turn(ws) {
  return new Promise((resolve, reject) => {
    ws.on("message", (data) => {
      const e = JSON.parse(String(data));
      if (e.type === "error") reject(new Error(JSON.stringify(e)));
      if (e.type === "response.completed") {
        if (e.response.output[0]?.content[0]?.text !== TEXT) reject(new Error("bad turn"));
        else resolve();
      }
    });
    ws.once("close", (code) => reject(new Error(`closed ${code} mid-turn`)));
    ws.send(JSON.stringify({ type: "response.create", model: "gpt-4.1", input: "go" }));
  });
}

/** Runs `fn(i)` for i < n with at most `window` in flight; the settled results in order. */
async function windowed(n, window, fn) {
  const out = new Array(n);
  let next = 0;
  const lane = async () => {
    while (next < n) {
      const i = next++;
      try {
        out[i] = { ok: true, value: await fn(i) };
      } catch (e) {
        out[i] = { ok: false, error: String(e) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(window, n) }, lane));
  return out;
}

async function sockets(target, n) {
  const server = await start(target);
  try {
    await upload(server.url, SCENARIO);
    const base = server.url.replace("http", "ws");
    // The server's CPU: the Node child's, or (Miniflare) workerd's, this process's descendants.
    const pids = server.pid ? [] : tree(process.pid).filter((p) => p !== process.pid);
    const cpuNow = () => (server.pid ? usage(server.pid).cpuMs : cpuMsOf(pids));
    const cpu0 = cpuNow();
    const t0 = performance.now();
    const opened = await windowed(n, WINDOW, (i) => openSocket(`${base}/s/scale-ws/c${i}/v1/responses`));
    const openMs = performance.now() - t0;
    const live = opened.filter((r) => r.ok).map((r) => r.value);
    const errors = opened.filter((r) => !r.ok).map((r) => r.error);
    const t1 = performance.now();
    const served = await Promise.allSettled(live.map(turn));
    const serveMs = performance.now() - t1;
    for (const s of served) if (s.status === "rejected") errors.push(String(s.reason));
    const cpu1 = cpuNow();
    const rss = server.pid ? usage(server.pid).rssMB : undefined;
    await Promise.all(
      live.map(
        (ws) =>
          new Promise((r) => {
            ws.once("close", r);
            ws.close();
          }),
      ),
    );
    return {
      n,
      open: live.length,
      served: served.filter((s) => s.status === "fulfilled").length,
      errors: errors.length,
      firstError: errors[0],
      openMs: Math.round(openMs),
      serveMs: Math.round(serveMs),
      serverCpuMs: cpu1 - cpu0,
      serverRssMB: rss === undefined ? undefined : Math.round(rss),
    };
  } finally {
    await server.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function objects(sizes) {
  const server = await start("miniflare");
  try {
    await upload(server.url, CHAT);
    const body = JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "scale" }] });
    const turnOn = async (session) => {
      const res = await fetch(`${server.url}/s/scale-do/${session}/v1/chat/completions`, { method: "POST", headers: { authorization: "Bearer sk", "content-type": "application/json" }, body });
      if (res.status !== 200) throw new Error(`turn: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    for (let i = 0; i < 20; i++) await turnOn(`warm-${i}`);
    let made = 0; // sessions s-0 … made by the ramp; 20 warm and 11 probes a size besides
    for (const size of sizes) {
      const from = made;
      const t0 = performance.now();
      while (made < size) {
        const batch = [];
        for (let k = 0; k < 16 && made < size; k++) batch.push(turnOn(`s-${made++}`));
        await Promise.all(batch);
      }
      const seconds = (performance.now() - t0) / 1000;
      const lat = [];
      for (let k = 0; k < 11; k++) {
        const t = performance.now();
        await turnOn(`new-${size}-${k}`);
        lat.push((performance.now() - t) * 1000);
      }
      console.log(JSON.stringify({ n: size, createdPerSecond: made > from ? Math.round((made - from) / seconds) : undefined, firstTurnUs: Math.round(median(lat)) }));
    }
  } finally {
    await server.close();
  }
}

if (values.curve === "objects") await objects(SIZES);
else for (const n of SIZES) console.log(JSON.stringify(await sockets(values.target, n)));
process.exit(0);
