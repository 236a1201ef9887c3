/**
 * The OpenAI Agents SDK (`@openai/agents`) against the Worker over the Responses API: an agent with one function
 * tool runs the scripted tool call and reaches its final output, over HTTP and over the Responses WebSocket mode
 * (the SDK's WebSocket Responses model). Tracing is disabled, so no call leaves the machine.
 */
import { Agent, OpenAIProvider, Runner, setTracingDisabled, tool } from "@openai/agents";
import { withResponsesWebSocketSession } from "@openai/agents-openai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "agent-weather",
    steps: [
      {
        id: "ask",
        match: { turn: 1, endpoint: "responses", tools: ["get_weather"] },
        expect: { systemPromptMustInclude: ["You answer weather questions."] },
        respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Lisbon" } }], usage: { inputTokens: 40, outputTokens: 12 } },
      },
      {
        id: "answer",
        match: { turn: 2, toolResult: { name: "get_weather", content: { contains: "sunny" } } },
        expect: { systemPromptMustInclude: ["You answer weather questions."] },
        respond: { text: "Lisbon is sunny today.", usage: { inputTokens: 60, outputTokens: 6 } },
      },
    ],
  },
];

beforeAll(async () => {
  setTracingDisabled(true);
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

function runner(session: string): Runner {
  const client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/agent-weather/${session}/v1`, maxRetries: 0 });
  return new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client, useResponses: true }), tracingDisabled: true });
}

const lookups: string[] = [];
const agent = new Agent({
  name: "Weather agent",
  instructions: "You answer weather questions.",
  model: "gpt-4.1",
  tools: [
    tool({
      name: "get_weather",
      description: "Current weather for a city",
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        lookups.push(city);
        return `It is sunny in ${city}.`;
      },
    }),
  ],
});

describe("Agents SDK", () => {
  it("runs the function tool and reaches the final output", async () => {
    lookups.length = 0;
    const result = await runner("run").run(agent, "What's the weather in Lisbon?");
    expect(result.finalOutput).toBe("Lisbon is sunny today.");
    expect(lookups).toEqual(["Lisbon"]);
    const journal = await h.journal("agent-weather", "run");
    expect(journal.map((e) => [e.endpoint, e.step, e.turn, e.outcome])).toEqual([
      ["responses", "ask", 1, "response"],
      ["responses", "answer", 2, "response"],
    ]);
    expect(result.state.usage.inputTokens).toBe(100);
  });

  it("does the same when streaming", async () => {
    lookups.length = 0;
    const result = await runner("stream").run(agent, "What's the weather in Lisbon?", { stream: true });
    let text = "";
    for await (const chunk of result.toTextStream()) text += chunk;
    await result.completed;
    expect(text).toBe("Lisbon is sunny today.");
    expect(result.finalOutput).toBe("Lisbon is sunny today.");
    expect(lookups).toEqual(["Lisbon"]);
  });

  it("does the same over the Responses WebSocket mode, every model call a message on one socket", async () => {
    lookups.length = 0;
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/agent-weather/ws/v1`, maxRetries: 0 });
    const result = await withResponsesWebSocketSession(({ run }) => run(agent, "What's the weather in Lisbon?"), {
      providerOptions: { openAIClient: client },
      runnerConfig: { tracingDisabled: true },
    });
    expect(result.finalOutput).toBe("Lisbon is sunny today.");
    expect(lookups).toEqual(["Lisbon"]);
    const journal = await h.journal("agent-weather", "ws");
    expect(journal.map((e) => [e.request.method, e.endpoint, e.step, e.turn, e.outcome])).toEqual([
      ["WS", "responses", "ask", 1, "response"],
      ["WS", "responses", "answer", 2, "response"],
    ]);
  });
});
