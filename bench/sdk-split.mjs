#!/usr/bin/env node
// What the `openai` client's company costs a server, user and system time apart: the SDK tool conversation (bench/
// sdk-conversations.mjs) through the live client in this process, then the same two requests replayed by autocannon on
// 10 connections with no client (compare's replay row), against mockllm's Node runtime, the peer and the floor taking
// turns (odd rounds the other way round). Prints each target's server CPU per request, user / system µs, medians of
// the rounds, live and replayed: the difference is what sharing the 2-core machine with the client costs each server.
//   node bench/sdk-split.mjs [--rounds 3] [--seconds 4]
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { median, NODE_LAUNCHERS, start, stopAll } from "./launch.mjs";
import { usage } from "./proc.mjs";
import { benchClient, sdkReplay, sdkRequests, toolConversations } from "./sdk-conversations.mjs";
import { paths } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    seconds: { type: "string", default: "4" },
  },
});
const seconds = Number(values.seconds);
const requests = await sdkRequests();
const running = [];
for (const target of ["mockllm", "peer", "floor"]) {
  const s = await start({ label: target, launcher: NODE_LAUNCHERS[target], kind: target });
  running.push({ target, ...s, base: s.url + paths(target).toolsBase, live: [], replayed: [] });
}

/** The server's user and system µs a request over `run`, which answers the number of requests it sent. */
async function perRequest(r, run) {
  const before = usage(r.child.pid);
  const n = await run();
  const after = usage(r.child.pid);
  return { user: ((after.userMs - before.userMs) * 1000) / n, sys: ((after.sysMs - before.sysMs) * 1000) / n };
}
const live = (r) => async () => {
  const done = {};
  await toolConversations(benchClient(r.base), 0, undefined, seconds, done);
  return done.count * 2;
};
const replayed = (r) => async () => (await autocannon({ ...sdkReplay(r.base, requests), connections: 10, duration: seconds })).requests.total;

try {
  // Warm each server on both loads (V8's tiers, the heap's growth) before the measured rounds.
  for (const r of running) {
    await toolConversations(benchClient(r.base), 3000);
    await autocannon({ ...sdkReplay(r.base, requests), connections: 10, amount: 20000 });
  }
  for (let round = 0; round < Number(values.rounds); round++) {
    process.stderr.write(`sdk-split: round ${round + 1} of ${values.rounds}\n`);
    for (const r of round % 2 ? [...running].reverse() : running) {
      r.live.push(await perRequest(r, live(r)));
      r.replayed.push(await perRequest(r, replayed(r)));
    }
  }
  const cell = (xs) => `${median(xs.map((x) => x.user)).toFixed(1)} / ${median(xs.map((x) => x.sys)).toFixed(1)}`;
  console.log("| target | live client: user / system µs a request | replayed: user / system µs a request | user time, live ÷ replayed |");
  console.log("| --- | --- | --- | --- |");
  for (const r of running) {
    const ratio = median(r.live.map((x) => x.user)) / median(r.replayed.map((x) => x.user));
    console.log(`| ${r.target} | ${cell(r.live)} | ${cell(r.replayed)} | ${ratio.toFixed(2)}× |`);
  }
} finally {
  await stopAll(running.map((r) => r.child));
}
