/**
 * The OpenAI Agents SDK with an MCP server: the model (Responses API) and the agent's MCP tool server
 * (`MCPServerStreamableHttp`) are both the same mockllm session, on both runtimes. Tracing is disabled.
 */
import { Agent, MCPServerStreamableHttp, OpenAIProvider, Runner, setTracingDisabled } from "@openai/agents";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIO = {
  name: "agents-mcp",
  steps: [
    {
      id: "ask",
      match: { turn: 1, tools: ["get_weather"] },
      respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Lisbon" } }] },
    },
    { id: "answer", match: { toolResult: { content: { contains: "21C" } } }, respond: { text: "Lisbon: 21C and sunny." } },
  ],
  mcp: {
    responseMode: "sse",
    tools: [{ name: "get_weather", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
    calls: [{ id: "lisbon", match: { tool: "get_weather", arguments: { city: "Lisbon" } }, result: { content: [{ type: "text", text: "21C and sunny in {{args.city}}" }] } }],
  },
};

beforeAll(async () => {
  setTracingDisabled(true);
  h = await startHarness();
  await h.upload(SCENARIO);
}, 120_000);
afterAll(() => h?.stop());

describe("Agents SDK with an MCP server", () => {
  it("lists the MCP tool, the model calls it, the agent calls mockllm's MCP server, the final output follows; verify ok", async () => {
    const session = `${h.url}/s/agents-mcp/run`;
    const server = new MCPServerStreamableHttp({ url: `${session}/mcp`, name: "weather" });
    await server.connect();
    try {
      const client = new OpenAI({ apiKey: "sk-test", baseURL: `${session}/v1`, maxRetries: 0 });
      const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client, useResponses: true }), tracingDisabled: true });
      const agent = new Agent({ name: "Weather agent", instructions: "Answer weather questions.", model: "gpt-4.1", mcpServers: [server] });
      const result = await runner.run(agent, "What's the weather in Lisbon?");
      expect(result.finalOutput).toBe("Lisbon: 21C and sunny.");
    } finally {
      await server.close();
    }
    const journal = await h.journal("agents-mcp", "run");
    expect(journal.map((e) => `${e.provider} ${e.endpoint} ${e.step} ${e.outcome}`)).toEqual(["openai responses ask response", "mcp tools/call lisbon response", "openai responses answer response"]);
    const verdict = await (await h.admin("/sessions/agents-mcp/run/verify")).json();
    expect(verdict).toMatchObject({ ok: true, unusedMcpCalls: [], mismatches: [] });
  });
});
