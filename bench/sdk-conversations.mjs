// The SDK conversation workload shared by bench/compare.mjs, bench/sdk-rounds.mjs and bench/client-cost.mjs: two-turn
// tool conversations through the official `openai` client (a tool call, then the answer to its result), 10 at a time.
import OpenAI from "openai";

const TOOLS = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }];

/** An `openai` client for one target, without retries (a failure is a bench error, not something to hide). */
export function benchClient(baseURL) {
  return new OpenAI({ apiKey: "sk-bench", baseURL, maxRetries: 0 });
}

/**
 * `count` conversations, 10 at a time — and more until `seconds` have passed, when given (a round of a few hundred
 * conversations lasts a fifth of a second at this machine's rates, too short to read a rate from); each request's
 * latency (ms) goes to `latencies` when given.
 * @returns conversations per second
 */
export async function toolConversations(openai, count, latencies, seconds = 0, done = {}) {
  const timed = async (p) => {
    const t0 = performance.now();
    const out = await p;
    latencies?.push(performance.now() - t0);
    return out;
  };
  const one = async () => {
    const messages = [{ role: "user", content: "What is the weather in Paris?" }];
    const first = await timed(openai.chat.completions.create({ model: "gpt-4o", messages, tools: TOOLS }));
    const call = first.choices[0].message.tool_calls?.[0];
    if (!call) throw new Error("no tool call");
    const second = await timed(
      openai.chat.completions.create({
        model: "gpt-4o",
        tools: TOOLS,
        messages: [...messages, first.choices[0].message, { role: "tool", tool_call_id: call.id, content: "sunny" }],
      }),
    );
    if (!second.choices[0].message.content) throw new Error("no answer");
  };
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  let started = 0;
  const more = () => started < count || performance.now() < until;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (more()) {
        started++;
        await one();
      }
    }),
  );
  done.count = started;
  return started / ((performance.now() - t0) / 1000);
}

/**
 * The two requests one SDK conversation sends, as the installed `openai` client makes them (headers and bodies,
 * captured from one conversation against a local server answering as the floor does): for autocannon, which sends
 * them over and over without the client's own cost (bench/cpu-rows.mjs --load sdk).
 * @returns [{ headers, body }, { headers, body }] (without `host`, `connection` and `content-length`, which autocannon writes)
 */
export async function sdkRequests() {
  const { createServer } = await import("node:http");
  const { floorJsonAnswer } = await import("./floor-answers.mjs");
  const seen = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      const { host, connection, "content-length": _length, ...headers } = req.headers;
      seen.push({ headers, body });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(floorJsonAnswer(body));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await toolConversations(benchClient(`http://127.0.0.1:${server.address().port}/v1`), 1);
  } finally {
    server.close();
  }
  return seen;
}

/**
 * autocannon's options for replaying `requests` (sdkRequests) against a target's Chat Completions, `base` its SDK base
 * URL (bench/workload.mjs `paths(kind).toolsBase` after the server's URL); the caller adds connections and amount or
 * duration.
 * @example autocannon({ ...sdkReplay(url + paths(kind).toolsBase, requests), connections: 10, duration: 5 })
 */
export function sdkReplay(base, requests) {
  return { url: `${base}/chat/completions`, method: "POST", requests: requests.map((q) => ({ method: "POST", headers: q.headers, body: q.body })) };
}
