#!/usr/bin/env node
// Two builds of the Node runtime (and optionally the peer) side by side on the figures that move least on a shared
// machine: server CPU per 1,000 JSON turns (a fixed number of requests at 50 connections, the targets taking turns,
// medians), start-up to ready and idle RSS (fresh starts, taking turns, medians). For before/after of one change:
//   node bench/ab.mjs --a <checkout>/dist/node/index.js --b dist/node/index.js [--peer] [--rounds 6] [--requests 15000] [--starts 7]
// (--rounds 0: start-up and idle RSS only)
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { median, start, stopAll } from "./launch.mjs";
import { usage } from "./proc.mjs";
import { JSON_BODY, JSON_HEADERS, paths } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    a: { type: "string" },
    b: { type: "string", default: fileURLToPath(new URL("../dist/node/index.js", import.meta.url)) },
    peer: { type: "boolean", default: false },
    rounds: { type: "string", default: "6" },
    requests: { type: "string", default: "15000" },
    starts: { type: "string", default: "7" },
  },
});
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const node = (label, dist) => ({ label, launcher: here("./servers/mockllm-node.mjs"), env: { MOCKLLM_NODE_DIST: dist }, kind: "mockllm" });
const TARGETS = [...(values.a ? [node("A", values.a)] : []), node("B", values.b), ...(values.peer ? [{ label: "peer", launcher: here("./servers/aimock.mjs"), kind: "peer" }] : [])];
const fig = new Map(TARGETS.map((t) => [t.label, { cpu: [], startMs: [], idleMB: [] }]));

for (let i = 0; i < Number(values.starts); i++) {
  for (const t of i % 2 ? [...TARGETS].reverse() : TARGETS) {
    const s = await start(t);
    await new Promise((r) => setTimeout(r, 500));
    fig.get(t.label).startMs.push(s.startMs);
    fig.get(t.label).idleMB.push(usage(s.child.pid).rssMB);
    await stopAll([s.child]);
  }
}
const running = [];
for (const t of TARGETS) running.push({ t, ...(await start(t)) });
const turns = (r, amount) => autocannon({ url: r.url + paths(r.t.kind).json, method: "POST", connections: 50, amount, headers: JSON_HEADERS, body: JSON_BODY });
try {
  if (Number(values.rounds) > 0) for (const r of running) await turns(r, 5000); // warm-up
  for (let i = 0; i < Number(values.rounds); i++) {
    for (const r of i % 2 ? [...running].reverse() : running) {
      const c0 = usage(r.child.pid).cpuMs;
      const res = await turns(r, Number(values.requests));
      fig.get(r.t.label).cpu.push(((usage(r.child.pid).cpuMs - c0) / res.requests.total) * 1000);
    }
  }
} finally {
  await stopAll(running.map((r) => r.child));
}
const f0 = (xs) => median(xs).toFixed(0);
console.log("| target | CPU per 1,000 JSON turns (ms) | rounds | start-up (ms) | idle RSS (MB) |\n| --- | --- | --- | --- | --- |");
for (const t of TARGETS) {
  const f = fig.get(t.label);
  console.log(
    `| ${t.label === "peer" ? "peer (aimock)" : `${t.label}: ${t.env.MOCKLLM_NODE_DIST}`} | ${median(f.cpu)?.toFixed(1) ?? "-"} | ${f.cpu.map((x) => x.toFixed(0)).join(" ")} | ${f0(f.startMs)} | ${median(f.idleMB).toFixed(1)} |`,
  );
}
