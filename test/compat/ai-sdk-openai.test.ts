/**
 * The Vercel AI SDK's OpenAI provider against the Worker: `openai(model)` (Responses, store on, so later steps send
 * `item_reference`s) and `openai.chat(model)` (Chat Completions), each running a scripted tool loop with a zod tool.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { embed, embedMany, generateText, stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "ai-weather",
    systemPromptMustInclude: ["weather bot"],
    steps: [
      {
        id: "ask",
        match: { turn: 1, tools: ["get_weather"] },
        respond: {
          text: "Let me check.",
          toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }],
          usage: { inputTokens: 20, outputTokens: 10 },
        },
      },
      {
        id: "answer",
        match: { turn: 2, toolResult: { name: "get_weather", content: { contains: "sunny" } } },
        respond: { text: "It is sunny in Paris.", usage: { inputTokens: 30, outputTokens: 8 } },
      },
    ],
  },
  {
    name: "ai-reason",
    steps: [{ respond: { reasoning: "Think first.", text: "Done thinking.", stream: { chunkWords: 1 } } }],
  },
  {
    name: "ai-broken",
    steps: [{ failures: [{ kind: "stream_error", afterChunks: 5, message: "mid-stream failure" }], respond: { text: "one two three" } }],
  },
];

const provider = (scenario: string, session: string) => createOpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/${scenario}/${session}/v1` });

const calls: string[] = [];
const tools = {
  get_weather: tool({
    description: "Current weather for a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      calls.push(city);
      return { city, forecast: "sunny, 21C" };
    },
  }),
};

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

const MODELS = [
  { api: "responses", model: (s: string) => provider("ai-weather", s)("gpt-4.1"), endpoint: "responses" },
  { api: "chat", model: (s: string) => provider("ai-weather", s).chat("gpt-4.1"), endpoint: "chat.completions" },
] as const;

describe.each(MODELS)("openai $api model", ({ api, model, endpoint }) => {
  it("generateText runs the scripted tool call, then answers, with usage", async () => {
    calls.length = 0;
    const result = await generateText({
      model: model(`gen-${api}`),
      system: "You are a weather bot.",
      prompt: "Weather in Paris?",
      tools,
      stopWhen: stepCountIs(3),
    });
    expect(calls).toEqual(["Paris"]);
    expect(result.text).toBe("It is sunny in Paris.");
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.toolCalls.map((c) => [c.toolName, c.input])).toEqual([["get_weather", { city: "Paris" }]]);
    expect(result.steps[0]!.finishReason).toBe("tool-calls");
    expect(result.finishReason).toBe("stop");
    expect(result.totalUsage).toMatchObject({ inputTokens: 50, outputTokens: 18, totalTokens: 68 });
    const journal = await h.journal("ai-weather", `gen-${api}`);
    expect(journal.map((e) => [e.endpoint, e.step, e.outcome])).toEqual([
      [endpoint, "ask", "response"],
      [endpoint, "answer", "response"],
    ]);
  });

  it("streamText streams the same loop", async () => {
    calls.length = 0;
    const result = streamText({
      model: model(`stream-${api}`),
      system: "You are a weather bot.",
      prompt: "Weather in Paris?",
      tools,
      stopWhen: stepCountIs(3),
    });
    let text = "";
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe("Let me check.It is sunny in Paris.");
    expect(calls).toEqual(["Paris"]);
    expect(await result.finishReason).toBe("stop");
    expect(await result.totalUsage).toMatchObject({ inputTokens: 50, outputTokens: 18 });
  });
});

describe("Responses-only behaviour", () => {
  it("sends item_reference for the stored assistant message, which the mock resolves", async () => {
    await generateText({
      model: provider("ai-weather", "refs")("gpt-4.1"),
      system: "You are a weather bot.",
      prompt: "Weather in Paris?",
      tools,
      stopWhen: stepCountIs(3),
    });
    const second = (await h.journal("ai-weather", "refs"))[1]!;
    const input = second.request.body.input as Array<Record<string, unknown>>;
    expect(input.map((i) => i.type ?? i.role)).toEqual(["system", "user", "item_reference", "function_call", "function_call_output"]);
    expect(second.turn).toBe(2);
  });

  it("surfaces reasoning summaries as reasoning text", async () => {
    const result = streamText({
      model: provider("ai-reason", "s")("o4-mini"),
      prompt: "Think.",
      providerOptions: { openai: { reasoningSummary: "auto" } },
    });
    let reasoning = "";
    for await (const part of result.fullStream) if (part.type === "reasoning-delta") reasoning += part.text;
    expect(reasoning).toBe("Think first.");
    expect(await result.text).toBe("Done thinking.");
  });

  it("reports a mid-stream error as an error part", async () => {
    const errors: unknown[] = [];
    const result = streamText({
      model: provider("ai-broken", "s")("gpt-4.1"),
      prompt: "Go",
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    expect(parts).toContain("error");
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message)).toContain("mid-stream failure");
  });
});

describe("embeddings", () => {
  it("embed/embedMany get the same float vectors as the official SDK's base64 ones", async () => {
    const openai = createOpenAI({ apiKey: "sk-test", baseURL: `${h.url}/v1` });
    const one = await embed({ model: openai.embedding("text-embedding-3-small"), value: "sunny day" });
    expect(one.embedding).toHaveLength(1536);
    expect(one.usage.tokens).toBe(3);
    const many = await embedMany({ model: openai.embedding("text-embedding-3-small"), values: ["sunny day", "rain"], dimensions: 64 });
    expect(many.embeddings.map((e) => e.length)).toEqual([64, 64]);
    const short = one.embedding.slice(0, 64);
    const scale = Math.hypot(...short);
    many.embeddings[0]!.forEach((x, i) => expect(x).toBeCloseTo(short[i]! / scale, 6));
  });
});
