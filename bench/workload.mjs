// The scripted workload every bench target serves: the same answers for mockllm (as scenarios), the peer
// (as fixtures) and the floor (a fixed body). Imported by the server launchers and by bench/compare.ts.
export const JSON_BODY = JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "bench json" }] });
/** The headers the benches send a JSON or stream turn with (the bench key; the peer and the floor ignore it). */
export const JSON_HEADERS = { "content-type": "application/json", authorization: "Bearer sk-bench" };
/** The JSON turn as Gemini's generateContent (`--load gemini`): the same text, so the same scenario and fixture answer it. */
export const GEMINI_BODY = JSON.stringify({ contents: [{ role: "user", parts: [{ text: "bench json" }] }] });
/** The JSON turn on Anthropic's Messages API (bench/cpu-rows.mjs --load messages, with MESSAGES_HEADERS): the same scenario answers it. */
export const MESSAGES_BODY = JSON.stringify({ model: "claude-sonnet-4-6", max_tokens: 100, messages: [{ role: "user", content: "bench json" }] });
export const MESSAGES_HEADERS = { "content-type": "application/json", "x-api-key": "sk-ant-bench", "anthropic-version": "2023-06-01" };
/** The JSON turn on the Responses API (bench/cpu-rows.mjs --load responses): the same scenario answers it. */
export const RESPONSES_BODY = JSON.stringify({ model: "gpt-4o", input: "bench json" });
export const STREAM_BODY = JSON.stringify({ model: "gpt-4o", stream: true, messages: [{ role: "user", content: "bench stream" }] });
/**
 * A long agent conversation's request (bench/worker-cpu.mjs --load long): 121 messages — a user turn, then 40 rounds
 * of an assistant tool call, its tool result and a user follow-up — ~25 KB of JSON, answered by the same scenario as
 * JSON_BODY.
 */
export const LONG_BODY = JSON.stringify({
  model: "gpt-4o",
  tools: [{ type: "function", function: { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } } }],
  messages: [
    { role: "user", content: "bench long" },
    ...Array.from({ length: 40 }, (_, i) => [
      { role: "assistant", content: null, tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/file${i}.ts` }) } }] },
      { role: "tool", tool_call_id: `call_${i}`, content: `export const value${i} = ${i};\n`.repeat(12) },
      { role: "user", content: `Now look at file ${i + 1} and tell me what it exports, briefly.` },
    ]).flat(),
  ],
});
/**
 * The same agent conversation on Anthropic's Messages API (bench/worker-cpu.mjs --load long-messages): the user turn,
 * then 40 rounds of an assistant `tool_use` block and a user message of its `tool_result` and the follow-up's text —
 * 81 messages, 121 content blocks, ~25 KB of JSON, answered by the same scenario as JSON_BODY.
 */
export const LONG_MESSAGES_BODY = JSON.stringify({
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  tools: [{ name: "read_file", description: "Read a file", input_schema: { type: "object", properties: { path: { type: "string" } } } }],
  messages: [
    { role: "user", content: "bench long" },
    ...Array.from({ length: 40 }, (_, i) => [
      { role: "assistant", content: [{ type: "tool_use", id: `toolu_${i}`, name: "read_file", input: { path: `src/file${i}.ts` } }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: `toolu_${i}`, content: `export const value${i} = ${i};\n`.repeat(12) },
          { type: "text", text: `Now look at file ${i + 1} and tell me what it exports, briefly.` },
        ],
      },
    ]).flat(),
  ],
});
export const WORDS_200 = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
export const JSON_TEXT = "Hello from the bench.";
/** The burst workload (bench/burst.mjs): 100 words of 5 characters with their space ("w000 " … "w099"), so mockllm's
 * one word an event and the peer's 5 characters an event are the same 100 content events. */
export const WORDS_100 = Array.from({ length: 100 }, (_, i) => `w${String(i).padStart(3, "0")}`).join(" ");
export const BURST_BODY = JSON.stringify({ model: "gpt-4o", stream: true, messages: [{ role: "user", content: "bench burst" }] });
/** The burst's pacing: 200 ms to the first token, then 50 words a second (mockllm: word n is due at 200 + 20n ms). */
export const BURST_PACING = { ttftMs: 200, wordsPerSecond: 50 };

/** mockllm scenarios: reusable steps, so every request of a run is answered the same way. */
export const SCENARIOS = [
  { name: "bench", steps: [{ consume: false, respond: { text: JSON_TEXT } }] },
  // About as many events as the peer sends for the same text (its default: 20 characters an event, 78 events;
  // here 3 words an event, 68 events), so the stream row compares like with like.
  { name: "bench-stream", steps: [{ consume: false, respond: { text: WORDS_200, stream: { chunkWords: 3 } } }] },
  {
    name: "bench-burst",
    steps: [{ consume: false, respond: { text: WORDS_100, stream: { ttftMs: BURST_PACING.ttftMs, tokensPerSecond: BURST_PACING.wordsPerSecond, chunkWords: 1 } } }],
  },
  {
    name: "bench-tools",
    steps: [
      { consume: false, match: { toolResult: { name: "get_weather" } }, respond: { text: "It is sunny in Paris." } },
      { consume: false, respond: { toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Paris" } }] } },
    ],
  },
];

/** Sessions named by `freshSessionRequests`, counted over the whole process so no name comes twice in a run. */
let freshSessions = 0;

/**
 * autocannon's `requests` for `--load fresh` (bench/worker-cpu.mjs, bench/worker-profile.mjs): each request the JSON
 * turn of `path` (a mockllm path of session `b1`) on a session never used before (`/s/bench/fresh-{n}/…`), as a suite
 * that names a session per test sends them.
 */
export function freshSessionRequests(path) {
  return [{ setupRequest: (req) => ({ ...req, path: path.replace("/b1/", `/fresh-${freshSessions++}/`) }) }];
}

/** Paths per target kind: mockllm selects scenarios by prefix; the peer and the floor answer on the plain path. */
export function paths(kind) {
  const mock = kind.startsWith("mockllm");
  return {
    json: mock ? "/s/bench/b1/v1/chat/completions" : "/v1/chat/completions",
    gemini: mock ? "/s/bench/b1/v1beta/models/gemini-2.5-flash:generateContent" : "/v1beta/models/gemini-2.5-flash:generateContent",
    responses: mock ? "/s/bench/b1/v1/responses" : "/v1/responses",
    messages: mock ? "/s/bench/b1/v1/messages" : "/v1/messages",
    stream: mock ? "/s/bench-stream/b1/v1/chat/completions" : "/v1/chat/completions",
    toolsBase: mock ? "/s/bench-tools/b1/v1" : "/v1",
    burst: mock ? "/s/bench-burst/b1/v1/chat/completions" : "/v1/chat/completions",
  };
}

/** Uploads the scenarios to a mockllm instance. */
export async function uploadScenarios(url, token) {
  const res = await fetch(`${url}/admin/scenarios`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(SCENARIOS),
  });
  if (!res.ok) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
}

/** Namespace "bench" (no quotas) and an admin key in it, made with the root admin token: the key's secret. */
export async function namespaceKey(url, token) {
  const admin = (path, body) => fetch(`${url}/admin${path}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const made = await admin("/namespaces", { name: "bench" });
  if (made.status !== 201) throw new Error(`namespace: ${made.status} ${await made.text()}`);
  const minted = await admin("/namespaces/bench/keys", { scope: "admin" });
  if (minted.status !== 201) throw new Error(`key: ${minted.status} ${await minted.text()}`);
  return (await minted.json()).key;
}

/**
 * What a Worker bench sends for `load` (json, stream, long, long-messages, paced, fresh) to a target of `kind`: the
 * path, the body and the headers — the bench key as a Bearer token, or on long-messages as an Anthropic client sends
 * it (`x-api-key`, `anthropic-version`); `key` is a namespace's key where one is used.
 * @example const { path, body, headers } = loadRequest("long", "mockllm")
 */
export function loadRequest(load, kind, key = "sk-bench") {
  const p = paths(kind);
  if (load === "long-messages") return { path: p.messages, body: LONG_MESSAGES_BODY, headers: { "content-type": "application/json", "x-api-key": key, "anthropic-version": "2023-06-01" } };
  const headers = { ...JSON_HEADERS, authorization: `Bearer ${key}` };
  if (load === "stream") return { path: p.stream, body: STREAM_BODY, headers };
  if (load === "paced") return { path: p.burst, body: BURST_BODY, headers };
  return { path: p.json, body: load === "long" ? LONG_BODY : JSON_BODY, headers };
}
