/**
 * The OpenTelemetry exporter's cost per request beside the engine budget (bench/engine.ts, ≤ 50 µs a turn): CPU µs
 * per request of `route()` on the Node runtime (as bench/handler.ts) for the bench's JSON turn and its unpaced
 * 200-word stream, without an exporter and with one (OTEL_EXPORTER_OTLP_ENDPOINT set, `fetch` answered at once in
 * process, so the figure is the mock's own work: the span, the queue, the batch's encoding, the POST's setup — not a
 * network); and the pieces: building a span, and encoding it in a batch of 512 as protobuf and as JSON.
 * Exits 1 when the exporter adds more than the engine's whole budget, 50 µs, to a request (either protocol).
 *   npx tsx bench/otel.ts [--requests 20000] [--rounds 3]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { CanonicalRequest } from "../src/canonical/request";
import { route } from "../src/router";
import { startServer, type RunningServer } from "../src/hosts/node/server";
import { decide } from "../src/scenario/engine";
import { ScenarioSchema } from "../src/scenario/schema";
import { exportBody, exporterOf, spanOf } from "../src/turn/otel";
import { JSON_BODY, JSON_HEADERS, paths, SCENARIOS, STREAM_BODY } from "./workload.mjs";

const { values } = parseArgs({ options: { requests: { type: "string", default: "20000" }, rounds: { type: "string", default: "3" } } });
const N = Number(values.requests);
const BUDGET_US = 50;

// The collector: every POST answered 200 at once, its body taken as sent (no socket, no parse).
let posts = 0;
globalThis.fetch = async () => {
  posts++;
  return new Response(null, { status: 200 });
};

const dir = mkdtempSync(join(tmpdir(), "mockllm-otel-"));
for (const doc of SCENARIOS) writeFileSync(join(dir, `${doc.name}.json`), JSON.stringify(doc));
const start = (vars: Record<string, string>) => startServer({ adminToken: "bench", scenarios: [dir], watch: false, vars: { DEFAULT_WORDS_PER_SECOND: "0", ...vars }, log: () => {} });
const servers: [string, RunningServer][] = [
  ["no exporter", await start({})],
  ["http/protobuf", await start({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector.invalid:4318" })],
  ["http/json", await start({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector.invalid:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })],
];
const p = paths("mockllm");

/** CPU µs per request of routing `body` on `server` and reading its answer, the exporter's waitUntil work included. */
async function cpu(server: RunningServer, path: string, body: string): Promise<number> {
  const pending: Promise<unknown>[] = [];
  const waitUntil = (q: Promise<unknown>) => void pending.push(q);
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const res = await route(new Request(`http://127.0.0.1${path}`, { method: "POST", headers: JSON_HEADERS, body }), server.runtime, { waitUntil });
    await res.text();
    // Let the exporter's flushes run as they would between requests (a batch each macrotask turn).
    if (i % 256 === 255) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending.splice(0));
  return process.cpuUsage(c0).user / N;
}

for (let round = 0; round < Number(values.rounds); round++) {
  const rows: string[] = [];
  for (const [label, path, body] of [
    ["JSON turn", p.json, JSON_BODY],
    ["200-word stream, unpaced", p.stream, STREAM_BODY],
  ] as const) {
    const cost = new Map<string, number>();
    for (const [name, server] of servers) cost.set(name, await cpu(server, path, body));
    const base = cost.get("no exporter")!;
    rows.push(`${label}: ${base.toFixed(1)} µs; exporter +${(cost.get("http/protobuf")! - base).toFixed(1)} µs (protobuf), +${(cost.get("http/json")! - base).toFixed(1)} µs (json)`);
    if (round === Number(values.rounds) - 1) {
      for (const proto of ["http/protobuf", "http/json"]) {
        const added = cost.get(proto)! - base;
        if (added > BUDGET_US) {
          console.error(`over budget: the exporter (${proto}) adds ${added.toFixed(1)} µs to a ${label} > ${BUDGET_US} µs`);
          process.exitCode = 1;
        }
      }
    }
  }
  console.log(`round ${round + 1}: ${rows.join("; ")}`);
}
console.log(`(${posts} POSTs made for ${Number(values.rounds) * 2 * 2 * N} spans)`);
for (const [, server] of servers) await server.close();
rmSync(dir, { recursive: true, force: true });

// The pieces, beside the engine's own turn.
const req: CanonicalRequest = {
  provider: "openai",
  endpoint: "chat.completions",
  model: "gpt-4o",
  stream: false,
  system: "",
  messages: [{ role: "user", text: "weather in Paris?" }],
  tools: [],
  reasoning: "disabled",
  headers: {},
};
const plain = ScenarioSchema.parse({ name: "b", steps: [{ consume: false, respond: { text: "ok" } }] });
const outcome = decide(plain, { used: [], attempts: {} }, req, { scenario: "b", session: "s" }).outcome;
function time(label: string, n: number, per: number, fn: () => unknown): void {
  for (let i = 0; i < Math.min(n, 200); i++) fn();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  console.log(`${label.padEnd(48)} ${(Number(process.hrtime.bigint() - t0) / 1000 / n / per).toFixed(2).padStart(8)} µs`);
}
const now = Date.now();
const TP = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
time("decide (the engine's turn)", N, 1, () => decide(plain, { used: [], attempts: {} }, req, { scenario: "b", session: "s" }));
time("spanOf (one span)", N, 1, () => spanOf(req, outcome, "response", TP, now, now + 3));
const batch = Array.from({ length: 512 }, () => spanOf(req, outcome, "response", TP, now, now + 3));
const proto = exporterOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })!;
const json = exporterOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })!;
time("a span's share of a 512-span protobuf body", Math.max(200, N / 50), 512, () => exportBody(proto, batch));
time("a span's share of a 512-span JSON body", Math.max(200, N / 50), 512, () => exportBody(json, batch));
console.log(`bodies of 512 spans: protobuf ${(exportBody(proto, batch) as Uint8Array).length} bytes, JSON ${(exportBody(json, batch) as string).length} bytes`);
