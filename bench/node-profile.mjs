#!/usr/bin/env node
// A CPU profile of the Node runtime under the compare bench's load: the built server (dist/node) started with
// `--cpu-prof`, warmed, then autocannon at `--connections` for `--duration` seconds on the JSON turn (or the stream or
// the SDK conversations), and the functions with the most self time per request. `--heap`: bytes allocated per
// request instead, by function (V8's sampling heap profiler, young-generation garbage included, every 1 KB): a figure
// that reads the same run after run on a shared machine, where CPU time does not. `--inclusive`: each function's time
// with what it calls (a stage's whole cost: the journal's append, the body's parse). Frames in the minified core
// bundle are named by their source (src/…:line, through the build's source map), as several functions share a line.
//   node bench/node-profile.mjs [--target mockllm|floor|peer] [--load json|stream|conv|sdk|responses] [--conversations 3000] [--connections 50] [--duration 5] [--heap] [--inclusive] [--dist FILE] [--dir DIR] [--top 30]
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { NODE_LAUNCHERS, start, stopAll } from "./launch.mjs";
import { benchClient, sdkReplay, sdkRequests, toolConversations } from "./sdk-conversations.mjs";
import { JSON_BODY, JSON_HEADERS, paths, RESPONSES_BODY, STREAM_BODY } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    load: { type: "string", default: "json" },
    connections: { type: "string", default: "50" },
    duration: { type: "string", default: "5" },
    dir: { type: "string" },
    top: { type: "string", default: "30" },
    heap: { type: "boolean", default: false },
    inclusive: { type: "boolean", default: false },
    // --load conv: how many conversations are measured (after 500 to warm up).
    conversations: { type: "string", default: "3000" },
    // Another build's dist/node/index.js (an earlier commit's), to profile before and after a change.
    dist: { type: "string" },
    // The same profile of the floor (bare node:http) or the peer, to read a row's distance function by function.
    target: { type: "string", default: "mockllm" },
  },
});
const dir = values.dir ?? mkdtempSync(join(tmpdir(), "mockllm-node-profile-"));
mkdirSync(dir, { recursive: true });
const launcher = NODE_LAUNCHERS[values.target];
if (!launcher) throw new Error(`--target: one of ${Object.keys(NODE_LAUNCHERS).join(", ")}`);
const heapFile = join(dir, "node.heapprofile");

/** Source maps of the scripts a profile names, by URL (null: none beside the file). */
const maps = new Map();
function mapOf(url) {
  if (!maps.has(url)) {
    let map = null;
    try {
      const file = url.startsWith("file:") ? fileURLToPath(url) : url;
      if (file.endsWith(".js") && existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
    } catch {}
    maps.set(url, map);
  }
  return maps.get(url);
}

/** A profile frame as a line of the report: its function and where it is — the source's file and line when the script has a map. */
function frameLabel(f) {
  const name = f.functionName || "(anonymous)";
  const origin = f.url ? mapOf(f.url)?.findEntry(f.lineNumber, f.columnNumber) : undefined;
  if (origin?.originalSource) {
    const i = origin.originalSource.lastIndexOf("src/");
    const file = i >= 0 ? origin.originalSource.slice(i) : origin.originalSource.split("/").slice(-2).join("/");
    return `${name} ${file}:${origin.originalLine + 1}`;
  }
  return `${name} ${f.url.split("/").slice(-2).join("/")}:${f.lineNumber + 1}`;
}
const distEnv = values.dist ? { MOCKLLM_NODE_DIST: values.dist } : {};
const { child, url } = values.heap
  ? await start({ label: "node", launcher, env: { ...distEnv, MOCKLLM_BENCH_ALLOCATIONS: heapFile, MOCKLLM_BENCH_YOUNG: "1" } })
  : await start({ label: "node", launcher, env: distEnv }, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
const p = paths(values.target);
// --load sdk: the SDK conversation's two requests with the `openai` client's headers, replayed without the client.
const sdk = values.load === "sdk" ? await sdkRequests() : undefined;
const cannon = (duration) =>
  sdk
    ? autocannon({ ...sdkReplay(url + p.toolsBase, sdk), connections: Number(values.connections), duration })
    : autocannon({
        url: url + (values.load === "stream" ? p.stream : values.load === "responses" ? p.responses : p.json),
        method: "POST",
        connections: Number(values.connections),
        duration,
        headers: JSON_HEADERS,
        body: values.load === "stream" ? STREAM_BODY : values.load === "responses" ? RESPONSES_BODY : JSON_BODY,
      });
let requests;
if (values.load === "conv") {
  const client = benchClient(url + p.toolsBase);
  await toolConversations(client, 500);
  const n = Number(values.conversations);
  await toolConversations(client, n);
  requests = n * 2 + 1000;
} else {
  requests = (await cannon(2)).requests.total;
  requests += (await cannon(Number(values.duration))).requests.total;
}
if (values.heap) {
  // The sampler writes its profile on SIGUSR2 (bench/servers/memory-sampler.mjs); wait until the file reads whole.
  child.kill("SIGUSR2");
  let profile;
  for (let i = 0; i < 60 && profile === undefined; i++) {
    await new Promise((r) => setTimeout(r, 500));
    try {
      if (existsSync(heapFile)) profile = JSON.parse(readFileSync(heapFile, "utf8"));
    } catch {}
  }
  await stopAll([child]);
  const self = new Map();
  let total = 0;
  const walk = (node) => {
    const key = frameLabel(node.callFrame);
    total += node.selfSize;
    self.set(key, (self.get(key) ?? 0) + node.selfSize);
    for (const c of node.children) walk(c);
  };
  walk(profile.head);
  console.log(`${heapFile}\n${requests} requests, ${(total / requests).toFixed(0)} bytes allocated a request`);
  for (const [k, b] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`${(b / requests).toFixed(0).padStart(7)} B  ${k}`);
  process.exit(0);
}
await stopAll([child]);
const written = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
if (written === undefined) throw new Error(`no .cpuprofile in ${dir}: the ${values.target} server did not exit cleanly on SIGTERM (its launcher needs a SIGTERM handler calling process.exit)`);
const file = join(dir, written);
const prof = JSON.parse(readFileSync(file, "utf8"));
const self = new Map();
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const byName = new Map();
// --inclusive: a sample counts for every function on its stack (once, however often a function recurses in it).
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const labels = new Map();
const labelOf = (id) => {
  if (!labels.has(id)) labels.set(id, frameLabel(byId.get(id).callFrame));
  return labels.get(id);
};
let busy = 0;
for (const [id, t] of self) {
  if (byId.get(id).callFrame.functionName === "(idle)") continue;
  busy += t;
  if (!values.inclusive) {
    byName.set(labelOf(id), (byName.get(labelOf(id)) ?? 0) + t);
    continue;
  }
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const key = labelOf(at);
    if (byId.get(at).callFrame.functionName === "(root)" || seen.has(key)) continue;
    seen.add(key);
    byName.set(key, (byName.get(key) ?? 0) + t);
  }
}
console.log(`${file}\n${requests} requests, busy ${(busy / requests).toFixed(1)} µs a request${values.inclusive ? " (each function with what it calls)" : ""}`);
for (const [k, t] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`${(t / requests).toFixed(2).padStart(7)} µs  ${k}`);
