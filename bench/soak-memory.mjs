#!/usr/bin/env node
// `node bench/soak-memory.mjs` (was `npm run bench:soak` before issue 34): memory under a long run (issue 15). Phase 1: N requests with 2 KB bodies on one session;
// phase 2: S sessions of 3 requests each. Prints the process tree's RSS as it goes, for the Node runtime and the
// Worker under Miniflare (workerd). The journal keeps 1,000 entries per session and stored responses 1,000 per
// session, so RSS should level off in phase 1 and grow only with the number of sessions in phase 2.
//   node bench/soak-memory.mjs [--requests 100000] [--sessions 10000] [--only node,miniflare]
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Agent, request } from "undici";
import { usage } from "./proc.mjs";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "100000" },
    sessions: { type: "string", default: "10000" },
    only: { type: "string" },
    concurrency: { type: "string", default: "32" },
  },
});
const REQUESTS = Number(values.requests);
const SESSIONS = Number(values.sessions);
const CONCURRENCY = Number(values.concurrency);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const TARGETS = [
  { key: "node", label: "Node runtime", launcher: here("./servers/mockllm-node.mjs") },
  { key: "miniflare", label: "Worker under Miniflare (workerd)", launcher: here("./servers/mockllm-miniflare.mjs") },
].filter((t) => !values.only || values.only.split(",").includes(t.key));

const filler = "x".repeat(2000);
const body = (i) => JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: `${i} ${filler}` }] });
const dispatcher = new Agent({ connections: CONCURRENCY, pipelining: 1 });

async function run(url, total, pathOf) {
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < total; i = next++) {
        const res = await request(url + pathOf(i), {
          method: "POST",
          dispatcher,
          headers: { authorization: "Bearer k", "content-type": "application/json" },
          body: body(i),
        });
        await res.body.text();
        if (res.statusCode !== 200) failed++;
      }
    }),
  );
  return failed;
}

for (const target of TARGETS) {
  const child = spawn(process.execPath, [target.launcher], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /^(http:\/\/\S+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
  });
  const rows = [
    ["phase", "requests so far", "RSS (MB)"],
    ["idle", "0", usage(child.pid).rssMB.toFixed(0)],
  ];
  const step = Math.max(1, Math.floor(REQUESTS / 10));
  let done = 0;
  let failed = 0;
  while (done < REQUESTS) {
    const n = Math.min(step, REQUESTS - done);
    failed += await run(url, n, () => "/s/bench/soak/v1/chat/completions");
    done += n;
    rows.push(["one session", String(done), usage(child.pid).rssMB.toFixed(0)]);
  }
  const sstep = Math.max(1, Math.floor(SESSIONS / 5));
  let sessions = 0;
  while (sessions < SESSIONS) {
    const n = Math.min(sstep, SESSIONS - sessions);
    const base = sessions;
    failed += await run(url, n * 3, (i) => `/s/bench/s${base + Math.floor(i / 3)}/v1/chat/completions`);
    sessions += n;
    rows.push(["3-request sessions", `${sessions} sessions`, usage(child.pid).rssMB.toFixed(0)]);
  }
  console.log(`\n${target.label}${failed ? ` (${failed} non-200!)` : ""}`);
  console.log(rows.map((r) => `| ${r.join(" | ")} |`).join("\n"));
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}
await dispatcher.close();
