#!/usr/bin/env node
// Where workerd's own time goes under a load (issue 34, part 1): what `bench/worker-profile.mjs` cannot see, because a
// V8 profile charges native work (SQLite, the RPC's serialisation, HTTP, the runtime's promises) to whichever
// JavaScript frame awaited it. One target (mockllm's bundle, the probe, the probe with mockllm's wire) under Miniflare
// takes --requests requests at --connections connections (default 50; 1: the row at one connection, where no commit
// holds more than one turn) after a warm-up, and this prints, per request:
//   - the CPU of each workerd thread (/proc), the default;
//   - --syscalls: the system calls (`strace -c` on workerd): SQLite's page writes (pwrite64), reads, fsyncs;
//   - --commits: SQLite's fsyncs and page writes counted by the kernel's tracepoints (`perf stat`), which, unlike strace,
//     do not slow workerd: one fsync is one commit, so this shows how many turns a commit holds (group commit, wave 14);
//   - --perf: native samples (`perf record -g` at 4 kHz) sorted into what their innermost known frame is — JavaScript,
//     the runtime's event loop (kj), SQLite and its I/O, garbage collection, the RPC's serialisation, headers,
//     allocation, the kernel — as µs per request. perf and strace slow workerd (a third to a half): compare two
//     targets read the same way, never with the other modes.
//   node bench/worker-native.mjs [--target mockllm|probe|wire] [--load json|stream] [--requests 6000] [--connections 50] [--syscalls | --commits | --perf] [DIR]
// Needs Linux; `--syscalls` strace, `--perf` and `--commits` perf (Debian: linux-perf) and the right to trace (root, or
// kernel.perf_event_paranoid ≤ 1). DIR: another mockllm bundle than dist/worker.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { Miniflare } from "miniflare";
import { mockllmOptions, probeOptions } from "./miniflare.mjs";
import { tree } from "./proc.mjs";
import { JSON_BODY, JSON_HEADERS, paths, STREAM_BODY, uploadScenarios } from "./workload.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    target: { type: "string", default: "mockllm" },
    load: { type: "string", default: "json" },
    requests: { type: "string", default: "6000" },
    connections: { type: "string", default: "50" },
    syscalls: { type: "boolean", default: false },
    perf: { type: "boolean", default: false },
    commits: { type: "boolean", default: false },
  },
});
const N = Number(values.requests);
const mock = values.target === "mockllm";

/** The innermost frame's kind, tried in this order on each frame from the leaf up: the first that names one wins. */
const KINDS = [
  ["SQLite I/O", /fsync|pwrite|pread/],
  ["SQLite", /sqlite3|walChecksum|pcache1/],
  ["garbage collection", /CollectGarbage|Scavenge|Sweeper|cppgc|MarkCompact|ConcurrentMarking|GlobalHandles|HeapTracer|IncrementalMarking/],
  ["RPC serialisation", /ValueSerializer|ValueDeserializer|jsg::Serializer|jsg::Deserializer/],
  ["JSON", /JsonStringifier|JsonParser|JsonParse/],
  ["headers", /api::Headers|getHeaderKeyFor|HttpHeaders|HttpHeaderTable/],
  ["Request, Response", /api::Response|api::Request/],
  ["streams", /ReadableStream|WritableStream|api::.*Stream|IdentityTransform/],
  ["RPC", /JsRpc|capnp|rpc/],
  ["JavaScript", /Builtins_|^[0-9a-f]+ \[unknown\]$|v8::internal|Interpreter|JIT/],
  ["network", /tcp_|sock|epoll|hyper|tokio|mio/],
  ["allocation", /tcmalloc|malloc|free/],
  ["event loop (kj)", /kj::/],
  ["kernel", /pvm_irq|do_syscall|entry_SYSCALL/],
];

const read = (path) => {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
};
const before = new Set(tree(process.pid));
const dir = positionals[0] !== undefined ? resolve(positionals[0]) : undefined;
const options = mock ? mockllmOptions({ DEFAULT_WORDS_PER_SECOND: "0", ADMIN_TOKEN: "bench" }, {}, dir) : probeOptions(values.target === "wire" ? { bindings: { PROBE_MODE: "wire" } } : {});
const mf = new Miniflare(options);
const url = (await mf.ready).origin;
const pids = tree(process.pid).filter((p) => !before.has(p) && read(`/proc/${p}/comm`) === "workerd");
if (pids.length === 0) throw new Error("no workerd process found");
if (mock) await uploadScenarios(url, "bench");
const p = paths(mock ? "mockllm" : "floor");
const stream = values.load === "stream";
const load = (amount) =>
  autocannon({
    url: url + (stream ? p.stream : p.json),
    method: "POST",
    connections: Number(values.connections),
    amount,
    headers: JSON_HEADERS,
    body: stream ? STREAM_BODY : JSON_BODY,
  });

/** Each workerd thread's name and CPU ticks. */
function threads() {
  const out = new Map();
  for (const pid of pids) {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(tid, { name: read(`/proc/${pid}/task/${tid}/comm`), ticks: Number(fields[11]) + Number(fields[12]) });
    }
  }
  return out;
}

await load(Math.max(1000, N / 3)); // warm-up: JIT, the session object
const work = mkdtempSync(join(tmpdir(), "worker-native-"));
const tracer = values.perf
  ? spawn("perf", ["record", "-F", "4000", "-g", "-o", join(work, "perf.data"), "-p", pids.join(",")], { stdio: "ignore" })
  : values.syscalls
    ? spawn("strace", ["-c", "-f", "-o", join(work, "strace.txt"), ...pids.flatMap((pid) => ["-p", String(pid)])], { stdio: "ignore" })
    : values.commits
      ? spawn("perf", ["stat", "-x", ",", "-o", join(work, "stat.txt"), "-e", "syscalls:sys_enter_fsync,syscalls:sys_enter_pwrite64", "-p", pids.join(",")], { stdio: "ignore" })
      : undefined;
if (tracer) await new Promise((r) => setTimeout(r, 1000)); // attached before the load starts
const start = threads();
await load(N);
const end = threads();
if (tracer) {
  tracer.kill("SIGINT");
  await new Promise((r) => tracer.on("exit", r));
}
await mf.dispose();

const label = `${values.target}, ${values.load}, ${N} requests`;
const perRequest = (ticks) => (ticks * 10_000) / N; // a tick is 10 ms
console.log(`| workerd thread (${label}) | CPU µs per request |\n| --- | --- |`);
let total = 0;
for (const [tid, t] of end) {
  const us = perRequest(t.ticks - (start.get(tid)?.ticks ?? 0));
  total += us;
  if (us > 0) console.log(`| ${t.name} (${tid}) | ${us.toFixed(0)} |`);
}
console.log(`| all | ${total.toFixed(0)} |`);

if (values.syscalls) {
  console.log(`\n| system call (at least one per 20 requests) | per request | µs each |\n| --- | --- | --- |`);
  for (const line of read(join(work, "strace.txt")).split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 5 || !/^\d/.test(f[3] ?? "") || f[5] === "total" || f[4] === "total") continue;
    const name = f.at(-1);
    if (Number(f[3]) / N < 0.05) continue; // start-up and housekeeping, not the requests
    console.log(`| ${name} | ${(Number(f[3]) / N).toFixed(2)} | ${f[2]} |`);
  }
}

if (values.commits) {
  console.log(`\n| system call (perf stat) | per request |\n| --- | --- |`);
  for (const line of read(join(work, "stat.txt")).split("\n")) {
    const [count, , event] = line.split(",");
    if (event?.startsWith("syscalls:")) console.log(`| ${event.replace("syscalls:sys_enter_", "")} | ${(Number(count) / N).toFixed(3)} |`);
  }
}

if (values.perf) {
  const script = spawnSync("perf", ["script", "-i", join(work, "perf.data"), "-F", "ip,sym"], { encoding: "utf8", maxBuffer: 1 << 30 });
  const kinds = new Map();
  let samples = 0;
  for (const stack of script.stdout.split("\n\n")) {
    const frames = stack
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "");
    if (frames.length === 0) continue;
    samples++;
    let kind = "other";
    for (const frame of frames) {
      const hit = KINDS.find(([, re]) => re.test(frame));
      if (hit) {
        kind = hit[0];
        break;
      }
    }
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const us = (n) => ((n * 250) / N).toFixed(1); // a sample is 250 µs at 4 kHz
  console.log(`\n| native time by innermost known frame (perf, 4 kHz) | µs per request |\n| --- | --- |`);
  for (const [kind, n] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`| ${kind} | ${us(n)} |`);
  console.log(`| all samples | ${us(samples)} |`);
}
rmSync(work, { recursive: true, force: true });
