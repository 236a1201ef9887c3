// The same weather agent, written against the Anthropic SDK.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import { scenario, startMockLLM, type MockLLM } from "mockllm";

const weatherAgent = scenario("weather-agent")
  .step("ask-tool", (s) => s.match({ provider: "anthropic", lastUserMessage: { contains: "weather" } }).toolCall("get_weather", { city: "Paris" }, { id: "toolu_01" }))
  .step("answer", (s) => s.match({ toolResult: { toolCallId: "toolu_01" } }).text("It is sunny in Paris."));

const thinker = scenario("thinker").step((s) =>
  s
    .reasoning([{ text: "The user wants a greeting.", signature: "sig-1" }])
    .text("Hello!")
    .usage({ outputTokens: 7 }),
);

const tools: Anthropic.Tool[] = [{ name: "get_weather", input_schema: { type: "object", properties: { city: { type: "string" } } } }];

let mock: MockLLM;
beforeAll(async () => {
  mock = await startMockLLM({ scenarios: [weatherAgent, thinker] });
});
afterAll(() => mock.stop());

describe("with the Anthropic SDK", () => {
  it("tool use, then the answer", async () => {
    // anthropicBaseURL has no /v1: the SDK appends /v1/messages itself.
    const anthropic = new Anthropic({ apiKey: "sk-ant-test", baseURL: mock.anthropicBaseURL("weather-agent", "loop") });
    const question: Anthropic.MessageParam = { role: "user", content: "What's the weather in Paris?" };
    const first = await anthropic.messages.create({ model: "claude-sonnet-4-6", max_tokens: 1024, messages: [question], tools });
    expect(first.stop_reason).toBe("tool_use");
    const toolUse = first.content.find((b) => b.type === "tool_use");
    expect(toolUse).toMatchObject({ id: "toolu_01", name: "get_weather", input: { city: "Paris" } });

    const second = await anthropic.messages.create({
      model: "claude-sonnet-4-6",
      max_tokens: 1024,
      tools,
      messages: [question, { role: "assistant", content: first.content }, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "24°C, clear" }] }],
    });
    expect(second.stop_reason).toBe("end_turn");
    expect(second.content.map((b) => (b.type === "text" ? b.text : b.type))).toEqual(["It is sunny in Paris."]);
  });

  it("streams thinking, then text", async () => {
    const anthropic = new Anthropic({ apiKey: "sk-ant-test", baseURL: mock.anthropicBaseURL("thinker") });
    const stream = anthropic.messages.stream({
      model: "claude-sonnet-4-6",
      max_tokens: 2048,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [{ role: "user", content: "Say hello" }],
    });
    const message = await stream.finalMessage();
    expect(message.content.map((b) => b.type)).toEqual(["thinking", "text"]);
    expect(message.content[0]).toMatchObject({ thinking: "The user wants a greeting.", signature: "sig-1" });
    expect(await stream.finalText()).toBe("Hello!");
    expect(message.usage.output_tokens).toBe(7);
  });
});
