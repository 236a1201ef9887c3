#!/usr/bin/env node
// Server CPU per 1,000 Gemini generateContent turns (the default responder, a one-line body), mockllm's Node runtime
// from this build and, with `--a DIR/dist/node/index.js`, another build's, taking turns (medians of the rounds): the
// before/after of a change on Gemini's request path, which cpu-rows.mjs (the OpenAI Chat turn beside the peer) does
// not walk.
//   node bench/gemini-turn.mjs [--a DIR/dist/node/index.js] [--rounds 5] [--requests 10000] [--warm 15000] [--connections 50]
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { median, start, stopAll } from "./launch.mjs";
import { usage } from "./proc.mjs";

const { values } = parseArgs({
  options: {
    a: { type: "string" },
    rounds: { type: "string", default: "5" },
    requests: { type: "string", default: "10000" },
    warm: { type: "string", default: "15000" },
    connections: { type: "string", default: "50" },
  },
});
const launcher = fileURLToPath(new URL("./servers/mockllm-node.mjs", import.meta.url));
const targets = [...(values.a ? [{ label: "A", launcher, env: { MOCKLLM_NODE_DIST: values.a } }] : []), { label: "B", launcher }];
const body = JSON.stringify({ contents: [{ role: "user", parts: [{ text: "Hello there, how are you today?" }] }], generationConfig: { temperature: 0.2 } });
const running = [];
for (const t of targets) running.push({ t, ...(await start(t)), cpu: [] });
const fire = (r, amount) =>
  autocannon({
    url: `${r.url}/v1beta/models/gemini-2.5-flash:generateContent`,
    method: "POST",
    body,
    headers: { "content-type": "application/json", "x-goog-api-key": "bench" },
    connections: Number(values.connections),
    amount,
  });
try {
  for (const r of running) await fire(r, Number(values.warm));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const r of round % 2 ? [...running].reverse() : running) {
      const c0 = usage(r.child.pid).cpuMs;
      const res = await fire(r, Number(values.requests));
      if (res.non2xx || res.errors) throw new Error(`${r.t.label}: ${res.non2xx} answers not 2xx, ${res.errors} errors`);
      r.cpu.push(((usage(r.child.pid).cpuMs - c0) / res.requests.total) * 1000);
    }
  }
} finally {
  await stopAll(running.map((r) => r.child));
}
for (const r of running) console.log(`${r.t.label} ${median(r.cpu).toFixed(1).padStart(6)} ms per 1,000  rounds ${r.cpu.map((x) => x.toFixed(0)).join(" ")}`);
