/**
 * The Vercel AI SDK's Anthropic provider against the Worker: it posts to `${baseURL}/messages` and parses the
 * stream by `data.type` with a strict schema, so it checks what the official SDK does not.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  { name: "ai-text", steps: [{ respond: { text: "Plain answer.", usage: { inputTokens: 8, outputTokens: 2 } } }] },
  {
    name: "ai-think-tool",
    steps: [
      {
        respond: {
          reasoning: "Need the weather.",
          text: "Checking.",
          toolCalls: [{ name: "get_weather", arguments: { city: "Rome" } }],
          stream: { chunkWords: 1 },
        },
      },
    ],
  },
];

const provider = (scenario: string, session: string, v1 = true) => createAnthropic({ apiKey: "k", baseURL: `${h.url}/s/${scenario}/${session}${v1 ? "/v1" : ""}` });

const weather = tool({
  description: "weather",
  inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
});

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("AI SDK @ai-sdk/anthropic", () => {
  it.each([true, false])("generateText (baseURL with /v1: %s)", async (v1) => {
    const res = await generateText({ model: provider("ai-text", `t-${v1}`, v1)("claude-sonnet-4-5"), prompt: "hi", maxRetries: 0 });
    expect(res.text).toBe("Plain answer.");
    expect(res.finishReason).toBe("stop");
    expect(res.usage).toMatchObject({ inputTokens: 8, outputTokens: 2 });
  });

  it("streamText: reasoning, text and a tool call, no error parts", async () => {
    const res = streamText({
      model: provider("ai-think-tool", "t1")("claude-sonnet-4-5"),
      prompt: "weather in Rome?",
      tools: { get_weather: weather },
      maxRetries: 0,
      providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } },
    });
    const types: string[] = [];
    for await (const part of res.fullStream) {
      types.push(part.type);
      if (part.type === "error") throw part.error;
    }
    expect(await res.reasoningText).toBe("Need the weather.");
    expect(await res.text).toBe("Checking.");
    expect(await res.toolCalls).toMatchObject([{ toolName: "get_weather", input: { city: "Rome" } }]);
    expect(await res.finishReason).toBe("tool-calls");
    expect(types).toContain("reasoning-delta");
    expect(types).toContain("tool-call");
  });
});
