#!/usr/bin/env node
// workerd's CPU per request for several builds of the Worker bundle side by side (issue 34, part 1): the fair measure
// of what one change costs on the Worker path, where a profile inside workerd charges the API's work (the body read,
// the RPC, SQLite) to whichever JavaScript frame awaits it. Each bundle directory (a dist/worker copied aside: build,
// `cp -r dist/worker /tmp/w-NAME`, change one thing, build again) runs under its own Miniflare (bench/miniflare.mjs,
// the bench scenarios uploaded), optionally beside the probe Worker; every round sends each target a fixed number of
// requests at a fixed concurrency, the targets taking turns (odd rounds the other way round), and reads the user + system
// time of every workerd process the target's Miniflare started (/proc). Prints, per target and load, the median µs of
// workerd CPU per request, every round's figure, the median's ratio to the first target's (that ran the load), and in
// how many rounds it was below the first target's figure of the same round.
//   node bench/worker-cpu.mjs [--probe] [--probe-fetch] [--probe-wire] [--load json,stream,long,long-messages,paced,fresh] [--requests 10000] [--rounds 4] [--connections 50]
//                             [--warm 3000] [--paced-requests 400] [--namespace] [--rate [--seconds 3]] DIR…
// --load paced: the burst's paced stream (bench-burst: 100 one-word events at 50 words a second after 200 ms, ~2.2 s a
// stream), --paced-requests of them a round (a tenth of that to warm up); the probe answers it on the same schedule
// (bench/probe-worker `pacedAnswer`), the wire probe not at all.
// --load fresh: the JSON turn, each request on a session never used before (`/s/bench/fresh-{n}/…`), as a suite that
// names a session per test sends them: a new session object, its tables, its snapshot and its scenario index line.
// --load long-messages: the 121-message conversation of `long` on Anthropic's Messages API (81 messages of content
// blocks, LONG_MESSAGES_BODY), the probe answering it as it answers the rest.
// --namespace: mockllm's requests carry a namespace key (a namespace "bench" without quotas, its scenarios uploaded
// with its admin key), as a team on a shared URL sends them.
// Build the bundle with `node bin/build-worker.mjs`. Note the load average (`uptime`) beside the figures: the machine
// is shared, and only figures of one run are comparable.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { Miniflare } from "miniflare";
import { median } from "./launch.mjs";
import { mockllmOptions, probeOptions } from "./miniflare.mjs";
import { cpuMsOf, tree } from "./proc.mjs";
import { freshSessionRequests, loadRequest, namespaceKey, uploadScenarios } from "./workload.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    probe: { type: "boolean", default: false },
    "probe-fetch": { type: "boolean", default: false },
    "probe-wire": { type: "boolean", default: false },
    load: { type: "string", default: "json" },
    requests: { type: "string", default: "10000" },
    rounds: { type: "string", default: "4" },
    connections: { type: "string", default: "50" },
    warm: { type: "string", default: "3000" },
    "paced-requests": { type: "string", default: "400" },
    namespace: { type: "boolean", default: false },
    rate: { type: "boolean", default: false },
    seconds: { type: "string", default: "3" },
  },
});
const dirs = positionals.length > 0 ? positionals.map((d) => resolve(d)) : [fileURLToPath(new URL("../dist/worker/", import.meta.url))];
const loads = values.load.split(",");

const comm = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
};
/** Every workerd process under this one. */
const workerds = () => new Set(tree(process.pid).filter((pid) => comm(pid) === "workerd"));

const targets = [];
async function launch(label, kind, options) {
  const before = workerds();
  const mf = new Miniflare(options);
  const url = (await mf.ready).origin;
  const pids = new Set([...workerds()].filter((pid) => !before.has(pid)));
  if (pids.size === 0) throw new Error(`${label}: no workerd process found`);
  const key = kind === "mockllm" && values.namespace ? await namespaceKey(url, "bench") : undefined;
  if (kind === "mockllm") await uploadScenarios(url, key ?? "bench");
  targets.push({ label, kind, mf, url, pids, key, cpu: Object.fromEntries(loads.map((l) => [l, []])), rate: Object.fromEntries(loads.map((l) => [l, []])) });
}
for (const dir of dirs) await launch(dir, "mockllm", mockllmOptions({ DEFAULT_WORDS_PER_SECOND: "0", ADMIN_TOKEN: "bench" }, {}, dir));
if (values.probe) await launch("probe", "floor", probeOptions());
// The probe forwarding the request to its object's fetch (a Request and a Response cross, not RPC arguments).
if (values["probe-fetch"]) await launch("probe (fetch)", "floor", probeOptions({ bindings: { PROBE_MODE: "fetch" } }));
// The probe answering with mockllm's wire: request headers kept, the answer's headers and bytes (probe-worker `wire`).
if (values["probe-wire"]) await launch("probe (wire)", "floor", probeOptions({ bindings: { PROBE_MODE: "wire" } }));

/** `amount` requests, or with `seconds` as many as that many seconds take (autocannon settles a fixed amount only on its one-second tick). */
const send = (t, load, amount, seconds) => {
  const { path, body, headers } = loadRequest(load, t.kind, t.key);
  const fresh = load === "fresh" ? { requests: freshSessionRequests(path) } : {};
  return autocannon({
    url: t.url + path,
    method: "POST",
    connections: Number(values.connections),
    ...(seconds === undefined ? { amount } : { duration: seconds }),
    headers,
    body,
    ...fresh,
  });
};
try {
  const paced = Number(values["paced-requests"]);
  const amount = (load, warm) => (load === "paced" ? (warm ? Math.max(Number(values.connections), Math.ceil(paced / 10)) : paced) : Number(warm ? values.warm : values.requests));
  // The wire probe answers the paced request unpaced: it has no paced mode. The probes have no sessions to start.
  const serves = (t, load) => (load !== "paced" || t.label !== "probe (wire)") && (load !== "fresh" || t.kind === "mockllm");
  // JIT, the session object
  for (const t of targets) for (const load of loads) if (serves(t, load)) await send(t, load, amount(load, true));
  for (let round = 0; round < Number(values.rounds); round++) {
    process.stderr.write(`worker-cpu: round ${round + 1} of ${values.rounds}\n`);
    for (const load of loads) {
      for (const t of round % 2 === 0 ? targets : [...targets].reverse()) {
        if (!serves(t, load)) continue;
        const c0 = cpuMsOf(t.pids);
        const res = await send(t, load, amount(load, false), values.rate ? Number(values.seconds) : undefined);
        if (res.errors + res.non2xx > 0) throw new Error(`${t.label}: ${res.errors} errors, ${res.non2xx} non-2xx`);
        t.cpu[load].push(((cpuMsOf(t.pids) - c0) / res.requests.total) * 1000);
        t.rate[load].push(res.requests.total / res.duration);
      }
    }
  }
} finally {
  for (const t of targets) await t.mf.dispose();
}
// "below first": in how many rounds the target cost less than the first target in the same round — on a shared
// machine the rounds move together, so a change that is real is below (or above) in nearly every round, where the
// medians of two builds alone can differ by the spread.
const head = loads.map((l) => `${l}: µs per request (median) | rounds | ÷ first | below first`);
console.log(`| target | ${head.join(" | ")} |\n| --- | ${head.map(() => "--- | --- | --- | ---").join(" | ")} |`);
for (const t of targets) {
  const cells = loads.map((l) => {
    if (t.cpu[l].length === 0) return "– | – | – | –";
    const first = targets.find((x) => x.cpu[l].length > 0).cpu[l];
    const m = median(t.cpu[l]);
    const below = t.cpu[l].filter((x, i) => x < first[i]).length;
    return `${m.toFixed(0)} | ${t.cpu[l].map((x) => x.toFixed(0)).join(" ")} | ${(m / median(first)).toFixed(2)} | ${below} of ${t.cpu[l].length}`;
  });
  console.log(`| ${t.label} | ${cells.join(" | ")} |`);
}
// With --rate, each round's pass lasts --seconds instead of --requests, and this prints requests a second of each
// round (the targets taking turns, as for CPU) and their ratio to the first target's in the same round: at
// --connections 1 the compare row's figure (bench/compare.mjs), paired round by round.
if (values.rate) {
  const rhead = loads.map((l) => `${l}: req/s (median) | rounds | ÷ first (median of the rounds' ratios)`);
  console.log(`\n| target | ${rhead.join(" | ")} |\n| --- | ${rhead.map(() => "--- | --- | ---").join(" | ")} |`);
  for (const t of targets) {
    const cells = loads.map((l) => {
      if (t.rate[l].length === 0) return "– | – | –";
      const first = targets.find((x) => x.rate[l].length > 0).rate[l];
      return `${median(t.rate[l]).toFixed(0)} | ${t.rate[l].map((x) => x.toFixed(0)).join(" ")} | ${median(t.rate[l].map((x, i) => x / first[i])).toFixed(2)}`;
    });
    console.log(`| ${t.label} | ${cells.join(" | ")} |`);
  }
}
