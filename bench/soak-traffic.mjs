// The soak's mixed traffic (bench/soak.mjs): the scenarios it runs and one operation per kind of request, each
// checking what a client would (status, text, terminator) and saying whether its session's journal gains an entry.
import WebSocket from "ws";

export const TEXT = "Soak answer one two three four five six seven eight.";
export const NS_TEXT = "Namespace answer.";
const SLOW_WORDS = Array.from({ length: 40 }, (_, i) => `s${i}`).join(" ");
const LAST = "eight.";
const STREAM = { chunkWords: 2 };

/** The root namespace's scenario: the default turn, a scripted failure (one 429 per session, then the answer), a
 * paced stream for the client aborts, and an MCP server with one scripted call. */
export const SOAK_SCENARIO = {
  name: "soak",
  steps: [
    { id: "fail", consume: false, match: { lastUserMessage: "please fail" }, failures: [{ kind: "rate_limit" }], respond: { text: "Recovered." } },
    { id: "slow", consume: false, match: { lastUserMessage: "slow" }, respond: { text: SLOW_WORDS, stream: { tokensPerSecond: 100, chunkWords: 1 } } },
    { id: "hi", consume: false, respond: { text: TEXT, stream: STREAM } },
  ],
  mcp: {
    tools: [{ name: "get_weather", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } } } }],
    calls: [{ id: "weather", consume: false, match: { tool: "get_weather" }, result: { content: [{ type: "text", text: "18C in {{args.city}}" }] } }],
  },
};
/** The namespace's own scenario of the same name: a namespace key must get this one. */
export const NS_SCENARIO = { name: "soak", steps: [{ id: "ns", consume: false, respond: { text: NS_TEXT } }] };

const json = (extra = {}) => ({ "content-type": "application/json", ...extra });
const OPENAI = { authorization: "Bearer sk-soak" };
const ANTHROPIC = { "x-api-key": "sk-ant-soak", "anthropic-version": "2023-06-01" };
const GEMINI = { "x-goog-api-key": "soak" };
const SIGV4 = { authorization: "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=0" };
const BEDROCK_MODEL = encodeURIComponent("anthropic.claude-3-5-haiku-20241022-v1:0");
const user = (text) => [{ role: "user", content: text }];

class Unscripted extends Error {}
const fail = (what) => {
  throw new Unscripted(what);
};
const expectText = (got, want, what) => got === want || fail(`${what}: got ${JSON.stringify(got)?.slice(0, 120)}`);

async function post(base, path, body, headers, signal) {
  const res = await fetch(base + path, { method: "POST", headers: json(headers), body: JSON.stringify(body), signal });
  return res;
}
async function okJson(res, what) {
  const text = await res.text();
  if (res.status !== 200) fail(`${what}: ${res.status} ${text.slice(0, 160)}`);
  return JSON.parse(text);
}
async function okStream(res, what, ...needles) {
  const text = await res.text();
  if (res.status !== 200) fail(`${what}: ${res.status} ${text.slice(0, 160)}`);
  for (const n of needles) if (!text.includes(n)) fail(`${what}: no ${JSON.stringify(n)} in ${text.length} bytes`);
}

/**
 * Every operation: `(ctx) => Promise<journaled>`; ctx = { base, prefix (`/s/soak/{session}`), vu, session state }.
 * `journaled` is how many entries the session's journal gains (0 for what is not a model turn or tool call).
 */
export const OPERATIONS = {
  async openaiJson({ base, prefix }) {
    const body = await okJson(await post(base, `${prefix}/v1/chat/completions`, { model: "gpt-4o", messages: user("hello") }, OPENAI), "openai json");
    expectText(body.choices?.[0]?.message?.content, TEXT, "openai json");
    return 1;
  },
  async openaiStream({ base, prefix }) {
    await okStream(await post(base, `${prefix}/v1/chat/completions`, { model: "gpt-4o", stream: true, messages: user("hello") }, OPENAI), "openai stream", LAST, "[DONE]");
    return 1;
  },
  async anthropicJson({ base, prefix }) {
    const body = await okJson(await post(base, `${prefix}/v1/messages`, { model: "claude-sonnet-4-5", max_tokens: 100, messages: user("hello") }, ANTHROPIC), "anthropic json");
    expectText(body.content?.[0]?.text, TEXT, "anthropic json");
    return 1;
  },
  async anthropicStream({ base, prefix }) {
    const res = await post(base, `${prefix}/v1/messages`, { model: "claude-sonnet-4-5", max_tokens: 100, stream: true, messages: user("hello") }, ANTHROPIC);
    await okStream(res, "anthropic stream", LAST, "message_stop");
    return 1;
  },
  async geminiJson({ base, prefix }) {
    const res = await post(base, `${prefix}/v1beta/models/gemini-2.5-flash:generateContent`, { contents: [{ role: "user", parts: [{ text: "hello" }] }] }, GEMINI);
    const body = await okJson(res, "gemini json");
    expectText(body.candidates?.[0]?.content?.parts?.map((p) => p.text).join(""), TEXT, "gemini json");
    return 1;
  },
  async geminiStream({ base, prefix }) {
    const res = await post(base, `${prefix}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, { contents: [{ role: "user", parts: [{ text: "hello" }] }] }, GEMINI);
    await okStream(res, "gemini stream", LAST, "STOP");
    return 1;
  },
  async ollamaJson({ base, prefix }) {
    const body = await okJson(await post(base, `${prefix}/api/chat`, { model: "llama3.2", stream: false, messages: user("hello") }, {}), "ollama json");
    expectText(body.message?.content, TEXT, "ollama json");
    return 1;
  },
  async ollamaStream({ base, prefix }) {
    await okStream(await post(base, `${prefix}/api/chat`, { model: "llama3.2", messages: user("hello") }, {}), "ollama stream", LAST, '"done":true');
    return 1;
  },
  async bedrockStream({ base, prefix }) {
    const res = await post(base, `${prefix}/model/${BEDROCK_MODEL}/converse-stream`, { messages: [{ role: "user", content: [{ text: "hello" }] }] }, SIGV4);
    if (res.headers.get("content-type") !== "application/vnd.amazon.eventstream") fail(`bedrock stream: content-type ${res.headers.get("content-type")}`);
    await okStream(res, "bedrock stream", "contentBlockDelta", "messageStop", "metadata");
    return 1;
  },
  /** A scripted failure: the session's first "please fail" is a 429 in OpenAI's shape, every later one the answer. */
  async scriptedFailure({ base, prefix, state }) {
    const res = await post(base, `${prefix}/v1/chat/completions`, { model: "gpt-4o", messages: user("please fail") }, OPENAI);
    const text = await res.text();
    const want = state.failed ? 200 : 429;
    state.failed = true;
    if (res.status !== want) fail(`scripted failure: ${res.status} (expected ${want}) ${text.slice(0, 160)}`);
    if (want === 429 && JSON.parse(text).error?.type !== "rate_limit_exceeded" && JSON.parse(text).error?.code !== "rate_limit_exceeded") fail(`scripted failure: ${text.slice(0, 160)}`);
    return 1;
  },
  /** A client that goes away mid-stream: the paced stream is dropped after its first bytes. */
  async clientAbort({ base, prefix }) {
    const ctl = new AbortController();
    const res = await post(base, `${prefix}/v1/chat/completions`, { model: "gpt-4o", stream: true, messages: user("slow") }, OPENAI, ctl.signal);
    if (res.status !== 200) fail(`client abort: ${res.status}`);
    const reader = res.body.getReader();
    await reader.read();
    ctl.abort();
    await reader.cancel().catch(() => {});
    return 1;
  },
  async mcpCall({ base, prefix, state }) {
    const headers = { accept: "application/json, text/event-stream" };
    if (!state.mcp) {
      const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "soak", version: "1" } } };
      const res = await post(base, `${prefix}/mcp`, init, headers);
      await okJson(res, "mcp initialize");
      state.mcp = res.headers.get("mcp-session-id") ?? fail("mcp initialize: no mcp-session-id");
    }
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_weather", arguments: { city: "Paris" } } };
    const body = await okJson(await post(base, `${prefix}/mcp`, call, { ...headers, "mcp-session-id": state.mcp, "mcp-protocol-version": "2025-06-18" }), "mcp call");
    expectText(body.result?.content?.[0]?.text, "18C in Paris", "mcp call");
    return 1;
  },
  /** A namespace key on the same path: the namespace's own scenario answers, journaled in the namespace. */
  async namespaceKey({ base, prefix, nsKey }) {
    const body = await okJson(await post(base, `${prefix}/v1/chat/completions`, { model: "gpt-4o", messages: user("hello") }, { authorization: `Bearer ${nsKey}` }), "namespace key");
    expectText(body.choices?.[0]?.message?.content, NS_TEXT, "namespace key");
    return 0; // journaled in the namespace's session, counted there (`nsJournaled`)
  },
  /** A Responses WebSocket turn, on a socket the virtual user keeps open for its session. */
  async responsesSocket({ base, prefix, state }) {
    state.socket ??= await openSocket(`${base.replace(/^http/, "ws")}${prefix}/v1/responses`);
    const events = await state.socket.turn({ type: "response.create", model: "gpt-4.1", input: "hello" });
    const done = events.at(-1);
    if (done?.type !== "response.completed") fail(`responses socket: ended with ${JSON.stringify(done)?.slice(0, 160)}`);
    const text = events
      .filter((e) => e.type === "response.output_text.delta")
      .map((e) => e.delta)
      .join("");
    expectText(text, TEXT, "responses socket");
    return 1;
  },
};

/** A `ws` socket whose `turn(message)` resolves with the events up to the response's end (completed, failed or error). */
function openSocket(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: OPENAI });
    let events = [];
    let pending;
    ws.on("message", (data) => {
      const e = JSON.parse(String(data));
      events.push(e);
      if (["response.completed", "response.failed", "response.incomplete", "error"].includes(e.type)) pending?.resolve(events);
    });
    ws.on("close", (code) => pending?.reject(new Unscripted(`responses socket closed ${code} mid-turn`)));
    ws.once("open", () =>
      resolve({
        turn(message) {
          events = [];
          return new Promise((res, rej) => {
            pending = { resolve: res, reject: rej };
            ws.send(JSON.stringify(message));
          }).finally(() => (pending = undefined));
        },
        close: () => ws.close(),
      }),
    );
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(new Unscripted(`responses socket refused: ${res.statusCode}`)));
  });
}

export { Unscripted };
