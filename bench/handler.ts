/**
 * What one request costs the shared request path in process, without sockets: CPU µs per request of `route()` on the
 * Node runtime's stores, for the bench's JSON turn and for the burst's paced stream up to its first byte (the stream
 * handed to the runtime, nothing written), and for the bench's unpaced 200-word stream read whole. Not a test: timings depend on the machine; CPU time, so a busy machine
 * moves it less than wall time.
 *   npx tsx bench/handler.ts [--requests 20000] [--rounds 3]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PlannedResponse } from "../src/http/planned";
import { route } from "../src/router";
import { startServer } from "../src/hosts/node/server";
import { BURST_BODY, JSON_BODY, JSON_HEADERS, paths, SCENARIOS, STREAM_BODY } from "./workload.mjs";

const { values } = parseArgs({ options: { requests: { type: "string", default: "20000" }, rounds: { type: "string", default: "3" } } });
const N = Number(values.requests);
const dir = mkdtempSync(join(tmpdir(), "mockllm-handler-"));
for (const doc of SCENARIOS) writeFileSync(join(dir, `${doc.name}.json`), JSON.stringify(doc));
const server = await startServer({ adminToken: "bench", scenarios: [dir], watch: false, vars: { DEFAULT_WORDS_PER_SECOND: "0" }, log: () => {} });
const p = paths("mockllm");

/** CPU µs per request: building the Request (`base`) and, unless `base`, routing it. */
async function cpu(path: string, body: string, base: boolean): Promise<number> {
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const request = new Request(`http://127.0.0.1${path}`, { method: "POST", headers: JSON_HEADERS, body });
    if (base) continue;
    const res = await route(request, server.runtime, { waitUntil: () => {}, playsPlans: true });
    if (!(res instanceof PlannedResponse)) await res.text();
  }
  return process.cpuUsage(c0).user / N;
}

for (let round = 0; round < Number(values.rounds); round++) {
  const row: string[] = [];
  for (const [label, path, body] of [
    ["JSON turn", p.json, JSON_BODY],
    ["200-word stream, unpaced, whole body", p.stream, STREAM_BODY],
    ["paced stream to its first byte", p.burst, BURST_BODY],
  ] as const) {
    const base = await cpu(path, body, true);
    row.push(`${label} ${((await cpu(path, body, false)) - base).toFixed(1)} µs`);
  }
  console.log(`round ${round + 1}: ${row.join("; ")}`);
}
await server.close();
rmSync(dir, { recursive: true, force: true });
