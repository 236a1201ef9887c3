// startMockLLM: two instances started in parallel once for the file (parallel start is itself
// under test), then driven with the official OpenAI SDK.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminClient, scenario, ScenarioValidationError, startMockLLM, type MockLLM } from "../../src/client/index";

const weather = scenario("weather")
  .step((s) => s.match({ lastUserMessage: { contains: "weather" } }).toolCall("get_weather", { city: "Paris" }, { id: "call_1" }))
  .step((s) => s.match({ toolResult: { name: "get_weather" } }).text("Sunny in Paris."));
const flaky = scenario("flaky").step((s) => s.failTimes(2, "rate_limit", { retryAfterMs: 0 }).text("finally"));

let a: MockLLM;
let b: MockLLM;
beforeAll(async () => {
  [a, b] = await Promise.all([startMockLLM({ scenarios: [weather, flaky], adminToken: "fixed-token-for-a" }), startMockLLM({ env: { DEFAULT_WORDS_PER_SECOND: "100" } })]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

describe("startMockLLM", () => {
  it("runs each instance on its own local port with its own token", () => {
    expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(b.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(a.url).not.toBe(b.url);
    expect(a.adminToken).toBe("fixed-token-for-a");
    expect(b.adminToken).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(a.admin.url).toBe(a.url);
  });

  it("builds the SDK base URLs from the contract's prefixes", () => {
    expect(a.openaiBaseURL("weather")).toBe(`${a.url}/s/weather/v1`);
    expect(a.openaiBaseURL("weather", "run-1")).toBe(`${a.url}/s/weather/run-1/v1`);
    expect(a.openaiBaseURL()).toBe(`${a.url}/v1`);
    expect(a.anthropicBaseURL("weather")).toBe(`${a.url}/s/weather`);
    expect(a.anthropicBaseURL("weather", "run-1")).toBe(`${a.url}/s/weather/run-1`);
    expect(a.anthropicBaseURL()).toBe(a.url);
    expect(() => a.openaiBaseURL("weather", "v1")).toThrow('session name "v1" is reserved (v1, v1beta, api)');
    expect(() => a.openaiBaseURL("Weather")).toThrow('scenario name "Weather" must match [a-z0-9][a-z0-9._-]{0,63}');
    expect(() => a.anthropicBaseURL(undefined, "s")).toThrow("a session needs a scenario: pass both");
  });

  it("serves uploaded scenarios to the official OpenAI SDK: tool call, then answer", async () => {
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: a.openaiBaseURL("weather", "sdk") });
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: {} } } }];
    const first = await openai.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "What's the weather?" }],
      tools,
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe("tool_calls");
    expect(call?.type === "function" ? [call.id, call.function.name, JSON.parse(call.function.arguments)] : call).toStrictEqual(["call_1", "get_weather", { city: "Paris" }]);
    const second = await openai.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "What's the weather?" }, first.choices[0]!.message, { role: "tool", tool_call_id: "call_1", content: "sunny" }],
      tools,
    });
    expect(second.choices[0]?.message.content).toBe("Sunny in Paris.");
  });

  it("scripted failures are retried by the SDK until the response", async () => {
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: a.openaiBaseURL("flaky", "retry"), maxRetries: 2 });
    const res = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    expect(res.choices[0]?.message.content).toBe("finally");
    expect((await a.admin.journal("flaky", "retry")).map((e) => [e.outcome, e.status])).toStrictEqual([
      ["failure", 429],
      ["failure", 429],
      ["response", 200],
    ]);
  });

  it("instances are isolated: scenarios and tokens of one are unknown to the other", async () => {
    expect((await b.admin.list()).map((s) => s.name)).not.toContain("weather");
    const crossed = new AdminClient({ url: b.url, token: a.adminToken });
    await expect(crossed.list()).rejects.toMatchObject({ status: 401 });
  });

  it("env sets Worker variables: DEFAULT_WORDS_PER_SECOND paces the default responder", async () => {
    const body = JSON.stringify({
      model: "gpt-4o",
      stream: true,
      messages: [{ role: "user", content: '<|instruction_start|>{"messages":[{"text_message":{"length":60}}]}<|instruction_end|>' }],
    });
    const timed = async (m: MockLLM): Promise<number> => {
      const t0 = performance.now();
      const res = await fetch(`${m.openaiBaseURL()}/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
        body,
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("data: [DONE]");
      return performance.now() - t0;
    };
    const unpaced = await timed(a); // startMockLLM's default: "0", no pacing
    const paced = await timed(b); // 60 words at 100 words/s: about 0.6 s
    expect(paced).toBeGreaterThan(400);
    expect(unpaced).toBeLessThan(paced);
  });

  it("an invalid builder fails before anything starts", async () => {
    const t0 = performance.now();
    await expect(startMockLLM({ scenarios: [scenario("Nope").step((s) => s.text("x"))] })).rejects.toBeInstanceOf(ScenarioValidationError);
    expect(performance.now() - t0).toBeLessThan(200);
  });

  it("Symbol.asyncDispose stops the instance; stop() again is harmless", async () => {
    expect(b[Symbol.asyncDispose]).toBe(b.stop);
    await b[Symbol.asyncDispose]();
    await b.stop();
    await expect(fetch(`${b.url}/healthz`)).rejects.toThrow();
  });
});
