#!/usr/bin/env node
// Where a load's peak RSS is: each target samples its own memory (bench/servers/memory-sampler.mjs) while it serves
// the JSON turns and then the streams at 50 connections; for each load, the sample with the highest RSS split into
// the V8 heap (per space), ArrayBuffers, and the rest (native: malloc, thread stacks, code of the binary).
//   node bench/memory-split.mjs [--only node,peer] [--duration 8] [--baseline DIR] [--node-args "--flag …"]
import { createWriteStream, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { start, stopAll } from "./launch.mjs";
import { benchClient, toolConversations } from "./sdk-conversations.mjs";
import { JSON_BODY, JSON_HEADERS, paths, STREAM_BODY } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "8" },
    only: { type: "string", default: "node,peer" },
    baseline: { type: "string" },
    "node-args": { type: "string", default: "" },
    // Warm up as bench/compare.mjs does first (500 SDK tool conversations), so V8's heap limits are past start-up's.
    warm: { type: "boolean", default: false },
  },
});
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "mockllm-memory-"));
process.stderr.write(`samples in ${dir}\n`);
const nodeArgs = values["node-args"].split(" ").filter(Boolean);
const TARGETS = [
  { key: "base", label: "baseline", launcher: here("./servers/mockllm-node.mjs"), kind: "mockllm", env: { MOCKLLM_NODE_DIST: `${values.baseline}/dist/node/index.js` } },
  { key: "node", label: "mockllm Node", launcher: here("./servers/mockllm-node.mjs"), kind: "mockllm", env: {} },
  { key: "peer", label: "peer", launcher: here("./servers/aimock.mjs"), kind: "peer", env: {} },
].filter((t) => values.only.split(",").includes(t.key) && (t.key !== "base" || values.baseline));

const cannon = (url, body, connections, duration) => autocannon({ url, method: "POST", connections, duration, headers: JSON_HEADERS, body });

const MB = (n) => (n / 1e6).toFixed(1);
const results = [];
for (const t of TARGETS) {
  const file = join(dir, `${t.key}.jsonl`);
  const { child, url } = await start({ ...t, env: { ...t.env, MOCKLLM_BENCH_MEMORY: file } }, nodeArgs);
  const p = paths(t.kind);
  // With --trace-gc among the node args: the target's GC trace in DIR/KEY.gc.txt.
  child.stdout.pipe(createWriteStream(join(dir, `${t.key}.gc.txt`)));
  try {
    await new Promise((r) => setTimeout(r, 500));
    const phases = { idle: [Date.now() - 400, Date.now()] };
    await cannon(url + p.json, JSON_BODY, 10, 2);
    if (values.warm) await toolConversations(benchClient(url + p.toolsBase), 500);
    let t0 = Date.now();
    const json = await cannon(url + p.json, JSON_BODY, 50, Number(values.duration));
    phases.json = [t0, Date.now()];
    t0 = Date.now();
    const stream = await cannon(url + p.stream, STREAM_BODY, 50, Number(values.duration));
    phases.stream = [t0, Date.now()];
    await new Promise((r) => setTimeout(r, 200));
    const samples = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const [phase, [a, b]] of Object.entries(phases)) {
      const inPhase = samples.filter((s) => s.t >= a && s.t <= b);
      const peak = inPhase.reduce((m, s) => (s.rss > m.rss ? s : m), inPhase[0]);
      const max = (k) => Math.max(...inPhase.map((s) => s[k]));
      const rate = phase === "json" ? json.requests.average : phase === "stream" ? stream.requests.average : 0;
      // What the old generation took in during the load (promoted and pretenured bytes): its growth between samples.
      let oldIn = 0;
      for (let i = 1; i < inPhase.length; i++) oldIn += Math.max(0, inPhase[i].used.old_space - inPhase[i - 1].used.old_space);
      const turns = phase === "json" ? json.requests.total : phase === "stream" ? stream.requests.total : 0;
      results.push({ target: t.label, phase, rate, oldPerTurn: turns ? oldIn / turns : 0, peak, maxHeapTotal: max("heapTotal"), maxExternal: max("external"), maxArrayBuffers: max("arrayBuffers") });
    }
  } finally {
    await stopAll([child]);
  }
}
const rows = [
  ["req/s", (r) => r.rate.toFixed(0)],
  ["old generation in, per request (KB)", (r) => (r.oldPerTurn / 1e3).toFixed(2)],
  ["rss at peak", (r) => MB(r.peak.rss)],
  ["  RssAnon / RssFile", (r) => `${MB(r.peak.rssAnon)} / ${MB(r.peak.rssFile)}`],
  ["  heapTotal", (r) => MB(r.peak.heapTotal)],
  ["    new / old / code / large", (r) => ["new_space", "old_space", "code_space", "large_object_space"].map((k) => MB(r.peak.spaces[k] ?? 0)).join(" / ")],
  ["  heapUsed", (r) => MB(r.peak.heapUsed)],
  ["  external (arrayBuffers)", (r) => `${MB(r.peak.external)} (${MB(r.peak.arrayBuffers)})`],
  ["  rss − heapTotal − external", (r) => MB(r.peak.rss - r.peak.heapTotal - r.peak.external)],
  ["  threads", (r) => String(r.peak.threads)],
  ["max heapTotal / external over the load", (r) => `${MB(r.maxHeapTotal)} / ${MB(r.maxExternal)}`],
];
const cols = results.map((r) => `${r.target} ${r.phase}`);
console.log(`| MB | ${cols.join(" | ")} |\n| --- | ${cols.map(() => "---").join(" | ")} |`);
for (const [label, f] of rows) console.log(`| ${label} | ${results.map(f).join(" | ")} |`);
