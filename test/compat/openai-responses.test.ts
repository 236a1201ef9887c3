/**
 * The official `openai` SDK's Responses API against the Worker: create, stream, tool loops (full input and
 * `previous_response_id`), reasoning, incomplete answers and mid-stream errors.
 */
import OpenAI, { APIError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const weatherTool = {
  type: "function" as const,
  name: "get_weather",
  description: "Current weather",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  strict: true,
};

const SCENARIOS = [
  {
    name: "r-text",
    steps: [
      {
        respond: {
          text: "Hello from the Responses API.",
          model: "gpt-4.1-2025-04-14",
          usage: { inputTokens: 12, outputTokens: 5, cacheReadTokens: 3, cacheWriteTokens: 4 },
        },
      },
    ],
  },
  { name: "r-stream", steps: [{ respond: { text: "One two three four five.", stream: { chunkWords: 2 } } }] },
  {
    name: "r-tools",
    steps: [
      {
        id: "ask",
        match: { turn: 1, tools: ["get_weather"], endpoint: "responses" },
        expect: { systemPromptMustInclude: ["weather bot"] },
        respond: { text: "Let me check.", toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] },
      },
      {
        id: "answer",
        match: { turn: 2, toolResult: { name: "get_weather", content: { contains: "sunny" } } },
        expect: { systemPromptMustInclude: ["weather bot"] },
        respond: { text: "It is sunny in Paris." },
      },
    ],
  },
  {
    name: "r-reason",
    steps: [
      {
        expect: { reasoning: "enabled" },
        respond: { reasoning: "First think. Then answer.", text: "Forty-two.", usage: { reasoningTokens: 7 } },
      },
    ],
  },
  { name: "r-length", steps: [{ respond: { text: "Cut off mid", finishReason: "length" } }] },
  {
    name: "r-stream-error",
    steps: [
      {
        failures: [{ kind: "stream_error", afterChunks: 4, message: "The model crashed." }],
        respond: { text: "alpha beta gamma delta" },
      },
    ],
  },
];

const client = (scenario: string, session = "default") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/${scenario}/${session}/v1`, maxRetries: 0 });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("responses.create", () => {
  it("answers with the scripted text, usage and the real response shape", async () => {
    const res = await client("r-text").responses.create({ model: "gpt-4.1", input: "Hi" });
    expect(res.id).toMatch(/^resp_[0-9a-f]{50}$/);
    expect(res.object).toBe("response");
    expect(res.status).toBe("completed");
    expect(res.model).toBe("gpt-4.1-2025-04-14");
    expect(res.output_text).toBe("Hello from the Responses API.");
    expect(res.output).toEqual([
      {
        id: expect.stringMatching(/^msg_[0-9a-f]{50}$/),
        type: "message",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "Hello from the Responses API.", annotations: [], logprobs: [] }],
      },
    ]);
    expect(res.usage).toEqual({
      input_tokens: 12,
      input_tokens_details: { cached_tokens: 3, cache_write_tokens: 4 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 17,
    });
    expect(res.error).toBeNull();
    expect(res.incomplete_details).toBeNull();
    expect((res as unknown as { store: boolean }).store).toBe(true); // on the wire, not in the SDK type
    expect(res).toMatchObject({ service_tier: "default", frequency_penalty: 0, presence_penalty: 0, prompt_cache_retention: null });
    expect(res.completed_at).toBeGreaterThan(0);
    expect((res as unknown as { billing: unknown }).billing).toEqual({ payer: "developer" });
    expect(res._request_id).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it("gives the same ids for the same (scenario, session, step, attempt)", async () => {
    await h.admin("/sessions/r-text/again/reset", { method: "POST" });
    const a = await client("r-text", "again").responses.create({ model: "gpt-4.1", input: "Hi" });
    await h.admin("/sessions/r-text/again/reset", { method: "POST" });
    const b = await client("r-text", "again").responses.create({ model: "gpt-4.1", input: "Hi" });
    expect(b.id).toBe(a.id);
    expect(b.output[0]!.id).toBe(a.output[0]!.id);
  });

  it("puts a scripted reasoning item first, with its summary", async () => {
    const res = await client("r-reason").responses.create({ model: "o4-mini", input: "Why?", reasoning: { effort: "low" } });
    expect(res.output.map((o) => o.type)).toEqual(["reasoning", "message"]);
    expect(res.output[0]).toEqual({
      id: expect.stringMatching(/^rs_/),
      type: "reasoning",
      content: [],
      summary: [{ type: "summary_text", text: "First think. Then answer." }],
    });
    expect(res.output_text).toBe("Forty-two.");
    expect(res.usage?.output_tokens_details.reasoning_tokens).toBe(7);
    expect(res.reasoning).toEqual({ effort: "low", summary: null });
  });

  it("reports a length cut as status incomplete with reason max_output_tokens", async () => {
    const res = await client("r-length").responses.create({ model: "gpt-4.1", input: "Go", max_output_tokens: 16 });
    expect(res.status).toBe("incomplete");
    expect(res.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(res.max_output_tokens).toBe(16);
    expect(res.output_text).toBe("Cut off mid");
  });
});

describe("responses.stream", () => {
  it("streams deltas and finalResponse() equals the scripted output", async () => {
    const stream = client("r-stream").responses.stream({ model: "gpt-4.1", input: "Count" });
    const types: string[] = [];
    const deltas: string[] = [];
    stream.on("event", (e) => types.push(e.type));
    stream.on("response.output_text.delta", (e) => deltas.push(e.delta));
    const final = await stream.finalResponse();
    expect(deltas).toEqual(["One two", " three four", " five."]);
    expect(final.output_text).toBe("One two three four five.");
    expect(final.status).toBe("completed");
    expect(final.output).toEqual([
      {
        id: expect.stringMatching(/^msg_/),
        type: "message",
        status: "completed",
        role: "assistant",
        // `parsed` is added by the SDK's structured-output helper, not sent.
        content: [{ type: "output_text", text: "One two three four five.", annotations: [], logprobs: [], parsed: null }],
      },
    ]);
    expect(types).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
  });

  it("streams a tool call whose arguments accumulate to the scripted JSON", async () => {
    const stream = client("r-tools", "stream-tools").responses.stream({
      model: "gpt-4.1",
      instructions: "You are a weather bot.",
      input: "Weather in Paris?",
      tools: [weatherTool],
    });
    const final = await stream.finalResponse();
    const call = final.output.find((o) => o.type === "function_call");
    expect(final.output.map((o) => o.type)).toEqual(["message", "function_call"]);
    expect(call).toMatchObject({ name: "get_weather", arguments: '{"city":"Paris"}', status: "completed" });
    expect(call?.type === "function_call" && call.call_id).toMatch(/^call_/);
    expect(call?.id).toMatch(/^fc_/);
  });

  it("surfaces a stream_error as a thrown APIError after the scripted events", async () => {
    const stream = client("r-stream-error").responses.stream({ model: "gpt-4.1", input: "Go" });
    const seen: string[] = [];
    stream.on("event", (e) => seen.push(e.type));
    const err = await stream.finalResponse().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).message).toBe("The model crashed.");
    expect((err as APIError).code).toBe("server_error");
    expect(seen).toEqual(["response.created", "response.in_progress", "response.output_item.added", "response.content_part.added"]);
  });
});

describe("function-call loop", () => {
  const ask = (c: OpenAI, extra: Partial<OpenAI.Responses.ResponseCreateParamsNonStreaming>) =>
    c.responses.create({ model: "gpt-4.1", instructions: "You are a weather bot.", tools: [weatherTool], ...extra } as OpenAI.Responses.ResponseCreateParamsNonStreaming);

  it("runs the scripted call, then answers the function_call_output sent with the full input", async () => {
    const c = client("r-tools", "full-input");
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: "Weather in Paris?" }];
    const first = await ask(c, { input });
    const call = first.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === "function_call")!;
    expect(JSON.parse(call.arguments)).toEqual({ city: "Paris" });
    const second = await ask(c, {
      input: [...input, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: "function_call_output", call_id: call.call_id, output: "sunny, 21C" }],
    });
    expect(second.output_text).toBe("It is sunny in Paris.");
    const journal = await h.journal("r-tools", "full-input");
    expect(journal.map((e) => [e.step, e.turn, e.outcome])).toEqual([
      ["ask", 1, "response"],
      ["answer", 2, "response"],
    ]);
  });

  it("runs the same loop through previous_response_id, sending only the tool output", async () => {
    const c = client("r-tools", "chained");
    const first = await ask(c, { input: "Weather in Paris?" });
    const call = first.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === "function_call")!;
    const second = await ask(c, {
      previous_response_id: first.id,
      input: [{ type: "function_call_output", call_id: call.call_id, output: "sunny, 21C" }],
    });
    expect(second.output_text).toBe("It is sunny in Paris.");
    expect(second.previous_response_id).toBe(first.id);
    const journal = await h.journal("r-tools", "chained");
    expect(journal.map((e) => [e.step, e.turn, e.outcome])).toEqual([
      ["ask", 1, "response"],
      ["answer", 2, "response"],
    ]);
  });
});
