/**
 * The official `@google/genai` SDK against the Worker on a random port: generateContent end to end.
 */
import { ApiError, GoogleGenAI, type Content, type GenerateContentResponse } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const MODEL = "gemini-2.5-flash";

const weatherTool = {
  functionDeclarations: [
    {
      name: "get_weather",
      description: "Current weather",
      parametersJsonSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
};

const SCENARIOS = [
  {
    name: "g-hello",
    steps: [
      {
        match: { provider: "gemini", endpoint: "generateContent", model: MODEL, stream: false },
        expect: { temperature: 0.2, topP: 0.9, maxTokens: 256, systemPromptMustInclude: ["Be brief."] },
        respond: {
          text: "Hello from the script.",
          model: "gemini-2.5-flash-001",
          usage: { inputTokens: 12, outputTokens: 5, cacheReadTokens: 3 },
        },
      },
    ],
  },
  { name: "g-stream", steps: [{ match: { stream: true }, respond: { text: "One two three four five.", stream: { chunkWords: 2 } } }] },
  {
    name: "g-tools",
    steps: [
      {
        id: "ask",
        match: { turn: 1, tools: ["get_weather"] },
        respond: { text: "Let me check.", toolCalls: [{ name: "get_weather", arguments: { city: "Paris", detail: { hourly: true } } }] },
      },
      {
        id: "answer",
        match: { turn: 2, toolResult: { name: "get_weather", toolCallId: "get_weather", content: { contains: "sunny" } } },
        respond: { text: "It is sunny in Paris." },
      },
    ],
  },
  {
    name: "g-think",
    steps: [
      {
        expect: { reasoning: "enabled" },
        respond: {
          reasoning: [{ text: "The user greets me.", signature: "c2lnbmF0dXJl" }],
          text: "Hi!",
          usage: { inputTokens: 10, outputTokens: 30, reasoningTokens: 20 },
          stream: { chunkWords: 2 },
        },
        consume: false,
      },
    ],
  },
  {
    name: "g-rate",
    steps: [{ failures: [{ kind: "rate_limit", retryAfterMs: 1500 }, { kind: "overloaded" }], respond: { text: "third time lucky" } }],
  },
  {
    name: "g-stream-error",
    steps: [{ failures: [{ kind: "stream_error", afterChunks: 2 }], respond: { text: "alpha beta gamma delta epsilon", stream: { chunkWords: 1 } } }],
  },
  { name: "g-mismatch", steps: [{ id: "only-weather", match: { lastUserMessage: { contains: "weather" } }, respond: { text: "x" } }] },
  {
    name: "g-curl",
    steps: [{ expect: { systemPromptMustInclude: ["sys"], maxTokens: 9, model: MODEL, temperature: 0.5 }, respond: { text: "curl ok" } }],
  },
  { name: "g-raw", steps: [{ consume: false, respond: { text: "raw answer", toolCalls: [{ name: "broken", arguments: '{"a": ' }] } }] },
];

function client(scenario: string, session: string, extra: { apiVersion?: string; retryOptions?: { attempts: number; initialDelay: number } } = {}) {
  return new GoogleGenAI({
    apiKey: "test-key",
    ...(extra.apiVersion ? { apiVersion: extra.apiVersion } : {}),
    httpOptions: { baseUrl: `${h.url}/s/${scenario}/${session}`, ...(extra.retryOptions ? { retryOptions: extra.retryOptions } : {}) },
  });
}

/** The parsed body behind an SDK ApiError (its message is the response body as JSON). */
function errorBody(err: unknown): { error: { code: number; message: string; status: string; details?: unknown[] } } {
  expect(err).toBeInstanceOf(ApiError);
  const message = (err as ApiError).message;
  return JSON.parse(message.startsWith("got status") ? message.slice(message.indexOf("{")) : message);
}

async function collect(stream: AsyncGenerator<GenerateContentResponse>): Promise<GenerateContentResponse[]> {
  const chunks: GenerateContentResponse[] = [];
  for await (const c of stream) chunks.push(c);
  return chunks;
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("@google/genai against mockllm", () => {
  it("generateContent: text, usage, model version, deterministic response id", async () => {
    const res = await client("g-hello", "s1").models.generateContent({
      model: MODEL,
      contents: "Hi",
      config: { systemInstruction: "Be brief.", temperature: 0.2, topP: 0.9, maxOutputTokens: 256 },
    });
    expect(res.text).toBe("Hello from the script.");
    expect(res.candidates?.[0]?.finishReason).toBe("STOP");
    expect(res.candidates?.[0]?.content).toEqual({ role: "model", parts: [{ text: "Hello from the script." }] });
    expect(res.modelVersion).toBe("gemini-2.5-flash-001");
    expect(res.responseId).toMatch(/^[0-9A-Za-z]{22}$/);
    expect(res.usageMetadata).toEqual({
      promptTokenCount: 12,
      candidatesTokenCount: 5,
      totalTokenCount: 17,
      cachedContentTokenCount: 3,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: 12 }],
      cacheTokensDetails: [{ modality: "TEXT", tokenCount: 3 }],
    });
    expect(res.sdkHttpResponse?.headers?.["x-mockllm-step"]).toBe("step-1");
    const [entry] = await h.journal("g-hello", "s1");
    expect(entry).toMatchObject({ provider: "gemini", endpoint: "generateContent", stream: false, turn: 1, outcome: "response" });
    expect(entry!.request.headers["x-goog-api-key"]).toBe("[redacted]");
  });

  it("generateContentStream assembles the text from chunks; the last carries finishReason and usage", async () => {
    const chunks = await collect(await client("g-stream", "s1").models.generateContentStream({ model: MODEL, contents: "Hi" }));
    expect(chunks.map((c) => c.text)).toEqual(["One two", " three four", " five."]);
    expect(chunks.map((c) => c.candidates?.[0]?.finishReason)).toEqual([undefined, undefined, "STOP"]);
    expect(chunks.at(-1)!.usageMetadata).toMatchObject({ promptTokenCount: 64, candidatesTokenCount: 32, totalTokenCount: 96 });
    // Every chunk carries usageMetadata with the running candidate count, as real streams do.
    expect(chunks.map((c) => c.usageMetadata?.candidatesTokenCount)).toEqual([13, 26, 32]);
    expect(chunks.map((c) => c.usageMetadata?.promptTokenCount)).toEqual([64, 64, 64]);
    expect(new Set(chunks.map((c) => c.responseId)).size).toBe(1);
  });

  it("a function-call loop: functionCall, then a functionResponse selects the answer", async () => {
    const ai = client("g-tools", "s1");
    const user: Content = { role: "user", parts: [{ text: "Weather in Paris?" }] };
    const first = await ai.models.generateContent({ model: MODEL, contents: [user], config: { tools: [weatherTool] } });
    expect(first.text).toBe("Let me check.");
    expect(first.functionCalls).toEqual([{ name: "get_weather", args: { city: "Paris", detail: { hourly: true } } }]);
    expect(first.candidates?.[0]?.finishReason).toBe("STOP");
    const call = first.functionCalls![0]!;
    const second = await ai.models.generateContent({
      model: MODEL,
      contents: [user, first.candidates![0]!.content!, { role: "user", parts: [{ functionResponse: { name: call.name!, response: { output: "sunny, 24C" } } }] }],
      config: { tools: [weatherTool] },
    });
    expect(second.text).toBe("It is sunny in Paris.");
    expect((await h.journal("g-tools", "s1")).map((j) => [j.turn, j.step, j.outcome])).toEqual([
      [1, "ask", "response"],
      [2, "answer", "response"],
    ]);
  });

  it("thinking: thought parts with the scripted signature, excluded from .text; thoughtsTokenCount", async () => {
    const config = { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } };
    const res = await client("g-think", "s1").models.generateContent({ model: MODEL, contents: "Hello", config });
    // The signature sits on the final text part, not on the thought part (as recorded).
    expect(res.candidates?.[0]?.content?.parts).toEqual([
      { text: "The user greets me.", thought: true },
      { text: "Hi!", thoughtSignature: "c2lnbmF0dXJl" },
    ]);
    expect(res.text).toBe("Hi!");
    expect(res.usageMetadata).toMatchObject({ candidatesTokenCount: 10, thoughtsTokenCount: 20, totalTokenCount: 40 });

    const chunks = await collect(await client("g-think", "s2").models.generateContentStream({ model: MODEL, contents: "Hello", config }));
    expect(chunks.map((c) => c.candidates?.[0]?.content?.parts)).toEqual([
      [{ text: "The user", thought: true }],
      [{ text: " greets me.", thought: true }],
      [{ text: "Hi!" }],
      [{ text: "", thoughtSignature: "c2lnbmF0dXJl" }],
    ]);
    expect(chunks.map((c) => c.text)).toEqual([undefined, undefined, "Hi!", ""]);

    // thinkingBudget 0 is "disabled": the expectation fails, a mismatch.
    const err = await client("g-think", "s3")
      .models.generateContent({ model: MODEL, contents: "Hello", config: { thinkingConfig: { thinkingBudget: 0 } } })
      .catch((e: unknown) => e);
    expect(errorBody(err).error.message).toMatch(/^mockllm: .*reasoning/s);
  });

  it("rate_limit: ApiError 429 RESOURCE_EXHAUSTED with RetryInfo; the SDK's retryOptions retry to success", async () => {
    const err = await client("g-rate", "once")
      .models.generateContent({ model: MODEL, contents: "Hi" })
      .catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(429);
    const body = errorBody(err);
    expect(body.error).toMatchObject({ code: 429, status: "RESOURCE_EXHAUSTED", message: expect.stringMatching(/^You exceeded your current quota/) });
    expect(body.error.details).toContainEqual({ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1.500s" });

    const res = await client("g-rate", "retry", { retryOptions: { attempts: 3, initialDelay: 0 } }).models.generateContent({
      model: MODEL,
      contents: "Hi",
    });
    expect(res.text).toBe("third time lucky");
    expect((await h.journal("g-rate", "retry")).map((j) => [j.outcome, j.status])).toEqual([
      ["failure", 429],
      ["failure", 503],
      ["response", 200],
    ]);
  });

  it("stream_error: the stream yields the first chunks, then throws ApiError 503", async () => {
    const stream = await client("g-stream-error", "s1").models.generateContentStream({ model: MODEL, contents: "Hi" });
    const texts: string[] = [];
    const err = await (async () => {
      for await (const c of stream) texts.push(c.text ?? "");
    })().catch((e: unknown) => e);
    expect(texts).toEqual(["alpha", " beta"]);
    expect((err as ApiError).status).toBe(503);
    expect(errorBody(err).error).toEqual({ code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" });
  });

  it("a mismatch is a 400 INVALID_ARGUMENT whose message starts mockllm:", async () => {
    const err = await client("g-mismatch", "s1")
      .models.generateContent({ model: MODEL, contents: "hello" })
      .catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(400);
    const body = errorBody(err);
    expect(body.error.status).toBe("INVALID_ARGUMENT");
    expect(body.error.message).toMatch(/^mockllm: scenario "g-mismatch" session "s1" turn 1: no step matches/);
  });

  it("a tool schema the API's proto parser refuses (an MCP tool's const and exclusiveMinimum, which the SDK passes on): ApiError 400, every field violation", async () => {
    const parameters = { type: "object", properties: { kind: { type: "string", const: "web" }, limit: { type: "integer", exclusiveMinimum: 0 } }, additionalProperties: false };
    const err = await client("g-raw", "schema")
      .models.generateContent({ model: MODEL, contents: "Hi", config: { tools: [{ functionDeclarations: [{ name: "search", parameters: parameters as never }] }] } })
      .catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(400);
    const at = "tools[0].function_declarations[0].parameters.properties";
    const violations = [
      { field: `${at}[0].value`, description: `Invalid JSON payload received. Unknown name "const" at '${at}[0].value': Cannot find field.` },
      { field: `${at}[1].value`, description: `Invalid JSON payload received. Unknown name "exclusiveMinimum" at '${at}[1].value': Cannot find field.` },
    ];
    expect(errorBody(err)).toEqual({
      error: {
        code: 400,
        message: violations.map((v) => v.description).join("\n"),
        status: "INVALID_ARGUMENT",
        details: [{ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: violations }],
      },
    });
    // The SDK drops `additionalProperties` itself; the same schema through parametersJsonSchema is JSON Schema, and taken.
    const taken = await client("g-raw", "schema-json").models.generateContent({
      model: MODEL,
      contents: "Hi",
      config: { tools: [{ functionDeclarations: [{ name: "search", parametersJsonSchema: parameters }] }] },
    });
    expect(taken.text).toBe("raw answer");
  });

  it("apiVersion v1 reaches the same surface", async () => {
    const res = await client("g-raw", "api-v1", { apiVersion: "v1" }).models.generateContent({ model: MODEL, contents: "Hi" });
    expect(res.text).toBe("raw answer");
    // Scripted arguments that are not a JSON object arrive wrapped, as on the Anthropic surface.
    expect(res.functionCalls).toEqual([{ name: "broken", args: { INVALID_JSON: '{"a": ' } }]);
  });

  it("models.list() and models.get() see the scenarios' models", async () => {
    const ai = client("g-raw", "models");
    const names: string[] = [];
    for await (const m of await ai.models.list()) names.push(m.name!);
    expect(names).toContain("models/mockllm-default");
    expect(names).toContain(`models/${MODEL}`);
    const model = await ai.models.get({ model: "gemini-2.5-pro" });
    expect(model).toMatchObject({ name: "models/gemini-2.5-pro", supportedActions: ["generateContent", "countTokens"] });
  });
});

describe("the wire without the SDK", () => {
  const url = (path: string) => `${h.url}/s/g-raw/wire${path}`;
  const post = (path: string, body: unknown, headers: Record<string, string> = { "x-goog-api-key": "k" }) =>
    fetch(url(path), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  it("no API key: 403 PERMISSION_DENIED, as the real API", async () => {
    const res = await post(`/v1beta/models/${MODEL}:generateContent`, { contents: [{ parts: [{ text: "Hi" }] }] }, {});
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: {
        code: 403,
        message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        status: "PERMISSION_DENIED",
      },
    });
  });

  it.each([
    [{}, "* GenerateContentRequest.contents: contents is not specified\n"],
    [{ contents: [] }, "* GenerateContentRequest.contents: contents is not specified\n"],
    [{ contents: [{ role: "user", parts: [] }] }, "* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n"],
    [{ contents: [{ role: "user", parts: [{}] }] }, "* GenerateContentRequest.contents[0].parts[0].data: required oneof field 'data' must have one initialized field\n"],
    [{ contents: [{ role: "bot", parts: [{ text: "x" }] }] }, "Please use a valid role: user, model."],
  ])("bad body %j → 400 INVALID_ARGUMENT", async (body, message) => {
    const res = await post(`/v1beta/models/${MODEL}:generateContent`, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 400, message, status: "INVALID_ARGUMENT" } });
  });

  it("a function response with no call before it, fewer responses than calls → 400 INVALID_ARGUMENT in the API's words", async () => {
    const call = (name: string) => ({ functionCall: { name, args: {} } });
    const answer = (name: string) => ({ functionResponse: { name, response: { output: "ok" } } });
    const orphan = await post(`/v1beta/models/${MODEL}:generateContent`, { contents: [{ role: "user", parts: [answer("get_weather")] }] });
    expect([orphan.status, await orphan.json()]).toEqual([
      400,
      { error: { code: 400, message: "Please ensure that function response turn comes immediately after a function call turn.", status: "INVALID_ARGUMENT" } },
    ]);
    const short = await post(`/v1beta/models/${MODEL}:generateContent`, {
      contents: [
        { role: "user", parts: [{ text: "weather?" }] },
        { role: "model", parts: [call("a"), call("b")] },
        { role: "user", parts: [answer("a")] },
      ],
    });
    expect([short.status, ((await short.json()) as { error: { message: string } }).error.message]).toEqual([
      400,
      "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
    ]);
  });

  it("a value of the wrong type → 400 INVALID_ARGUMENT with the field in a BadRequest detail", async () => {
    const res = await post(`/v1beta/models/${MODEL}:generateContent`, { contents: [{ parts: [{ text: 42 }] }] });
    const description = "Invalid value at 'contents[0].parts[0].text' (TYPE_STRING), 42";
    expect([res.status, await res.json()]).toEqual([
      400,
      {
        error: {
          code: 400,
          message: description,
          status: "INVALID_ARGUMENT",
          details: [{ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "contents[0].parts[0].text", description }] }],
        },
      },
    ]);
  });

  it("?key= and snake_case fields (Google's curl examples) work", async () => {
    const res = await fetch(`${h.url}/s/g-curl/v1beta/models/${MODEL}:generateContent?key=k`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        system_instruction: { parts: [{ text: "sys" }] },
        contents: [{ parts: [{ text: "Hi" }] }],
        generation_config: { max_output_tokens: 9, temperature: 0.5 },
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    expect(body.candidates[0].content.parts).toEqual([{ text: "curl ok" }]);
  });

  it(":streamGenerateContent without alt=sse answers one JSON array of chunks", async () => {
    const res = await post(`/v1beta/models/${MODEL}:streamGenerateContent`, { contents: [{ parts: [{ text: "Hi" }] }] });
    expect(res.headers.get("content-type")).toBe("application/json");
    const chunks = (await res.json()) as Record<string, any>[];
    expect(chunks.map((c) => c.candidates[0].content.parts[0])).toEqual([{ text: "raw" }, { text: " answer" }, { functionCall: { name: "broken", args: { INVALID_JSON: '{"a": ' } } }]);
    expect(chunks.at(-1)!.candidates[0].finishReason).toBe("STOP");
  });

  it("wrong method → 405, unknown scenario → 404 NOT_FOUND, both in Gemini's shape", async () => {
    const get = await fetch(url(`/v1beta/models/${MODEL}:generateContent?key=k`));
    expect(get.status).toBe(405);
    expect(((await get.json()) as Record<string, any>).error).toMatchObject({ code: 405 });
    const res = await fetch(`${h.url}/s/no-such-scenario/v1beta/models/${MODEL}:generateContent?key=k`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ parts: [{ text: "Hi" }] }] }),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as Record<string, any>).error).toMatchObject({ code: 404, status: "NOT_FOUND", message: expect.stringContaining("no-such-scenario") });
  });

  it("an unknown Gemini method answers 404 in Gemini's shape", async () => {
    const res = await post(`/v1beta/models/${MODEL}:predictLongRunning`, { instances: [{ prompt: "Hi" }] });
    expect(res.status).toBe(404);
    expect(((await res.json()) as Record<string, any>).error).toMatchObject({ code: 404, status: "NOT_FOUND" });
  });

  it("no scenario: the default responder answers on Gemini too, echoing the last user message", async () => {
    const ai = new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: h.url } });
    const res = await ai.models.generateContent({ model: MODEL, contents: "tell me something" });
    expect(res.text).toMatch(/\n\ntell me something$/);
    const instructed = await ai.models.generateContent({
      model: MODEL,
      contents: '<|instruction_start|>{"messages":[{"text_message":{"length":3}},{"tool_call":[{"name":"search","args":{"q":"x"}}]}]}<|instruction_end|>',
    });
    const parts = instructed.candidates![0]!.content!.parts!;
    expect(parts.at(-1)).toEqual({ functionCall: { name: "search", args: { q: "x" } } });
    expect(parts[0]!.text!.split(/\s+/).filter((w) => w !== "")).toHaveLength(3);
  });

  it("the README's curl: the scripted 429 first (RetryInfo), then the stream", async () => {
    await h.upload({
      name: "g-demo",
      steps: [{ id: "flaky", failures: [{ kind: "rate_limit", retryAfterMs: 0 }], respond: { text: "Hello!" } }],
    });
    const call = () =>
      fetch(`${h.url}/s/g-demo/run-5/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, {
        method: "POST",
        headers: { "x-goog-api-key": "k", "content-type": "application/json" },
        body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
      });
    const first = await call();
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("0");
    expect(((await first.json()) as Record<string, any>).error.details.at(-1)).toEqual({
      "@type": "type.googleapis.com/google.rpc.RetryInfo",
      retryDelay: "0s",
    });
    const text = await (await call()).text();
    expect(text).toMatch(/^data: \{"candidates":\[\{"content":\{"parts":\[\{"text":"Hello!"\}\],"role":"model"\},"finishReason":"STOP","index":0\}\],"usageMetadata":/);
  });

  it("alt=sse streams data-only events with no terminator", async () => {
    const res = await post(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, { contents: [{ parts: [{ text: "Hi" }] }] });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(
      text
        .split("\n\n")
        .filter((e) => e !== "")
        .every((e) => e.startsWith("data: {")),
    ).toBe(true);
    expect(text.endsWith("}\n\n")).toBe(true);
  });
});
