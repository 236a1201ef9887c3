// Bedrock Runtime and Vertex AI surfaces on the wire (issue 22): paths, the AWS event stream byte for byte through
// our own decoder, typed errors, and the Vertex publisher paths reusing the Gemini and Anthropic renderers.
import { describe, expect, it } from "vitest";
import { decodeMessages } from "../../src/http/eventstream";
import { admin, call, upload } from "./helpers";

const SIGV4 = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=0";
const MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0";
const enc = encodeURIComponent(MODEL);

const scenario = {
  name: "cl-main",
  steps: [
    { id: "hi", match: { lastUserMessage: "hello" }, respond: { text: "Hi there friend", usage: { inputTokens: 7, outputTokens: 3 } } },
    { id: "tool", match: { lastUserMessage: "weather" }, respond: { toolCalls: [{ id: "tooluse_fixed", name: "get_weather", arguments: { city: "Paris" } }] } },
    { id: "after", match: { toolResult: { content: "18C" } }, respond: { text: "It is 18C." } },
    { id: "throttled", match: { lastUserMessage: "throttle" }, failures: [{ kind: "rate_limit" }], respond: { text: "ok now" } },
    {
      id: "cut",
      match: { lastUserMessage: "cut" },
      failures: [{ kind: "stream_error", afterChunks: 2, errorType: "throttlingException", message: "slow down" }],
      respond: { text: "one two three four" },
    },
    { id: "cut2", match: { lastUserMessage: "cut2" }, failures: [{ kind: "stream_error", afterChunks: 1 }], respond: { text: "a b c" } },
    { id: "not-ready", match: { lastUserMessage: "424" }, failures: [{ kind: "http", status: 424, body: { message: "model failed" } }], respond: { text: "x" } },
    { id: "think", match: { lastUserMessage: "think" }, respond: { reasoning: "Let me see.", text: "Done." } },
    { id: "garbled", match: { lastUserMessage: "garbled" }, failures: [{ kind: "invalid_response", afterChunks: 2 }], respond: { text: "x y z" } },
    { id: "broken", match: { lastUserMessage: "broken" }, failures: [{ kind: "network_error", afterChunks: 2 }], respond: { text: "x y z" } },
    { id: "paced", match: { lastUserMessage: "paced" }, respond: { text: "one two three", stream: { ttftMs: 5, chunkDelayMs: 5 } } },
  ],
};

function bedrock(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, { method: "POST", headers: { authorization: SIGV4, "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

const converse = (text: string, extra: Record<string, unknown> = {}) => ({ messages: [{ role: "user", content: [{ text }] }], ...extra });

async function frames(res: Response) {
  const bytes = new Uint8Array(await res.arrayBuffer());
  return decodeMessages(bytes).map((m) => ({
    type: m.headers[":message-type"]?.value,
    name: (m.headers[":event-type"] ?? m.headers[":exception-type"])?.value,
    contentType: m.headers[":content-type"]?.value,
    payload: JSON.parse(new TextDecoder().decode(m.body)) as Record<string, unknown>,
  }));
}

describe("Bedrock Converse", () => {
  it("answers JSON with output.message, stopReason, usage and metrics, on a percent-encoded model id", async () => {
    await upload(scenario);
    const res = await bedrock(`/s/cl-main/c1/model/${enc}/converse`, converse("hello", { system: [{ text: "Be brief." }], inferenceConfig: { maxTokens: 50 } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-amzn-requestid")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await res.json()).toStrictEqual({
      output: { message: { role: "assistant", content: [{ text: "Hi there friend" }] } },
      stopReason: "end_turn",
      usage: { cacheReadInputTokens: 0, cacheWriteInputTokens: 0, inputTokens: 7, outputTokens: 3, serverToolUsage: {}, totalTokens: 10 },
      metrics: { latencyMs: 0 },
    });
    const journal = await admin("/sessions/cl-main/c1/requests");
    const entries = (await journal.json()) as { provider: string; endpoint: string; step: string; request: { path: string }; canonical: { model: string } }[];
    expect(entries.map((e) => [e.provider, e.endpoint, e.step, e.request.path, e.canonical.model])).toStrictEqual([["bedrock", "converse", "hi", `/model/${enc}/converse`, MODEL]]);
  });

  it("streams event-stream frames: bare payloads, no wrapper, no type field", async () => {
    const res = await bedrock(`/model/${enc}/converse-stream`, converse("hello"), { "x-mock-scenario": "cl-main", "x-mock-session": "c2" });
    expect(res.headers.get("content-type")).toBe("application/vnd.amazon.eventstream");
    const got = await frames(res);
    expect(got.every((f) => f.type === "event" && f.contentType === "application/json")).toBe(true);
    // Keys in the service's order, as in live captures.
    expect(JSON.stringify(got[1]!.payload)).toBe('{"contentBlockIndex":0,"delta":{"text":"Hi"}}');
    expect(got.map((f) => [f.name, f.payload])).toStrictEqual([
      ["messageStart", { role: "assistant" }],
      ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hi" } }],
      ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: " there" } }],
      ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: " friend" } }],
      ["contentBlockStop", { contentBlockIndex: 0 }],
      ["messageStop", { additionalModelResponseFields: { delta: { stop_sequence: null } }, stopReason: "end_turn" }],
      ["metadata", { metrics: { latencyMs: 0 }, usage: { inputTokens: 7, outputTokens: 3, serverToolUsage: {}, totalTokens: 10 } }],
    ]);
  });

  it("a tool loop: toolUse with partial-JSON input deltas, then the toolResult answered", async () => {
    const res = await bedrock(`/s/cl-main/c3/model/${enc}/converse-stream`, converse("weather", { toolConfig: { tools: [{ toolSpec: { name: "get_weather", inputSchema: { json: {} } } }] } }));
    const got = await frames(res);
    expect(got[1]).toMatchObject({ name: "contentBlockStart", payload: { start: { toolUse: { toolUseId: "tooluse_fixed", name: "get_weather" } }, contentBlockIndex: 0 } });
    const input = got
      .filter((f) => f.name === "contentBlockDelta")
      .map((f) => (f.payload.delta as { toolUse: { input: string } }).toolUse.input)
      .join("");
    expect(JSON.parse(input)).toStrictEqual({ city: "Paris" });
    expect(got.at(-2)).toMatchObject({ name: "messageStop", payload: { stopReason: "tool_use" } });
    const second = await bedrock(`/s/cl-main/c3/model/${enc}/converse`, {
      messages: [
        { role: "user", content: [{ text: "weather" }] },
        { role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_fixed", name: "get_weather", input: { city: "Paris" } } }] },
        { role: "user", content: [{ toolResult: { toolUseId: "tooluse_fixed", content: [{ text: "18C" }], status: "success" } }] },
      ],
    });
    expect(((await second.json()) as { output: unknown }).output).toStrictEqual({ message: { role: "assistant", content: [{ text: "It is 18C." }] } });
  });

  it("reasoning comes as reasoningContent, signed", async () => {
    const res = await bedrock(`/s/cl-main/c4/model/${enc}/converse`, converse("think"));
    const body = (await res.json()) as { output: { message: { content: Record<string, { reasoningText: { text: string; signature: string } }>[] } } };
    expect(body.output.message.content[0]!.reasoningContent!.reasoningText.text).toBe("Let me see.");
    expect(body.output.message.content[0]!.reasoningContent!.reasoningText.signature.length).toBeGreaterThan(10);
    expect(body.output.message.content[1]).toStrictEqual({ text: "Done." });
  });

  it("typed errors: 429 ThrottlingException, 424 for a scripted status, 400 ValidationException, 403 without auth", async () => {
    const throttled = await bedrock(`/s/cl-main/c5/model/${enc}/converse`, converse("throttle"));
    expect([throttled.status, throttled.headers.get("x-amzn-errortype"), await throttled.json()]).toStrictEqual([
      429,
      "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/",
      { message: "Too many requests, please wait before trying again." },
    ]);
    expect((await bedrock(`/s/cl-main/c5/model/${enc}/converse`, converse("throttle"))).status).toBe(200);
    const scripted = await bedrock(`/s/cl-main/c5/model/${enc}/converse`, converse("424"));
    expect([scripted.status, scripted.headers.get("x-amzn-errortype")?.split(":")[0]]).toStrictEqual([424, "ModelErrorException"]);
    const invalid = await bedrock(`/model/${enc}/converse`, { system: [] });
    expect([invalid.status, invalid.headers.get("x-amzn-errortype")?.split(":")[0], await invalid.json()]).toStrictEqual([
      400,
      "ValidationException",
      { message: "1 validation error detected: Value at 'messages' failed to satisfy constraint: Member must not be null" },
    ]);
    const anonymous = await call(`/model/${enc}/converse`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(converse("hello")) });
    expect([anonymous.status, anonymous.headers.get("x-amzn-errortype")?.split(":")[0]]).toStrictEqual([403, "MissingAuthenticationTokenException"]);
    const bearer = await bedrock(`/model/${enc}/converse`, converse("hello"), { authorization: "Bearer ABSKbedrockapikey" });
    expect(bearer.status).toBe(200);
    for (const path of [`/model/${enc}/converse-later`, `/s/cl-main/model/${enc}/converse-later`]) {
      const unknown = await bedrock(path, converse("hello"));
      expect([unknown.status, unknown.headers.get("x-amzn-errortype")?.split(":")[0]]).toStrictEqual([404, "ResourceNotFoundException"]);
    }
    const get = await call(`/model/${enc}/converse`, { headers: { authorization: SIGV4 } });
    expect([get.status, get.headers.get("x-amzn-errortype")?.split(":")[0]]).toStrictEqual([405, "UnknownOperationException"]);
  });

  it("mid-stream failures are exception frames", async () => {
    const got = await frames(await bedrock(`/s/cl-main/c6/model/${enc}/converse-stream`, converse("cut")));
    expect(got.map((f) => [f.type, f.name])).toStrictEqual([
      ["event", "messageStart"],
      ["event", "contentBlockDelta"],
      ["exception", "throttlingException"],
    ]);
    expect(got.at(-1)!.payload).toStrictEqual({ message: "slow down" });
    const other = await frames(await bedrock(`/s/cl-main/c6/model/${enc}/converse-stream`, converse("cut2")));
    expect(other.at(-1)).toMatchObject({ type: "exception", name: "modelStreamErrorException" });
  });
});

describe("Bedrock stream failures and pacing", () => {
  it("invalid_response ends with a frame whose CRC is wrong; network_error breaks off after whole frames", async () => {
    const garbled = new Uint8Array(await (await bedrock(`/s/cl-main/f1/model/${enc}/converse-stream`, converse("garbled"))).arrayBuffer());
    expect(() => decodeMessages(garbled)).toThrow(/message CRC mismatch/);
    const first = garbled.subarray(0, new DataView(garbled.buffer, garbled.byteOffset).getUint32(0));
    expect(decodeMessages(first).map((m) => m.headers[":event-type"]?.value)).toEqual(["messageStart"]);
    const broken = await bedrock(`/s/cl-main/f2/model/${enc}/converse-stream`, converse("broken"));
    const received: Uint8Array[] = [];
    const reader = broken.body!.getReader();
    const err = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        received.push(value);
      }
    })().catch((e: unknown) => e);
    expect(err).toBeDefined();
    const bytes = new Uint8Array(received.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of received) {
      bytes.set(c, at);
      at += c.length;
    }
    expect(decodeMessages(bytes).map((m) => m.headers[":event-type"]?.value)).toEqual(["messageStart", "contentBlockDelta"]);
  });

  it("a paced stream writes the same frames one by one", async () => {
    const got = await frames(await bedrock(`/s/cl-main/f3/model/${enc}/converse-stream`, converse("paced")));
    expect(got.filter((f) => f.name === "contentBlockDelta").map((f) => (f.payload.delta as { text: string }).text)).toEqual(["one", " two", " three"]);
    expect(got.at(-1)!.name).toBe("metadata");
  });
});

describe("Bedrock InvokeModel (Anthropic body)", () => {
  const messages = (text: string) => ({ anthropic_version: "bedrock-2023-05-31", max_tokens: 100, messages: [{ role: "user", content: text }] });

  it("answers the Messages body and streams chunk events of base64 Messages events", async () => {
    const json = await bedrock(`/s/cl-main/i1/model/${enc}/invoke`, messages("hello"));
    expect(await json.json()).toMatchObject({ type: "message", role: "assistant", model: MODEL, content: [{ type: "text", text: "Hi there friend" }], stop_reason: "end_turn" });
    const got = await frames(await bedrock(`/s/cl-main/i2/model/${enc}/invoke-with-response-stream`, messages("hello")));
    expect(got.every((f) => f.name === "chunk" && Object.keys(f.payload).join() === "bytes")).toBe(true);
    const events = got.map((f) => JSON.parse(atob(f.payload.bytes as string)) as { type: string });
    expect(events.map((e) => e.type)).toStrictEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events.at(-1)).toStrictEqual({
      type: "message_stop",
      "amazon-bedrock-invocationMetrics": { inputTokenCount: 7, outputTokenCount: 3, invocationLatency: 0, firstByteLatency: 0 },
    });
  });

  it("needs anthropic_version in the body", async () => {
    const res = await bedrock(`/model/${enc}/invoke`, { max_tokens: 10, messages: [{ role: "user", content: "hello" }] });
    expect([res.status, res.headers.get("x-amzn-errortype")?.split(":")[0]]).toStrictEqual([400, "ValidationException"]);
    expect(((await res.json()) as { message: string }).message).toMatch(/^Malformed input request: #: required key \[anthropic_version\] not found/);
  });
});

describe("Vertex AI", () => {
  const gemini = { contents: [{ role: "user", parts: [{ text: "hello" }] }] };
  const google = "/v1/projects/my-proj/locations/us-central1/publishers/google/models/gemini-2.5-flash";
  const anthropic = "/v1/projects/my-proj/locations/us-east5/publishers/anthropic/models";
  const post = (path: string, body: unknown, headers: Record<string, string> = { authorization: "Bearer ya29.fake" }) =>
    call(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  it("Gemini: generateContent, streamGenerateContent?alt=sse, express mode with an API key, v1beta1", async () => {
    const json = await post(`/s/cl-main/v1${google.slice(3)}:generateContent`, gemini);
    expect(((await json.json()) as { candidates: { content: unknown }[] }).candidates[0]!.content).toStrictEqual({ role: "model", parts: [{ text: "Hi there friend" }] });
    const sse = await post(`/s/cl-main/v2${google.replace("/v1/", "/v1beta1/")}:streamGenerateContent?alt=sse`, gemini);
    expect(sse.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const texts = (await sse.text())
      .split("\n\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)).candidates[0].content.parts[0].text);
    expect(texts.join("")).toBe("Hi there friend");
    const express = await post("/s/cl-main/v3/v1/publishers/google/models/gemini-2.5-flash:generateContent", gemini, { "x-goog-api-key": "AQ.fake" });
    expect(express.status).toBe(200);
    const journal = await admin("/sessions/cl-main/v3/requests");
    expect(((await journal.json()) as { provider: string; canonical: { model: string } }[]).map((e) => [e.provider, e.canonical.model])).toStrictEqual([["vertex", "gemini-2.5-flash"]]);
  });

  it("Gemini: 401 UNAUTHENTICATED in Google's shape without credentials", async () => {
    const res = await post(`${google}:generateContent`, gemini, {});
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe("UNAUTHENTICATED");
  });

  it("Claude: rawPredict, streamRawPredict, count-tokens:rawPredict; Anthropic error shape", async () => {
    const body = { anthropic_version: "vertex-2023-10-16", max_tokens: 50, messages: [{ role: "user", content: "hello" }] };
    const raw = await post(`/s/cl-main/v4${anthropic}/claude-sonnet-4%4020250514:rawPredict`, body);
    expect(await raw.json()).toMatchObject({ type: "message", model: "claude-sonnet-4@20250514", content: [{ type: "text", text: "Hi there friend" }] });
    const stream = await post(`/s/cl-main/v5${anthropic}/claude-sonnet-4@20250514:streamRawPredict`, { ...body, stream: true });
    const names = (await stream.text())
      .split("\n")
      .filter((l) => l.startsWith("event: "))
      .map((l) => l.slice(7));
    expect(names[0]).toBe("message_start");
    expect(names.at(-1)).toBe("message_stop");
    const count = await post(`/s/cl-main${anthropic}/count-tokens:rawPredict`, {
      anthropic_version: "vertex-2023-10-16",
      model: "claude-sonnet-4@20250514",
      messages: [{ role: "user", content: "Hello, world" }],
    });
    expect([count.status, await count.json()]).toStrictEqual([200, { input_tokens: 3 }]);
    const throttled = await post(`/s/cl-main/v6${anthropic}/claude-sonnet-4@20250514:rawPredict`, { ...body, messages: [{ role: "user", content: "throttle" }] });
    expect([throttled.status, ((await throttled.json()) as { error: { type: string } }).error.type]).toStrictEqual([429, "rate_limit_error"]);
    const noVersion = await post(`${anthropic}/claude-sonnet-4@20250514:rawPredict`, { max_tokens: 5, messages: [{ role: "user", content: "hello" }] });
    expect([noVersion.status, ((await noVersion.json()) as { error: { type: string } }).error.type]).toStrictEqual([400, "invalid_request_error"]);
  });
});
