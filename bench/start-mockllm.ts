/**
 * How long startMockLLM takes, phase by phase. Not a test: timings depend on the machine.
 *   npx tsx bench/start-mockllm.ts [--parallel 3] [--dist]
 * --dist  = measure the built package (`npm run build`): the prebuilt Worker under Miniflare, as installed users
 *           get it; without it, the source path, which imports wrangler and bundles the Worker on every start
 * cold    = first start in a fresh process (includes importing wrangler or miniflare)
 * warm    = a second start in the same process
 * first   = the first chat completion after start
 * parallel= N instances started at once (what parallel test files do)
 */
import { parseArgs } from "node:util";
import type { MockLLM } from "../src/client/index";

const { values } = parseArgs({ options: { parallel: { type: "string", default: "3" }, dist: { type: "boolean", default: false } } });
const parallel = Number(values.parallel);
const { scenario, startMockLLM } = (values.dist ? await import(new URL("../dist/client/index.js", import.meta.url).href) : await import("../src/client/index")) as typeof import("../src/client/index");
const hello = scenario("hello").step((s) => s.text("Hi").consume(false));

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, Math.round(performance.now() - t0)];
}

async function firstRequest(mock: MockLLM): Promise<number> {
  const [, ms] = await timed(async () => {
    const res = await fetch(`${mock.openaiBaseURL("hello")}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-bench", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
    });
    if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
    await res.text();
  });
  return ms;
}

const rows: [string, number][] = [];
const [cold, coldMs] = await timed(() => startMockLLM({ scenarios: [hello] }));
rows.push([`cold start (${values.dist ? "dist, miniflare" : "source, wrangler"})`, coldMs], ["first request", await firstRequest(cold)]);
const [, stopMs] = await timed(() => cold.stop());
rows.push(["stop", stopMs]);

const [warm, warmMs] = await timed(() => startMockLLM({ scenarios: [hello] }));
rows.push(["warm start", warmMs], ["first request", await firstRequest(warm)]);
await warm.stop();

const [many, manyMs] = await timed(() => Promise.all(Array.from({ length: parallel }, () => startMockLLM({ scenarios: [hello] }))));
rows.push([`${parallel} in parallel (all ready)`, manyMs]);
await Promise.all(many.map((m) => m.stop()));

for (const [label, ms] of rows) console.log(`${label.padEnd(36)} ${String(ms).padStart(6)} ms`);
