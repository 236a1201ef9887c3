// Large request bodies at once (src/http/body-budget.ts): N chat requests of a 10 MB message sent together to a fresh
// server, for N = 1, 2, 4, 8 in turn; each batch's answers (200 served, 503 refused by the Worker's budget) and the
// serving process's peak RSS so far (VmHWM, MB) over its RSS before the first batch. Not a test: figures depend on
// the machine. `--worker`: the Worker under `wrangler dev` (its workerd processes), where the budget applies; without
// it the Node runtime from the source tree (no budget: every request is served).
//   node bench/large-bodies.mjs [--worker] [--batches 1,2,4,8]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { tree } from "./proc.mjs";

const { values } = parseArgs({ options: { worker: { type: "boolean", default: false }, batches: { type: "string", default: "1,2,4,8" } } });
const args = values.worker ? ["bench/servers/mockllm-wrangler-dev.mjs"] : ["--import", "tsx", "bench/servers/mockllm-src.ts"];
const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise((resolve, reject) => {
  child.stdout.once("data", (d) => resolve(String(d).trim()));
  child.once("exit", (code) => reject(new Error(`server exited ${code}`)));
});
const pids = values.worker ? tree(child.pid).filter((p) => readFileSync(`/proc/${p}/comm`, "utf8").trim() === "workerd") : [child.pid];

/** RSS and peak RSS (VmHWM) in MB, summed over the serving processes. */
function memory() {
  let rss = 0;
  let hwm = 0;
  for (const pid of pids) {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    rss += Number(/VmRSS:\s+(\d+)/.exec(text)[1]) / 1024;
    hwm += Number(/VmHWM:\s+(\d+)/.exec(text)[1]) / 1024;
  }
  return { rss, hwm };
}

const headers = { authorization: "Bearer sk-bench", "content-type": "application/json" };
const big = JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "word ".repeat(2_000_000) }] });
async function send(body) {
  const res = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers, body });
  for await (const _ of res.body);
  return res.status;
}

await send(JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }));
await new Promise((r) => setTimeout(r, 300));
const before = memory().rss;
const rows = [];
for (const n of values.batches.split(",").map(Number)) {
  const statuses = await Promise.all(Array.from({ length: n }, () => send(big)));
  rows.push({
    "at once": n,
    served: statuses.filter((s) => s === 200).length,
    refused: statuses.filter((s) => s === 503).length,
    "peak RSS so far (MB)": Math.round(memory().hwm),
    "over the start (MB)": Math.round(memory().hwm - before),
  });
}
for (const p of tree(child.pid).reverse()) {
  try {
    process.kill(p, "SIGTERM");
  } catch {}
}
console.log(`${values.worker ? "Worker (wrangler dev)" : "Node"}: RSS before the first batch ${Math.round(before)} MB`);
console.table(rows);
