/**
 * The official `openai` SDK against the Worker on a random port: Chat Completions end to end.
 */
import OpenAI, { APIConnectionError, APIError, BadRequestError, RateLimitError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  { name: "nano", match: { model: "gpt-4.1-nano" }, steps: [{ respond: { text: "Small." } }] },
  { name: "hello", steps: [{ respond: { text: "Hello from the script.", usage: { inputTokens: 11, outputTokens: 5 } } }] },
  {
    name: "stream-text",
    steps: [{ respond: { text: "One two three four five.", stream: { chunkWords: 2 } } }],
  },
  {
    name: "two-tools",
    steps: [
      {
        match: { tools: ["get_weather", "get_time"] },
        respond: {
          text: "Checking both.",
          toolCalls: [
            { id: "call_weather_1", name: "get_weather", arguments: { city: "Paris" } },
            { id: "call_time_1", name: "get_time", arguments: { zone: "Europe/Paris" } },
          ],
        },
      },
    ],
  },
  {
    name: "tool-loop",
    steps: [
      { id: "ask", match: { turn: 1 }, respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }] } },
      {
        id: "answer",
        match: { toolResult: { name: "get_weather", content: { contains: "snow" } } },
        respond: { text: "It is snowing in Oslo." },
      },
    ],
  },
  {
    name: "rate-limited",
    steps: [
      {
        id: "limited",
        failures: [
          { kind: "rate_limit", retryAfterMs: 10 },
          { kind: "rate_limit", retryAfterMs: 10 },
        ],
        respond: { text: "finally" },
      },
    ],
  },
  {
    name: "no-retry",
    steps: [{ failures: [{ kind: "overloaded", retryable: false, message: "busy, do not retry" }], respond: { text: "x" } }],
  },
  {
    name: "stream-error",
    steps: [
      {
        failures: [{ kind: "stream_error", afterChunks: 2, message: "upstream died" }],
        respond: { text: "alpha beta gamma delta epsilon" },
      },
    ],
  },
  {
    name: "net-error",
    steps: [
      {
        failures: [{ kind: "network_error", afterChunks: 2 }],
        respond: { text: "after the break" },
      },
    ],
  },
  {
    name: "strict-match",
    steps: [{ id: "weather-only", match: { lastUserMessage: { contains: "weather" } }, respond: { text: "sunny" } }],
  },
];

function client(scenario: string, session: string, opts: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) {
  return new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/${scenario}/${session}/v1`, maxRetries: 0, ...opts });
}

const user = (content: string) => [{ role: "user" as const, content }];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("openai SDK: chat.completions", () => {
  it("answers an alias with its dated snapshot, which models.retrieve knows", async () => {
    const c = client("nano", "t1");
    const res = await c.chat.completions.create({ model: "gpt-4.1-nano", messages: user("hi") });
    expect(res.model).toBe("gpt-4.1-nano-2025-04-14");
    expect((await c.models.retrieve(res.model)).id).toBe("gpt-4.1-nano-2025-04-14");
  });

  it("non-stream text with scripted usage and a request id", async () => {
    const res = await client("hello", "t1")
      .chat.completions.create({ model: "gpt-4o-mini", messages: user("hi") })
      .withResponse();
    expect(res.data.choices[0]!.message.content).toBe("Hello from the script.");
    expect(res.data.choices[0]!.finish_reason).toBe("stop");
    expect(res.data.object).toBe("chat.completion");
    // The alias is answered by its dated snapshot, as the real API does.
    expect(res.data.model).toBe("gpt-4o-mini-2024-07-18");
    expect(res.data.service_tier).toBe("default");
    expect(res.data.id).toMatch(/^chatcmpl-[A-Za-z0-9]{29}$/);
    expect(res.data.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 });
    expect(res.request_id).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it("ids are deterministic per (scenario, session, step, attempt)", async () => {
    const a = await client("hello", "same-a").chat.completions.create({ model: "m", messages: user("hi") });
    const b = await client("hello", "same-a-twin").chat.completions.create({ model: "m", messages: user("hi") });
    const a2 = await (async () => {
      await h.admin("/sessions/hello/same-a/reset", { method: "POST" });
      return client("hello", "same-a").chat.completions.create({ model: "m", messages: user("hi") });
    })();
    expect(a2.id).toBe(a.id);
    expect(b.id).not.toBe(a.id);
  });

  it("streamed text with include_usage: deltas join to the text, usage chunk last with empty choices", async () => {
    const stream = await client("stream-text", "t1").chat.completions.create({
      model: "gpt-4o-mini",
      messages: user("hi"),
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const deltas = chunks.flatMap((c) => c.choices.map((ch) => ch.delta.content ?? ""));
    expect(deltas.join("")).toBe("One two three four five.");
    expect(deltas.filter((d) => d !== "")).toEqual(["One two", " three four", " five."]);
    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 64, completion_tokens: 32, total_tokens: 96 });
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("stop");
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
  });

  it("stream() helper: finalChatCompletion() with two tool calls", async () => {
    const runner = client("two-tools", "t1").chat.completions.stream({
      model: "gpt-4o-mini",
      messages: user("weather and time in Paris?"),
      tools: [
        { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: {} } } },
        { type: "function", function: { name: "get_time", parameters: { type: "object", properties: {} } } },
      ],
    });
    const doneArgs: string[] = [];
    runner.on("tool_calls.function.arguments.done", (e) => doneArgs.push(e.name));
    const final = await runner.finalChatCompletion();
    const msg = final.choices[0]!.message;
    expect(final.choices[0]!.finish_reason).toBe("tool_calls");
    expect(msg.content).toBe("Checking both.");
    expect(msg.tool_calls).toEqual([
      { id: "call_weather_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      { id: "call_time_1", type: "function", function: { name: "get_time", arguments: '{"zone":"Europe/Paris"}' } },
    ]);
    expect(doneArgs).toEqual(["get_weather", "get_time"]);
  });

  it("two-turn tool loop: the tool result selects the answer step", async () => {
    const c = client("tool-loop", "t1");
    const tools = [{ type: "function" as const, function: { name: "get_weather", parameters: { type: "object" } } }];
    const first = await c.chat.completions.create({ model: "m", messages: user("weather in Oslo?"), tools });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call.type === "function" && call.function).toEqual({ name: "get_weather", arguments: '{"city":"Oslo"}' });
    expect(call.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    const second = await c.chat.completions.create({
      model: "m",
      tools,
      messages: [...user("weather in Oslo?"), first.choices[0]!.message, { role: "tool", tool_call_id: call.id, content: "heavy snow, -3C" }],
    });
    expect(second.choices[0]!.message.content).toBe("It is snowing in Oslo.");
    const journal = await h.journal("tool-loop", "t1");
    expect(journal.map((j) => [j.turn, j.step, j.outcome])).toEqual([
      [1, "ask", "response"],
      [2, "answer", "response"],
    ]);
  });

  it("maxRetries 2 rides over two rate_limit failures: success and 3 journal entries", async () => {
    const res = await client("rate-limited", "t1", { maxRetries: 2 }).chat.completions.create({
      model: "m",
      messages: user("hi"),
    });
    expect(res.choices[0]!.message.content).toBe("finally");
    const journal = await h.journal("rate-limited", "t1");
    expect(journal.map((j) => [j.outcome, j.status])).toEqual([
      ["failure", 429],
      ["failure", 429],
      ["response", 200],
    ]);
    expect(journal.map((j) => j.request.headers["x-stainless-retry-count"])).toEqual(["0", "1", "2"]);
  });

  it("maxRetries 0: RateLimitError with retry headers", async () => {
    const err = await client("rate-limited", "t2")
      .chat.completions.create({ model: "m", messages: user("hi") })
      .catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.status).toBe(429);
    expect(err.code).toBe("rate_limit_exceeded");
    expect(err.type).toBe("requests");
    expect(err.headers.get("retry-after-ms")).toBe("10");
    expect(err.headers.get("retry-after")).toBe("1");
    expect(err.headers.get("x-ratelimit-remaining-requests")).toBe("0");
  });

  it("retryable: false sends x-should-retry: false and the SDK does not retry", async () => {
    const err = await client("no-retry", "t1", { maxRetries: 3 })
      .chat.completions.create({ model: "m", messages: user("hi") })
      .catch((e) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(err.status).toBe(503);
    expect(err.message).toContain("busy, do not retry");
    expect(err.headers.get("x-should-retry")).toBe("false");
    expect(await h.journal("no-retry", "t1")).toHaveLength(1);
  });

  it("stream_error: iteration throws the scripted error after two chunks", async () => {
    const stream = await client("stream-error", "t1").chat.completions.create({ model: "m", messages: user("hi"), stream: true });
    const seen: string[] = [];
    const err = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? "");
    })().catch((e) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(err.message).toContain("upstream died");
    expect(seen).toEqual(["", "alpha"]);
  });

  it("stream_error on a JSON request: a 500 InternalServerError, journaled as 500", async () => {
    const err = await client("stream-error", "json")
      .chat.completions.create({ model: "m", messages: user("hi") })
      .catch((e) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(err.status).toBe(500);
    expect(err.error.message).toBe("upstream died");
    expect((await h.journal("stream-error", "json")).map((j) => [j.outcome, j.status])).toEqual([["failure", 500]]);
  });

  it("network_error: a connection-level error, never an HTTP status; the next attempt answers", async () => {
    const c = client("net-error", "t1");
    const stream = await c.chat.completions.create({ model: "m", messages: user("hi"), stream: true });
    const seen: string[] = [];
    const err = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? "");
    })().catch((e) => e);
    expect(seen).toEqual(["", "after"]);
    expect(err).toBeDefined();
    expect(err).not.toBeInstanceOf(BadRequestError);
    expect(err.status).toBeUndefined();
    expect(err instanceof APIConnectionError || /terminated|other side closed|aborted/i.test(String(err.message))).toBe(true);
    const ok = await c.chat.completions.create({ model: "m", messages: user("hi") });
    expect(ok.choices[0]!.message.content).toBe("after the break");
  });

  it("network_error without streaming: headers arrive, the body breaks off (fetch's terminated), the next attempt answers", async () => {
    const c = client("net-error", "t2", { maxRetries: 1 });
    const err = await c.chat.completions.create({ model: "m", messages: user("hi") }).catch((e) => e);
    expect(err.status).toBeUndefined();
    expect(String(err.message)).toMatch(/terminated/);
    const ok = await c.chat.completions.create({ model: "m", messages: user("hi") });
    expect(ok.choices[0]!.message.content).toBe("after the break");
    const journal = await h.journal("net-error", "t2");
    expect(journal.map((j) => [j.outcome, j.status])).toEqual([
      ["failure", 200],
      ["response", 200],
    ]);
  });

  it("mismatch: BadRequestError whose message starts mockllm: and names what failed", async () => {
    const err = await client("strict-match", "t1")
      .chat.completions.create({ model: "m", messages: user("hello") })
      .catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.error.message).toBe(
      'mockllm: scenario "strict-match" session "t1" turn 1: no step matches; nearest step "weather-only" failed\n' + '- match.lastUserMessage: expected contains "weather", got "hello"',
    );
    const journal = await h.journal("strict-match", "t1");
    expect(journal[0]).toMatchObject({ outcome: "mismatch", status: 400, step: "weather-only" });
  });

  it("a user message with content null: BadRequestError with the real API's message, dotted param and null code", async () => {
    const err = await client("hello", "null-content")
      .chat.completions.create({ model: "m", messages: [{ role: "user", content: null as unknown as string }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect([err.status, err.error, err.param, err.code]).toEqual([
      400,
      { message: "Invalid value for 'content': expected a string, got null.", type: "invalid_request_error", param: "messages.[0].content", code: null },
      "messages.[0].content",
      null,
    ]);
  });
});
