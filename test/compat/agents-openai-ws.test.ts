/**
 * The OpenAI Agents SDK's WebSocket Responses model (`useResponsesWebSocket`, `withResponsesWebSocketSession`)
 * against both runtimes: an agent with one function tool runs over one socket, turn after turn. Tracing is off.
 */
import { Agent, setTracingDisabled, tool } from "@openai/agents";
import { withResponsesWebSocketSession } from "@openai/agents-openai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "agent-ws",
    steps: [
      {
        id: "ask",
        match: { turn: 1, endpoint: "responses", tools: ["get_weather"] },
        expect: { systemPromptMustInclude: ["You answer weather questions."] },
        respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Lisbon" } }] },
      },
      { id: "answer", match: { turn: 2, toolResult: { name: "get_weather", content: { contains: "sunny" } } }, respond: { text: "Lisbon is sunny today." } },
    ],
  },
];

beforeAll(async () => {
  setTracingDisabled(true);
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

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

describe("Agents SDK over the Responses WebSocket mode", () => {
  it("runs the tool and reaches the final output, every model call a socket message", async () => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/agent-ws/run/v1`, maxRetries: 0 });
    const result = await withResponsesWebSocketSession(({ run }) => run(agent, "What's the weather in Lisbon?"), {
      providerOptions: { openAIClient: client },
      runnerConfig: { tracingDisabled: true },
    });
    expect(result.finalOutput).toBe("Lisbon is sunny today.");
    expect(lookups).toEqual(["Lisbon"]);
    const journal = await h.journal("agent-ws", "run");
    expect(journal.map((e) => [e.request.method, e.endpoint, e.step, e.outcome])).toEqual([
      ["WS", "responses", "ask", "response"],
      ["WS", "responses", "answer", "response"],
    ]);
  });
});
