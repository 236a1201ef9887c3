/**
 * What a namespace key costs (issue 20): the same provider request (a scripted Chat Completions turn, JSON) with an
 * ordinary API key (`default` namespace) and with a namespace key, measured by autocannon in alternating rounds
 * against one server. Budget: within 10% of the plain request on Node, 15% on the Worker under Miniflare.
 *   npx tsx bench/namespaces.ts [--seconds 5] [--rounds 2] [--runtime node|workerd]
 * (`workerd` runs the built Worker: `node bin/build-worker.mjs` first.)
 */
import { parseArgs } from "node:util";
import { startMockLLM } from "../src/client/testing/start";

interface CannonResult {
  non2xx: number;
  statusCodeStats: unknown;
  requests: { average: number };
  latency: { p50: number; p99: number };
}
const cannonModule = "autocannon"; // untyped package: loaded by name
const autocannon = (await import(cannonModule)).default as (opts: Record<string, unknown>) => Promise<CannonResult>;

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "5" }, rounds: { type: "string", default: "2" }, runtime: { type: "string", default: "node" } },
});
const TOKEN = "bench-token";
const runtime = values.runtime === "workerd" ? "workerd" : "node";
const mock = await startMockLLM({ adminToken: TOKEN, runtime });
const server = { url: mock.url, close: () => mock.stop() };
const root = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const doc = (name: string) => ({ name, steps: [{ id: "a", consume: false, respond: { text: "It is sunny in Paris today." } }] });

await fetch(`${server.url}/admin/scenarios/bench`, { method: "PUT", headers: root, body: JSON.stringify(doc("bench")) });
await fetch(`${server.url}/admin/namespaces`, { method: "POST", headers: root, body: JSON.stringify({ name: "team" }) });
const mint = async (scope: string) =>
  ((await (await fetch(`${server.url}/admin/namespaces/team/keys`, { method: "POST", headers: root, body: JSON.stringify({ scope }) })).json()) as { key: string }).key;
const teamAdmin = await mint("admin");
const minted = { key: await mint("run") };
await fetch(`${server.url}/admin/scenarios/bench`, { method: "PUT", headers: { ...root, authorization: `Bearer ${teamAdmin}` }, body: JSON.stringify(doc("bench")) });

const body = JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "What is the weather in Paris?" }] });

async function run(key: string, seconds = Number(values.seconds)): Promise<{ rps: number; p50: number; p99: number }> {
  const result = await autocannon({
    url: `${server.url}/s/bench/load/v1/chat/completions`,
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body,
    connections: 10,
    duration: seconds,
  });
  if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx answers: ${JSON.stringify(result.statusCodeStats)}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

// Warm-up: both paths compiled before anything is measured.
await run("sk-plain", 2);
await run(minted.key, 2);
const plain: number[] = [];
const keyed: number[] = [];
for (let i = 0; i < Number(values.rounds); i++) {
  const p = await run("sk-plain");
  const k = await run(minted.key);
  plain.push(p.rps);
  keyed.push(k.rps);
  console.log(`round ${i + 1}: plain ${p.rps.toFixed(0)} req/s (p50 ${p.p50} ms, p99 ${p.p99} ms); namespace key ${k.rps.toFixed(0)} req/s (p50 ${k.p50} ms, p99 ${k.p99} ms)`);
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ratio = mean(keyed) / mean(plain);
const floor = runtime === "node" ? 0.9 : 0.85;
console.log(`${runtime}: namespace key ${(ratio * 100).toFixed(1)}% of the plain request's throughput (budget ≥ ${floor * 100}%)`);
await server.close();
process.exitCode = ratio >= floor ? 0 : 1;
