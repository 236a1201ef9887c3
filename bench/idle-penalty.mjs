#!/usr/bin/env node
// What an idle spell costs the load after it: a Node target served the JSON turn at `--connections` for `--seconds`,
// then left idle for `--idle` seconds and loaded again, `--spells` times; the server's CPU per request (µs) second by
// second, and the mean over each load's first and last five seconds (`--load stream`: the compare bench's 200-word
// stream instead of the JSON turn). V8's memory reducer collects a heap that has stopped allocating (~8 s after its
// last collection), and that collection clears the weak references optimised code keeps to the last load's objects
// and maps: the code is deoptimised and compiled again when the load comes back (`--trace`: the functions optimised
// and the code marked for deoptimisation, from V8's `--trace-opt --trace-deopt`).
//   node bench/idle-penalty.mjs [--target mockllm|peer|floor] [--seconds 15] [--idle 20] [--spells 2] [--connections 50] [--load json|stream] [--node-args="--no-memory-reducer"] [--trace]
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { NODE_LAUNCHERS, start } from "./launch.mjs";
import { usage } from "./proc.mjs";
import { JSON_BODY, JSON_HEADERS, paths, STREAM_BODY } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    target: { type: "string", default: "mockllm" },
    seconds: { type: "string", default: "15" },
    idle: { type: "string", default: "20" },
    spells: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    load: { type: "string", default: "json" },
    "node-args": { type: "string", default: "" },
    trace: { type: "boolean", default: false },
  },
});
const launcher = NODE_LAUNCHERS[values.target];
if (!launcher) throw new Error(`--target: one of ${Object.keys(NODE_LAUNCHERS).join(", ")}`);
if (!["json", "stream"].includes(values.load)) throw new Error("--load: json or stream");
const args = [...values["node-args"].split(" ").filter(Boolean), ...(values.trace ? ["--trace-opt", "--trace-deopt"] : [])];
const { child, url } = await start({ label: values.target, launcher }, args);
// With --trace, V8's lines come on the server's stdout after its URL.
let out = "";
child.stdout.on("data", (d) => {
  out += d;
});

const count = (text, re) => (text.match(re) ?? []).length;
const traced = (text) => (values.trace ? `; optimised ${count(text, /completed (compiling|optimizing)/g)}, marked for deoptimisation ${count(text, /for deoptimization/g)}` : "");

/** One load of `--seconds`: the server's CPU per request in each second (its CPU time read at autocannon's ticks). */
function load() {
  return new Promise((resolve, reject) => {
    const perSecond = [];
    let cpu = usage(child.pid).cpuMs;
    const run = autocannon(
      {
        url: url + paths(values.target)[values.load],
        method: "POST",
        connections: Number(values.connections),
        duration: Number(values.seconds),
        headers: JSON_HEADERS,
        body: values.load === "stream" ? STREAM_BODY : JSON_BODY,
      },
      (err) => (err ? reject(err) : resolve(perSecond)),
    );
    run.on("tick", ({ counter }) => {
      const now = usage(child.pid).cpuMs;
      if (counter > 0) perSecond.push(((now - cpu) / counter) * 1000);
      cpu = now;
    });
  });
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const line = (label, xs, text) =>
  `${label.padEnd(22)} ${xs.map((x) => x.toFixed(0).padStart(4)).join("")}   first 5 s ${mean(xs.slice(0, 5)).toFixed(1)} µs, last 5 s ${mean(xs.slice(-5)).toFixed(1)} µs${traced(text)}`;
console.log(`${values.target}, ${values.load}${args.length ? ` (${args.join(" ")})` : ""}: server CPU per request (µs), second by second`);
let from = out.length;
console.log(line("fresh", await load(), out.slice(from)));
for (let i = 1; i <= Number(values.spells); i++) {
  from = out.length;
  await new Promise((r) => setTimeout(r, Number(values.idle) * 1000));
  const idle = out.slice(from);
  from = out.length;
  const xs = await load();
  console.log(line(`after ${values.idle} s idle`, xs, out.slice(from)) + (values.trace ? ` (while idle: marked for deoptimisation ${count(idle, /for deoptimization/g)})` : ""));
}
child.kill("SIGTERM");
