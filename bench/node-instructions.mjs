#!/usr/bin/env node
// Instructions per request of the Node runtime under a load, counted by valgrind's callgrind (every thread of the
// server), for a before/after on a machine where CPU time read in paired rounds moved ±20% between rounds of one
// build. The built server (dist/node, or --dist) runs under callgrind with V8's `--predictable` (one thread: no
// concurrent compiling or collecting, whose timing moves the count), is warmed with `--warm` requests, its counters
// zeroed, then `--requests` more are sent (the JSON turn at 10 connections, or the SDK conversations' requests, two a
// conversation) and the count read. Under callgrind a request takes ~50× longer, so what is remembered per
// millisecond (the journal's time) is remembered less often than at full speed. Not free of the machine either: how
// many requests one event-loop turn finds waiting moves it, so run the two builds side by side and repeat.
// Needs valgrind.
//   node bench/node-instructions.mjs [--load json|conv] [--requests 3000] [--warm 4000] [--dist FILE] [--node-flags "--predictable"]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { benchClient, toolConversations } from "./sdk-conversations.mjs";
import { JSON_BODY, JSON_HEADERS, paths } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    load: { type: "string", default: "json" },
    requests: { type: "string", default: "3000" },
    warm: { type: "string", default: "4000" },
    dist: { type: "string" },
    "node-flags": { type: "string", default: "--predictable" },
  },
});
const dir = mkdtempSync(join(tmpdir(), "mockllm-instructions-"));
const launcher = fileURLToPath(new URL("./servers/mockllm-node.mjs", import.meta.url));
const env = { ...process.env, ...(values.dist ? { MOCKLLM_NODE_DIST: values.dist } : {}) };
const args = ["--tool=callgrind", "--smc-check=all-non-file", `--callgrind-out-file=${join(dir, "cg.%p")}`, process.execPath, ...values["node-flags"].split(" ").filter(Boolean), launcher];
const child = spawn("valgrind", args, { env, stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise((resolve, reject) => {
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
    const m = out.match(/http:\/\/\S+/);
    if (m) resolve(m[0]);
  });
  child.on("exit", (code) => reject(new Error(`server exited (${code})`)));
});
const p = paths("mockllm");
const send = async (count) => {
  if (values.load === "conv") return toolConversations(benchClient(url + p.toolsBase), count / 2);
  return autocannon({ url: url + p.json, method: "POST", connections: 10, amount: count, headers: JSON_HEADERS, body: JSON_BODY });
};
const n = Number(values.requests);
await send(Number(values.warm));
execFileSync("callgrind_control", ["--zero", String(child.pid)], { stdio: "ignore" });
await send(n);
execFileSync("callgrind_control", ["--dump", String(child.pid)], { stdio: "ignore" });
child.removeAllListeners("exit");
child.kill("SIGTERM");
await new Promise((r) => child.on("exit", r));
// The dump after zeroing is part 1 (`cg.<pid>.1`); its `summary:` line is the instructions since the zero.
const part = readdirSync(dir).find((f) => f.endsWith(".1"));
const total = Number(readFileSync(join(dir, part), "utf8").match(/^summary: (\d+)/m)[1]);
console.log(`${values.load}: ${Math.round(total / n).toLocaleString("en-US")} instructions a request (${n} requests after ${values.warm})`);
