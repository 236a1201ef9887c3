#!/usr/bin/env node
// `mockllm serve` as a user starts it: the CLI (bin/mockllm.js, dist/client) and then the Node runtime (dist/node),
// from a fresh process to its ready banner, and its RSS half a second later — for this checkout and, with `--a DIR`,
// another one (a checkout or unpacked package with its dist/ built and node_modules beside it), taking turns, medians.
//   node bench/serve-start.mjs [--a DIR] [--b DIR] [--starts 9]
// The servers run on this process's Node (`node_modules/.bin/node bench/serve-start.mjs` for the project's Node 22).
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median, stopAll } from "./launch.mjs";
import { usage } from "./proc.mjs";

const { values } = parseArgs({
  options: { a: { type: "string" }, b: { type: "string", default: fileURLToPath(new URL("..", import.meta.url)) }, starts: { type: "string", default: "9" } },
});
const TARGETS = [...(values.a ? [{ label: "A", dir: values.a }] : []), { label: "B", dir: values.b }];

/** Starts `mockllm serve --port 0` from `dir` and resolves once its banner names the URL. */
function serve(dir) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(dir, "bin", "mockllm.js"), "serve", "--port", "0", "--admin-token", "bench"], { cwd: tmpdir(), stdio: ["ignore", "pipe", "ignore"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (/ready on http/.test(out)) resolve({ child, ms: performance.now() - t0 });
    });
    child.once("exit", (code) => reject(new Error(`${dir}: mockllm serve exited with ${code}\n${out}`)));
  });
}

const fig = new Map(TARGETS.map((t) => [t.label, { ms: [], rss: [] }]));
for (let i = 0; i < Number(values.starts); i++) {
  for (const t of i % 2 ? [...TARGETS].reverse() : TARGETS) {
    const { child, ms } = await serve(t.dir);
    await new Promise((r) => setTimeout(r, 500));
    fig.get(t.label).ms.push(ms);
    fig.get(t.label).rss.push(usage(child.pid).rssMB);
    child.removeAllListeners("exit");
    await stopAll([child]);
  }
}
console.log(`Node ${process.version}\n| target | serve to ready (ms) | starts | idle RSS (MB) |\n| --- | --- | --- | --- |`);
for (const t of TARGETS) {
  const f = fig.get(t.label);
  console.log(`| ${t.label}: ${t.dir} | ${median(f.ms).toFixed(0)} | ${f.ms.map((x) => x.toFixed(0)).join(" ")} | ${median(f.rss).toFixed(1)} |`);
}
