#!/usr/bin/env node
// A V8 CPU profile from inside workerd (issue 34): mockllm's Worker bundle (dist/worker) under Miniflare with its
// inspector open, the bench scenarios uploaded, then a load (autocannon) while the Worker's isolate — which also runs
// its Durable Objects — is profiled over the DevTools protocol. Writes DIR/worker.cpuprofile (open it in Chrome's
// DevTools or speedscope) and prints the functions with the most self and inclusive time.
//   node bench/worker-profile.mjs [--out /tmp/wprof] [--load json|stream|long|long-messages|paced|fresh] [--connections 50] [--duration 10] [--target probe|wire] [--namespace] [--heap] [--dist DIR]
// --load paced: the burst's paced stream (bench/worker-cpu.mjs --load paced; mockllm only); --load fresh: every request
// a session's first turn (bench/worker-cpu.mjs --load fresh; mockllm only).
// --namespace: the requests carry a namespace key (as bench/worker-cpu.mjs --namespace).
// --heap: V8's sampling heap profiler instead (every allocation of the run, also what a minor GC freed at once): bytes
// allocated per request and the functions that allocated most, DIR/worker.heapprofile. Unlike CPU time on a shared
// machine, the bytes a request allocates read the same run after run, so a change's effect on them shows in one run.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { Miniflare } from "miniflare";
import WebSocket from "ws";
import { mockllmOptions, probeOptions } from "./miniflare.mjs";
import { freshSessionRequests, loadRequest, namespaceKey, uploadScenarios } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    out: { type: "string", default: "/tmp/wprof" },
    load: { type: "string", default: "json" },
    connections: { type: "string", default: "50" },
    duration: { type: "string", default: "10" },
    port: { type: "string", default: "9231" },
    // "probe": the probe Worker (bench/probe-worker) instead, the floor's profile under the same load; "wire": the probe
    // answering with mockllm's wire (PROBE_MODE "wire").
    target: { type: "string", default: "mockllm" },
    namespace: { type: "boolean", default: false },
    heap: { type: "boolean", default: false },
    // Another build's bundle directory (a copy of dist/worker set aside, as bench/worker-cpu.mjs takes): a before and after.
    dist: { type: "string" },
  },
});
const probe = values.target === "probe" || values.target === "wire";
const inspectorPort = Number(values.port);
const mf = new Miniflare(
  probe
    ? probeOptions({ inspectorPort, ...(values.target === "wire" ? { bindings: { PROBE_MODE: "wire" } } : {}) })
    : mockllmOptions({ DEFAULT_WORDS_PER_SECOND: "0", ADMIN_TOKEN: "bench" }, { inspectorPort }, values.dist === undefined ? undefined : resolve(values.dist)),
);
const url = (await mf.ready).origin;
const key = !probe && values.namespace ? await namespaceKey(url, "bench") : undefined;
if (!probe) await uploadScenarios(url, key ?? "bench");
const { path, body, headers } = loadRequest(values.load, probe ? "floor" : "mockllm", key);
const fresh = values.load === "fresh" ? { requests: freshSessionRequests(path) } : {};
const cannon = (duration) =>
  autocannon({
    ...fresh,
    url: url + path,
    method: "POST",
    connections: Number(values.connections),
    duration,
    headers,
    body,
  });
await cannon(3); // warm-up: JIT, the session object

// The Worker's target (one isolate for the Worker and its Durable Objects).
const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
const target = targets.find((t) => !/miniflare|internal/i.test(t.title ?? "")) ?? targets[0];
process.stderr.write(`profiling ${target.title} (${targets.length} targets: ${targets.map((t) => t.title).join(", ")})\n`);
const ws = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((r) => ws.once("open", r));
let id = 0;
const pending = new Map();
ws.on("message", (data) => {
  const m = JSON.parse(String(data));
  if (m.id !== undefined) pending.get(m.id)?.(m);
});
const send = (method, params = {}) =>
  new Promise((resolve) => {
    pending.set(++id, resolve);
    ws.send(JSON.stringify({ id, method, params }));
  });
mkdirSync(values.out, { recursive: true });
// The profiler to run under the load: its DevTools domain's calls, the file it writes, and how its result is printed.
const profiler = values.heap
  ? {
      start: [["HeapProfiler.enable"], ["HeapProfiler.startSampling", { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }]],
      stop: "HeapProfiler.stopSampling",
      file: "worker.heapprofile",
      print: printAllocations,
    }
  : {
      start: [["Profiler.enable"], ["Profiler.setSamplingInterval", { interval: 200 }], ["Profiler.start"]],
      stop: "Profiler.stop",
      file: "worker.cpuprofile",
      print: printTop,
    };
for (const [method, params] of profiler.start) await send(method, params);
const result = await cannon(Number(values.duration));
const {
  result: { profile },
} = await send(profiler.stop);
writeFileSync(join(values.out, profiler.file), JSON.stringify(profile));
process.stderr.write(`${result.requests.total} requests (${result.requests.average} req/s), ${result.non2xx} non-2xx; profile in ${values.out}/${profiler.file}\n`);
profiler.print(profile, result.requests.total);
ws.close();
await mf.dispose();

/** A profile node's function as the printed lists name it: `name file:line`. */
function frameName({ callFrame }) {
  return `${callFrame.functionName || "(anonymous)"} ${callFrame.url.split("/").pop()}:${callFrame.lineNumber + 1}`;
}

/** Adds `amount` to `key`'s figure in `m`. */
function add(m, key, amount) {
  m.set(key, (m.get(key) ?? 0) + amount);
}

/** The `count` largest figures of `m`, each divided by `requests` and written as `format` makes it, largest first. */
function printLargest(m, requests, format, count = 25) {
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, count)) process.stdout.write(`${format(v / requests).padStart(8)}  ${k}\n`);
}

/** Bytes allocated per request in all, and by the functions that allocated most (their own allocations). */
function printAllocations(profile, requests) {
  const bytes = new Map();
  const visit = (node) => {
    add(bytes, frameName(node), node.selfSize);
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(`bytes allocated per request: ${Math.round(total / requests)}\n`);
  printLargest(bytes, requests, (b) => String(Math.round(b)));
}

/** The functions with the most self and inclusive time, µs per request (a function's time counted once per sample). */
function printTop(profile, requests) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const inclusive = new Map();
  profile.samples.forEach((id, i) => {
    const t = profile.timeDeltas[i] ?? 0;
    add(self, frameName(byId.get(id)), t);
    const seen = new Set();
    for (let x = id; x !== undefined; x = parent.get(x)) seen.add(frameName(byId.get(x)));
    for (const k of seen) add(inclusive, k, t);
  });
  for (const [title, m] of [
    ["self", self],
    ["inclusive", inclusive],
  ]) {
    process.stdout.write(`${title} time, µs per request:\n`);
    printLargest(m, requests, (t) => t.toFixed(1));
  }
}
