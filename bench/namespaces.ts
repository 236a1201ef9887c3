/**
 * What a namespace key costs on the Node runtime (issue 20): the same provider request (a scripted Chat Completions
 * turn, JSON) with an ordinary API key (`default` namespace) and with a namespace key, measured by autocannon in
 * alternating rounds against one in-process server. Budget: within 10% of the plain request.
 *   npx tsx bench/namespaces.ts [--seconds 5] [--rounds 2]
 */
import { parseArgs } from "node:util";
import { startServer } from "../src/runtime/node/server";

interface CannonResult {
  non2xx: number;
  statusCodeStats: unknown;
  requests: { average: number };
  latency: { p50: number; p99: number };
}
const cannonModule = "autocannon"; // untyped package: loaded by name
const autocannon = (await import(cannonModule)).default as (opts: Record<string, unknown>) => Promise<CannonResult>;

const { values } = parseArgs({ options: { seconds: { type: "string", default: "5" }, rounds: { type: "string", default: "2" } } });
const TOKEN = "bench-token";
const server = await startServer({ adminToken: TOKEN, vars: { DEFAULT_WORDS_PER_SECOND: "0" } });
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
console.log(`namespace key: ${(ratio * 100).toFixed(1)}% of the plain request's throughput (budget ≥ 90%)`);
await server.close();
process.exitCode = ratio >= 0.9 ? 0 : 1;
