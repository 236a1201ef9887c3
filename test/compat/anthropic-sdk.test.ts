/**
 * The official `@anthropic-ai/sdk` against the Worker on a random port: Messages end to end.
 */
import Anthropic, { APIConnectionError, APIError, BadRequestError, RateLimitError } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const weatherTool = {
  name: "get_weather",
  description: "Current weather",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};

const SCENARIOS = [
  {
    name: "a-hello",
    steps: [
      {
        respond: {
          text: "Hello from the script.",
          model: "claude-sonnet-4-5-20250929",
          usage: { inputTokens: 12, outputTokens: 5, cacheReadTokens: 3, cacheWriteTokens: 2 },
        },
      },
    ],
  },
  { name: "a-stream", steps: [{ respond: { text: "One two three four five.", stream: { chunkWords: 2 } } }] },
  {
    name: "a-tools",
    steps: [
      {
        id: "ask",
        match: { turn: 1, tools: ["get_weather"] },
        respond: {
          text: "Let me check.",
          toolCalls: [{ name: "get_weather", arguments: { city: "Paris", units: ["C", "F"], detail: { hourly: true } } }],
        },
      },
      {
        id: "answer",
        match: { toolResult: { name: "get_weather", content: { contains: "sunny" } } },
        respond: { text: "It is sunny in Paris." },
      },
    ],
  },
  {
    name: "a-think",
    steps: [
      {
        id: "think-derived",
        match: { turn: 1 },
        respond: {
          reasoning: "The user wants the weather. I should call get_weather.",
          toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }],
        },
      },
      {
        id: "answer",
        match: { turn: 2 },
        expect: { reasoning: "enabled" },
        respond: { reasoning: [{ text: "Snow it is.", signature: "c2NyaXB0ZWQtc2lnbmF0dXJl" }], text: "Snowing in Oslo." },
      },
    ],
  },
  {
    name: "a-bash-loop",
    steps: [
      { id: "bash", respond: { toolCalls: [{ name: "Bash", arguments: { command: "echo hello", description: "Print hello" } }] } },
      { id: "final", match: { toolResult: { name: "Bash", content: "hello" } }, respond: { text: "It printed hello." } },
    ],
  },
  {
    name: "a-overloaded",
    steps: [{ failures: [{ kind: "overloaded" }], respond: { text: "recovered" } }],
  },
  {
    name: "a-stream-error",
    steps: [{ failures: [{ kind: "stream_error", afterChunks: 4 }], respond: { text: "alpha beta gamma delta epsilon" } }],
  },
  {
    name: "a-broken",
    steps: [
      {
        match: { lastUserMessage: "network" },
        consume: false,
        failures: [{ kind: "network_error", afterChunks: 4 }],
        respond: { text: "alpha beta gamma delta epsilon" },
      },
      {
        match: { lastUserMessage: "invalid" },
        consume: false,
        failures: [{ kind: "invalid_response", afterChunks: 4 }],
        respond: { text: "alpha beta gamma delta epsilon" },
      },
    ],
  },
  {
    name: "a-cut",
    steps: [
      { match: { lastUserMessage: "again" }, consume: false, failures: [{ kind: "network_error" }], respond: { text: "whole at last" } },
      { match: { lastUserMessage: "once" }, consume: false, failures: [{ kind: "network_error", retryable: false }], respond: { text: "never read" } },
    ],
  },
  {
    name: "a-rate-limit",
    steps: [{ failures: [{ kind: "rate_limit", retryAfterMs: 1500, message: "slow down" }], respond: { text: "x" } }],
  },
];

function client(scenario: string, session: string, opts: Partial<ConstructorParameters<typeof Anthropic>[0]> = {}) {
  return new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}/s/${scenario}/${session}`, maxRetries: 0, ...opts });
}

/** Each journaled attempt of a session as [outcome, status]. */
const outcomes = async (scenario: string, session: string) => (await h.journal(scenario, session)).map((j) => [j.outcome, j.status]);

const MODEL = "claude-sonnet-4-5-20250929";
const user = (content: string) => [{ role: "user" as const, content }];
const thinking = { type: "enabled" as const, budget_tokens: 1024 };

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("anthropic SDK: messages", () => {
  it("messages.create: text, usage, ids and request id", async () => {
    const res = await client("a-hello", "t1")
      .messages.create({ model: MODEL, max_tokens: 256, messages: user("hi") })
      .withResponse();
    const msg = res.data;
    expect(msg.content).toEqual([{ type: "text", text: "Hello from the script." }]);
    expect(msg).toMatchObject({ type: "message", role: "assistant", model: MODEL, stop_reason: "end_turn", stop_sequence: null });
    expect(msg.id).toMatch(/^msg_01[0-9A-Za-z]{22}$/);
    expect(msg.usage).toEqual({
      input_tokens: 12,
      output_tokens: 5,
      cache_creation_input_tokens: 2,
      cache_read_input_tokens: 3,
      cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 0 },
      service_tier: "standard",
      inference_geo: "not_available",
    });
    // The SDK's Usage type declares both as required `… | null`: a `!== null` check must see a value, not undefined.
    const usage: Anthropic.Usage = msg.usage;
    expect(usage.cache_creation?.ephemeral_5m_input_tokens).toBe(2);
    expect(usage.inference_geo).not.toBeUndefined();
    // Anthropic's request-id format: req_011C + 20 base58 characters.
    expect(res.request_id).toMatch(/^req_011C[1-9A-HJ-NP-Za-km-z]{20}$/);
    expect(res.response.headers.get("content-type")).toContain("application/json");
  });

  it("messages.stream(): text events and finalMessage()", async () => {
    const stream = client("a-stream", "t1").messages.stream({ model: MODEL, max_tokens: 256, messages: user("hi") });
    const deltas: string[] = [];
    stream.on("text", (d) => deltas.push(d));
    const final = await stream.finalMessage();
    expect(deltas).toEqual(["One two", " three four", " five."]);
    expect(final.content).toEqual([{ type: "text", text: "One two three four five." }]);
    expect(final.stop_reason).toBe("end_turn");
    expect(final.usage).toMatchObject({ input_tokens: 64, output_tokens: 32 });
  });

  it("tool loop: input_json_delta assembles the scripted input, the tool result selects the answer", async () => {
    const c = client("a-tools", "t1");
    const stream = c.messages.stream({ model: MODEL, max_tokens: 256, tools: [weatherTool], messages: user("Weather in Paris?") });
    const fragments: string[] = [];
    stream.on("inputJson", (partial) => fragments.push(partial));
    const first = await stream.finalMessage();
    expect(first.stop_reason).toBe("tool_use");
    expect(fragments.length).toBeGreaterThanOrEqual(3);
    expect(fragments.join("")).toBe('{"city":"Paris","units":["C","F"],"detail":{"hourly":true}}');
    const [text, toolUse] = first.content;
    expect(text).toEqual({ type: "text", text: "Let me check." });
    expect(toolUse).toMatchObject({ type: "tool_use", name: "get_weather", input: { city: "Paris", units: ["C", "F"], detail: { hourly: true } } });
    const id = toolUse?.type === "tool_use" ? toolUse.id : "";
    expect(id).toMatch(/^toolu_01[0-9A-Za-z]{22}$/);

    const second = await c.messages.create({
      model: MODEL,
      max_tokens: 256,
      tools: [weatherTool],
      messages: [...user("Weather in Paris?"), { role: "assistant", content: first.content }, { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "sunny, 24C" }] }],
    });
    expect(second.content).toEqual([{ type: "text", text: "It is sunny in Paris." }]);
    expect((await h.journal("a-tools", "t1")).map((j) => [j.turn, j.step, j.outcome])).toEqual([
      [1, "ask", "response"],
      [2, "answer", "response"],
    ]);
  });

  it("thinking: finalMessage() keeps thinking and signature; echoed back unchanged it is accepted", async () => {
    const c = client("a-think", "t1");
    const params = { model: MODEL, max_tokens: 4096, thinking, tools: [weatherTool], messages: user("Weather in Oslo?") };
    const signatures: string[] = [];
    const stream = c.messages.stream(params);
    stream.on("signature", (s) => signatures.push(s));
    const first = await stream.finalMessage();
    const block = first.content[0];
    expect(block).toMatchObject({ type: "thinking", thinking: "The user wants the weather. I should call get_weather." });
    const signature = block?.type === "thinking" ? block.signature : "";
    expect(signature).toMatch(/^EqMB[0-9A-Za-z]{80}$/);
    expect(signatures).toEqual([signature]);
    const toolUse = first.content[1];
    expect(toolUse).toMatchObject({ type: "tool_use", name: "get_weather", input: { city: "Oslo" } });

    const second = await c.messages.create({
      ...params,
      messages: [
        ...params.messages,
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse?.type === "tool_use" ? toolUse.id : "", content: "snow" }] },
      ],
    });
    expect(second.content).toEqual([
      { type: "thinking", thinking: "Snow it is.", signature: "c2NyaXB0ZWQtc2lnbmF0dXJl" },
      { type: "text", text: "Snowing in Oslo." },
    ]);
  });

  it("a tool result dropped from the history, or kept for a call dropped from it: BadRequestError 400 in the API's words", async () => {
    const c = client("a-tools", "pairing");
    const first = await c.messages.create({ model: MODEL, max_tokens: 256, tools: [weatherTool], messages: user("Weather in Paris?") });
    const toolUse = first.content.find((b) => b.type === "tool_use");
    if (toolUse?.type !== "tool_use") throw new Error("expected a tool_use");
    const refused = async (messages: Anthropic.MessageParam[]) => {
      const err = await c.messages.create({ model: MODEL, max_tokens: 256, tools: [weatherTool], messages }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BadRequestError);
      return [(err as BadRequestError).status, (err as BadRequestError).type, (err as BadRequestError).apiMessage];
    };
    expect(await refused([...user("Weather in Paris?"), { role: "assistant", content: first.content }, ...user("And tomorrow?")])).toEqual([
      400,
      "invalid_request_error",
      `messages.1: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${toolUse.id}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
    ]);
    expect(await refused([...user("Weather in Paris?"), { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "sunny" }] }])).toEqual([
      400,
      "invalid_request_error",
      `messages.1.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${toolUse.id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
    ]);
    // The refused turns were not the session's: the first call is its only turn.
    expect((await h.journal("a-tools", "pairing")).map((j) => j.turn)).toEqual([1]);
  });

  it("thinking: an edited or unsigned thinking block is rejected with 400, naming the block", async () => {
    const c = client("a-think", "t2");
    const params = { model: MODEL, max_tokens: 4096, thinking, tools: [weatherTool], messages: user("Weather in Oslo?") };
    const first = await c.messages.create(params);
    const [block, toolUse] = first.content;
    if (block?.type !== "thinking" || toolUse?.type !== "tool_use") throw new Error("expected thinking + tool_use");
    const followUp = (assistant: unknown[]) =>
      c.messages
        .create({
          ...params,
          messages: [
            ...params.messages,
            { role: "assistant", content: assistant as Anthropic.ContentBlockParam[] },
            { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "snow" }] },
          ],
        })
        .catch((e: unknown) => e);

    const unsigned = await followUp([{ type: "thinking", thinking: block.thinking }, toolUse]);
    expect(unsigned).toBeInstanceOf(BadRequestError);
    expect((unsigned as BadRequestError).type).toBe("invalid_request_error");
    expect((unsigned as BadRequestError).apiMessage).toMatch(/^messages\.1\.content\.0\.thinking\.signature: Field required/);

    const edited = await followUp([{ ...block, thinking: `${block.thinking} (edited)` }, toolUse]);
    expect((edited as BadRequestError).status).toBe(400);
    expect((edited as BadRequestError).apiMessage).toMatch(/^messages\.1\.content\.0: Invalid `signature` in `thinking` block/);

    const dropped = await followUp([toolUse]);
    expect((dropped as BadRequestError).apiMessage).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`/);
    // Rejected before the session: nothing journaled beyond the first request.
    expect(await h.journal("a-think", "t2")).toHaveLength(1);
  });
});

describe("anthropic SDK: a tool loop answered without thinking (Claude Code, issue 10)", () => {
  const bashTool = {
    name: "Bash",
    description: "Executes a given bash command",
    input_schema: { type: "object" as const, properties: { command: { type: "string" }, description: { type: "string" } }, required: ["command"] },
  };

  it.each([
    ["adaptive", { type: "adaptive" as const }],
    ["enabled", thinking],
  ])("thinking %s: the tool_use echoed back unchanged, without thinking, is accepted", async (label, config) => {
    const c = client("a-bash-loop", `cc-${label}`);
    const params = {
      model: "claude-sonnet-4-6",
      max_tokens: 32000,
      thinking: config,
      tools: [bashTool],
      messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "Run echo hello and tell me what it printed." }] }],
    };
    const first = await c.messages.stream(params).finalMessage();
    expect(first.stop_reason).toBe("tool_use");
    const [toolUse] = first.content;
    if (toolUse?.type !== "tool_use" || first.content.length !== 1) throw new Error(`expected one tool_use, got ${JSON.stringify(first.content)}`);
    expect(toolUse).toMatchObject({ name: "Bash", input: { command: "echo hello", description: "Print hello" } });

    const second = await c.messages
      .stream({
        ...params,
        messages: [...params.messages, { role: "assistant", content: first.content }, { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "hello", is_error: false }] }],
      })
      .finalMessage();
    expect(second.content).toEqual([{ type: "text", text: "It printed hello." }]);
    expect((await h.journal("a-bash-loop", `cc-${label}`)).map((j) => [j.step, j.status])).toEqual([
      ["bash", 200],
      ["final", 200],
    ]);
  });
});

describe("anthropic SDK: failures", () => {
  it("one overloaded failure, then success with maxRetries 1", async () => {
    const msg = await client("a-overloaded", "t1", { maxRetries: 1 }).messages.create({ model: MODEL, max_tokens: 64, messages: user("hi") });
    expect(msg.content).toEqual([{ type: "text", text: "recovered" }]);
    expect(await outcomes("a-overloaded", "t1")).toEqual([
      ["failure", 529],
      ["response", 200],
    ]);
  });

  it("overloaded with maxRetries 0: status 529 overloaded_error", async () => {
    const err = await client("a-overloaded", "t2")
      .messages.create({ model: MODEL, max_tokens: 64, messages: user("hi") })
      .catch((e) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(err.status).toBe(529);
    expect(err.type).toBe("overloaded_error");
    expect(err.error).toMatchObject({ type: "error", error: { type: "overloaded_error" }, request_id: err.requestID });
    expect(err.requestID).toMatch(/^req_/);
  });

  it("stream_error: the stream throws overloaded_error after the scripted events", async () => {
    const stream = client("a-stream-error", "t1").messages.stream({ model: MODEL, max_tokens: 64, messages: user("hi") });
    const deltas: string[] = [];
    stream.on("text", (d) => deltas.push(d));
    const err = await stream.finalMessage().catch((e) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(err.status).toBeUndefined();
    expect(err.type).toBe("overloaded_error");
    expect(err.apiMessage).toBe("Overloaded");
    // message_start, content_block_start, ping, first delta — then the error.
    expect(deltas).toEqual(["alpha"]);
  });

  it("invalid_response mid-stream: finalMessage() rejects after the first delta", async () => {
    const stream = client("a-broken", "t-invalid").messages.stream({ model: MODEL, max_tokens: 64, messages: user("invalid") });
    const deltas: string[] = [];
    stream.on("text", (d) => deltas.push(d));
    const err = await stream.finalMessage().catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(deltas).toEqual(["alpha"]);
  });

  it("network_error mid-stream: a connection-level error, never an HTTP status", async () => {
    const stream = client("a-broken", "t-network").messages.stream({ model: MODEL, max_tokens: 64, messages: user("network") });
    const err = await stream.finalMessage().catch((e) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err.status).toBeUndefined();
    expect(String(err.cause)).toBe("TypeError: terminated");
    // A stream handed to the caller is not sent again.
    expect(await outcomes("a-broken", "t-network")).toEqual([["failure", 200]]);
  });

  it("network_error on a JSON answer: the SDK (1.17 on) sends it again, and the second attempt is answered", async () => {
    const msg = await client("a-cut", "t-again", { maxRetries: 2 }).messages.create({ model: MODEL, max_tokens: 64, messages: user("again") });
    expect(msg.content).toEqual([{ type: "text", text: "whole at last" }]);
    expect(await outcomes("a-cut", "t-again")).toEqual([
      ["failure", 200],
      ["response", 200],
    ]);
  });

  it("network_error with retryable: false: x-should-retry: false on its 200 keeps the SDK from sending it again", async () => {
    const err = await client("a-cut", "t-once", { maxRetries: 2 })
      .messages.create({ model: MODEL, max_tokens: 64, messages: user("once") })
      .catch((e) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(String(err.cause)).toBe("TypeError: terminated");
    expect(await outcomes("a-cut", "t-once")).toEqual([["failure", 200]]);
  });

  it("rate limit: 429 rate_limit_error with retry-after and anthropic-ratelimit-* headers", async () => {
    const err = await client("a-rate-limit", "t1")
      .messages.create({ model: MODEL, max_tokens: 64, messages: user("hi") })
      .catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.type).toBe("rate_limit_error");
    expect(err.apiMessage).toBe("slow down");
    const headers: Headers = err.headers;
    expect(headers.get("retry-after")).toBe("2");
    expect(headers.get("anthropic-ratelimit-requests-limit")).toBe("50");
    expect(headers.get("anthropic-ratelimit-requests-remaining")).toBe("0");
    expect(headers.get("anthropic-ratelimit-tokens-limit")).toBe("40000");
    expect(headers.get("anthropic-ratelimit-tokens-remaining")).toBe("0");
    for (const name of ["anthropic-ratelimit-requests-reset", "anthropic-ratelimit-tokens-reset"]) {
      expect(headers.get(name)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
  });
});
