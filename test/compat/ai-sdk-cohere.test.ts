/**
 * The Vercel AI SDK's Cohere provider (`@ai-sdk/cohere`) against the mock: a scripted tool loop with `generateText`,
 * a streamed answer with reasoning, a cited document, `generateObject` answered by the default responder, `embedMany`
 * and `rerank` — the provider's own parsers reading Chat v2, Embed v2 and Rerank v2 as they read Cohere's.
 */
import { createCohere } from "@ai-sdk/cohere";
import { embedMany, generateObject, generateText, rerank, stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "aic-weather",
    steps: [
      {
        id: "ask",
        match: { turn: 1, tools: ["get_weather"], provider: "cohere", endpoint: "chat" },
        respond: { text: "I will check the weather.", toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }], usage: { inputTokens: 20, outputTokens: 10 } },
      },
      {
        id: "answer",
        match: { toolResult: { name: "get_weather", content: { contains: "sunny" } } },
        respond: { text: "It is sunny in Paris.", usage: { inputTokens: 30, outputTokens: 8 } },
      },
    ],
  },
  { name: "aic-reason", steps: [{ respond: { reasoning: "Think first.", text: "Done thinking.", stream: { chunkWords: 1 } } }] },
  { name: "aic-rag", steps: [{ match: { lastUserMessage: { contains: "tower" } }, respond: { text: "The Eiffel Tower is 330 metres tall." } }] },
  { name: "aic-embed", steps: [{ match: { endpoint: "embeddings" }, respond: { embeddings: [[0.6, 0.8]] } }] },
];

const provider = (scenario?: string, session = "run-1") => createCohere({ apiKey: "co-test", baseURL: `${h.url}${scenario ? `/s/${scenario}/${session}` : ""}/v2` });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("@ai-sdk/cohere", () => {
  it("generateText runs a scripted tool loop: the call, the tool's result sent back, the final text", async () => {
    const cities: string[] = [];
    const result = await generateText({
      model: provider("aic-weather")("command-a-03-2025"),
      prompt: "Weather in Paris?",
      tools: {
        get_weather: tool({
          description: "Current weather for a city",
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => {
            cities.push(city);
            return { city, forecast: "sunny, 21C" };
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(cities).toEqual(["Paris"]);
    expect(result.text).toBe("It is sunny in Paris.");
    expect(result.steps.map((s) => s.finishReason)).toEqual(["tool-calls", "stop"]);
    expect(result.steps[0]!.toolCalls[0]!.toolCallId).toMatch(/^get_weather_[a-z0-9]{12}$/);
    expect(result.totalUsage.inputTokens).toBe(50);
    expect(result.totalUsage.outputTokens).toBe(18);
    const journal = await h.journal("aic-weather", "run-1");
    expect(journal.map((e) => [e.step, e.status])).toEqual([
      ["ask", 200],
      ["answer", 200],
    ]);
    expect(journal[1]!.canonical.toolResults[0]).toMatchObject({ name: "get_weather", toolCallId: result.steps[0]!.toolCalls[0]!.toolCallId });
  });

  it("streamText: reasoning and text deltas, in order", async () => {
    const result = streamText({ model: provider("aic-reason")("command-a-reasoning-08-2025"), prompt: "Think, then answer." });
    const parts: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "reasoning-delta") parts.push(`r:${part.text}`);
      if (part.type === "text-delta") parts.push(`t:${part.text}`);
    }
    expect(parts).toEqual(["r:Think", "r: first.", "t:Done", "t: thinking."]);
    expect(await result.finishReason).toBe("stop");
  });

  it("a text file sent as a document is cited: the answer's sources name it", async () => {
    const result = await generateText({
      model: provider("aic-rag")("command-a-03-2025"),
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "How tall is the tower?" },
            { type: "file", mediaType: "text/plain", filename: "tower.txt", data: new TextEncoder().encode("The Eiffel Tower is 330 metres tall and stands in Paris.") },
          ],
        },
      ],
    });
    expect(result.text).toBe("The Eiffel Tower is 330 metres tall.");
    expect(result.sources).toHaveLength(1);
    expect(result.sources[0]).toMatchObject({ sourceType: "document", title: "tower.txt", providerMetadata: { cohere: { start: 0, end: 36, text: "The Eiffel Tower is 330 metres tall." } } });
  });

  it("generateObject: the default responder's JSON fits the schema", async () => {
    const { object } = await generateObject({
      model: provider()("command-a-03-2025"),
      schema: z.object({ name: z.string(), age: z.number().int(), tags: z.array(z.string()) }),
      prompt: "A person.",
    });
    expect(typeof object.name).toBe("string");
    expect(Number.isInteger(object.age)).toBe(true);
    expect(Array.isArray(object.tags)).toBe(true);
  });

  it("embedMany: the scripted vector for the first text, the hash vector of the model's length for the second", async () => {
    const { embeddings } = await embedMany({ model: provider("aic-embed").embedding("embed-v4.0"), values: ["sunny day", "rainy day"] });
    expect(embeddings[0]).toEqual([0.6, 0.8]);
    expect(embeddings[1]).toHaveLength(1536);
  });

  it("rerank: the matching document first", async () => {
    const { ranking } = await rerank({
      model: provider().reranking("rerank-v3.5"),
      query: "capital of France",
      documents: ["Berlin is the capital of Germany.", "Paris is the capital of France.", "Bananas are yellow."],
      topN: 2,
    });
    expect(ranking.map((r) => r.originalIndex)).toEqual([1, 0]);
  });
});
