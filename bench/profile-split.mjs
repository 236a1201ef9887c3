#!/usr/bin/env node
// Per-request split of a worker-profile.mjs profile (issue 34): busy time (not idle), and the inclusive time of a few
// functions — the session object's `next`, the request side's `dispatch`, the storage writes — per request served.
// Inclusive times of one function name count each sample once; a JIT that inlines a callee moves its time into the
// caller, so read the large subtrees (`next`, `dispatch`), not the small ones alone.
//   node bench/profile-split.mjs DIR/worker.cpuprofile REQUESTS [name…]
import { readFileSync } from "node:fs";

const [file, requests, ...rest] = process.argv.slice(2);
const names = rest.length > 0 ? rest : ["next", "dispatch", "bumpAttempt", "markUsed", "append"];
const p = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map(p.nodes.flatMap((n) => (n.children ?? []).map((c) => [c, n.id])));
const self = new Map();
p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
const name = (id) => byId.get(id).callFrame.functionName;
let busy = 0;
const inclusive = new Map();
for (const [id, t] of self) {
  if (name(id) === "(idle)") continue;
  busy += t;
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) seen.add(name(cur));
  for (const n of seen) inclusive.set(n, (inclusive.get(n) ?? 0) + t);
}
const perRequest = (us) => `${(us / 1000 / Number(requests)).toFixed(3)} ms`;
console.log(`busy ${perRequest(busy)} per request`);
for (const n of names) console.log(`${n}: ${perRequest(inclusive.get(n) ?? 0)} per request, ${(((inclusive.get(n) ?? 0) / busy) * 100).toFixed(1)}% of busy`);
