/**
 * Time to first token through the Worker (wrangler's local runtime), against the scripted `ttftMs`.
 * Not a test: timings depend on the machine.
 *   npx tsx bench/ttft.ts [--runs 30] [--ttft 200] [--runtime workers|node]
 * For each provider route, `runs` streamed requests (after a warm-up) measure the time from sending the request
 * to the first content event, for `ttftMs: 0` (the floor: network and processing) and `ttftMs: <ttft>`.
 * "offset" = measured − ttftMs; the schedule counts from the request's arrival, so with `ttftMs` larger than the
 * processing time the offset is only network and the client's own parsing.
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { unstable_startWorker } from "wrangler";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "30" }, ttft: { type: "string", default: "200" }, runtime: { type: "string", default: "workers" } },
});
const RUNS = Number(values.runs);
const TTFT = Number(values.ttft);
const TOKEN = "bench-admin-token";

Object.assign(process.env, { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_HIDE_BANNER: "true" });

/** Starts the mock: the Worker in wrangler's local runtime, or (`--runtime node`) the Node runtime in this process. */
async function startMock(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (values.runtime === "node") {
    const { startServer } = await import("../src/hosts/node/server");
    const server = await startServer({ adminToken: TOKEN, log: () => {} });
    return { url: server.url, stop: () => server.close() };
  }
  const worker = await unstable_startWorker({
    config: fileURLToPath(new URL("../wrangler.toml", import.meta.url)),
    bindings: { ADMIN_TOKEN: { type: "plain_text", value: TOKEN } },
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, persist: false, logLevel: "none" },
  } as Parameters<typeof unstable_startWorker>[0]);
  await worker.ready;
  return { url: (await worker.url).origin, stop: () => worker.dispose() };
}

interface Route {
  name: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** True for the chunk that carries the first content word. */
  isContent: (text: string) => boolean;
}

const messages = [{ role: "user", content: "hi" }];
const ROUTES: Route[] = [
  { name: "openai chat", path: "/v1/chat/completions", headers: { authorization: "Bearer sk" }, body: { model: "m", messages, stream: true }, isContent: (t) => t.includes('"content":"alpha') },
  {
    name: "anthropic",
    path: "/v1/messages",
    headers: { "x-api-key": "k", "anthropic-version": "2023-06-01" },
    body: { model: "m", max_tokens: 50, messages, stream: true },
    isContent: (t) => t.includes("text_delta"),
  },
  {
    name: "gemini",
    path: "/v1beta/models/m:streamGenerateContent?alt=sse",
    headers: { "x-goog-api-key": "k" },
    body: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
    isContent: (t) => t.includes("alpha"),
  },
  { name: "ollama", path: "/api/chat", headers: {}, body: { model: "m", messages, stream: true }, isContent: (t) => t.includes("alpha") },
];

/** ms from sending to the first content event. */
async function firstToken(url: string, route: Route): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}${route.path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...route.headers },
    body: JSON.stringify(route.body),
  });
  if (res.status !== 200 || !res.body) throw new Error(`${route.name}: status ${res.status}: ${await res.text()}`);
  const decoder = new TextDecoder();
  let seen = "";
  let at: number | undefined;
  for await (const chunk of res.body) {
    seen += decoder.decode(chunk, { stream: true });
    if (at === undefined && route.isContent(seen)) at = performance.now() - t0;
  }
  if (at === undefined) throw new Error(`${route.name}: no content event in ${seen.slice(0, 300)}`);
  return at;
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { min: s[0]!, p50: q(0.5), p90: q(0.9), max: s.at(-1)! };
}

const mock = await startMock();
try {
  const scenario = (name: string, ttftMs: number) => ({
    name,
    steps: [{ consume: false, respond: { text: "alpha beta gamma", stream: { ttftMs, chunkWords: 1 } } }],
  });
  const up = await fetch(`${mock.url}/admin/scenarios`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify([scenario("ttft-0", 0), scenario("ttft-n", TTFT)]),
  });
  if (!up.ok) throw new Error(`upload: ${up.status} ${await up.text()}`);
  console.log(`TTFT through ${values.runtime === "node" ? "the Node runtime" : "wrangler's local Worker runtime"}, ${RUNS} runs each (ms; offset = measured − ttftMs)`);
  console.log(`${"route".padEnd(12)} ${"ttftMs".padStart(6)}  ${"min".padStart(6)} ${"p50".padStart(6)} ${"p90".padStart(6)} ${"max".padStart(6)}`);
  for (const route of ROUTES) {
    for (const [name, ttftMs] of [
      ["ttft-0", 0],
      ["ttft-n", TTFT],
    ] as const) {
      const target = { ...route, path: `/s/${name}/bench${route.path}` };
      for (let i = 0; i < 3; i++) await firstToken(mock.url, target); // warm-up
      const offsets: number[] = [];
      for (let i = 0; i < RUNS; i++) offsets.push((await firstToken(mock.url, target)) - ttftMs);
      const s = stats(offsets);
      const cells = [s.min, s.p50, s.p90, s.max].map((v) => v.toFixed(1).padStart(6)).join(" ");
      console.log(`${route.name.padEnd(12)} ${String(ttftMs).padStart(6)}  ${cells}`);
    }
  }
} finally {
  await mock.stop();
}
