// A test suite for an agent that talks to OpenAI, run against mockllm instead.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { scenario, startMockLLM, type MockLLM } from "mockllm";

const weatherAgent = scenario("weather-agent")
  .description("asks for get_weather, then answers from its result")
  .step("ask-tool", (s) =>
    s
      .match({ lastUserMessage: { contains: "weather" } })
      .expect({ tools: ["get_weather"] })
      .toolCall("get_weather", { city: "Paris" }),
  )
  .step("answer", (s) => s.match({ toolResult: { name: "get_weather" } }).text("It is sunny in Paris."));

const flaky = scenario("flaky").step((s) => s.fail("rate_limit", { retryAfterMs: 10 }).failTimes(1, "overloaded").text("Made it."));

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: "function",
    function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
  },
];

/** The code under test: a tiny agent loop that runs tools until the model answers. */
async function runAgent(openai: OpenAI, question: string): Promise<string> {
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "user", content: question }];
  for (let turn = 0; turn < 5; turn++) {
    const res = await openai.chat.completions.create({ model: "gpt-4o", messages, tools });
    const message = res.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) return message.content ?? "";
    for (const call of message.tool_calls) {
      if (call.type !== "function") continue;
      const { city } = JSON.parse(call.function.arguments) as { city: string };
      messages.push({ role: "tool", tool_call_id: call.id, content: `${city}: 24°C, clear` });
    }
  }
  throw new Error("agent did not finish");
}

let mock: MockLLM;
beforeAll(async () => {
  mock = await startMockLLM({ scenarios: [weatherAgent, flaky] });
});
afterAll(() => mock.stop());

describe("with the OpenAI SDK", () => {
  it("runs the agent loop: tool call, tool result, answer", async () => {
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: mock.openaiBaseURL("weather-agent", "loop") });
    expect(await runAgent(openai, "What's the weather in Paris?")).toBe("It is sunny in Paris.");

    // Every step used, no mismatch: otherwise this throws with a summary of what went wrong.
    await mock.verify("weather-agent", "loop");
    // What the agent was answered, provider-neutral: tool calls in order, with their arguments.
    const journal = await mock.admin.journal("weather-agent", "loop");
    expect(journal.map((e) => e.step)).toEqual(["ask-tool", "answer"]);
    const calls = journal.flatMap((e) => e.canonical?.answered?.toolCalls ?? []);
    expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([["get_weather", { city: "Paris" }]]);
  });

  it("streams the same scenario", async () => {
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: mock.openaiBaseURL("weather-agent", "stream") });
    const stream = await openai.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "weather?" }],
      tools,
      stream: true,
    });
    let args = "";
    for await (const chunk of stream) args += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? "";
    expect(JSON.parse(args)).toEqual({ city: "Paris" });
  });

  it("the SDK retries scripted failures", async () => {
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: mock.openaiBaseURL("flaky", "retries") });
    const res = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    expect(res.choices[0]?.message.content).toBe("Made it.");
    const outcomes = (await mock.admin.journal("flaky", "retries")).map((e) => `${e.outcome} ${e.status}`);
    expect(outcomes).toEqual(["failure 429", "failure 503", "response 200"]);
  });

  it("a request the scenario does not expect fails loudly, with the reason", async () => {
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: mock.openaiBaseURL("weather-agent", "no-tools"), maxRetries: 0 });
    const err = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "weather?" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain("mockllm: ");
    expect((err as Error).message).toContain("get_weather");
  });
});
