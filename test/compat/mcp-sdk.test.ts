/**
 * The official MCP TypeScript SDK (`@modelcontextprotocol/sdk` Client + StreamableHTTPClientTransport) against the
 * session's scripted MCP server, in JSON and SSE response modes, on both runtimes (harness.ts).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminClient } from "../../src/client/admin";
import { startHarness, type Harness } from "./harness";

let h: Harness;

function scenario(name: string, responseMode: "json" | "sse") {
  return {
    name,
    variables: { unit: "C" },
    steps: [],
    mcp: {
      responseMode,
      tools: [{ name: "get_weather", description: "Weather", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }, { name: "flaky" }],
      resources: [{ uri: "file:///notes.txt", name: "notes", mimeType: "text/plain", text: "umbrella" }],
      prompts: [{ name: "ask", arguments: [{ name: "city", required: true }], messages: [{ role: "user", content: { type: "text", text: "Weather in {{args.city}}?" } }] }],
      calls: [
        { id: "paris", match: { tool: "get_weather", arguments: { city: "Paris" } }, result: { content: [{ type: "text", text: "18{{vars.unit}} in {{args.city}}" }] } },
        { id: "flaky", match: { tool: "flaky" }, failuresBeforeSuccess: 2, error: { code: -32000, message: "try again" }, result: { content: [{ type: "text", text: "ok now" }] } },
        { id: "sunk", match: { tool: "get_weather", arguments: { city: "Atlantis" } }, result: { content: [{ type: "text", text: "no such place" }], isError: true } },
        {
          id: "slow",
          match: { tool: "get_weather", arguments: { city: "Slowtown" } },
          progress: [
            { progress: 1, total: 3 },
            { progress: 2, total: 3, message: "almost" },
          ],
          delayMs: 30,
          result: { content: [{ type: "text", text: "eventually" }] },
        },
      ],
    },
  };
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(scenario("mcp-sdk-json", "json"), scenario("mcp-sdk-sse", "sse"));
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "compat", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const first = (result.content as { type: string; text?: string }[])[0];
  return first?.text ?? "";
}

describe.each(["json", "sse"] as const)("MCP SDK client, responseMode %s", (mode) => {
  const name = `mcp-sdk-${mode}`;

  it("connects (latest protocol), lists tools, resources and prompts, and calls a tool", async () => {
    const { client, transport } = await connect(`${h.url}/s/${name}/list/mcp`);
    expect(transport.sessionId).toMatch(/^mcp-/);
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerVersion()?.name).toBe(`mockllm/${name}`);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["get_weather", "flaky"]);
    expect((await client.listResources()).resources).toEqual([{ uri: "file:///notes.txt", name: "notes", mimeType: "text/plain" }]);
    expect((await client.readResource({ uri: "file:///notes.txt" })).contents).toEqual([{ uri: "file:///notes.txt", mimeType: "text/plain", text: "umbrella" }]);
    expect((await client.getPrompt({ name: "ask", arguments: { city: "Lima" } })).messages).toEqual([{ role: "user", content: { type: "text", text: "Weather in Lima?" } }]);
    await client.ping();
    const paris = await client.callTool({ name: "get_weather", arguments: { city: "Paris" } });
    expect(textOf(paris)).toBe("18C in Paris");
    expect(paris.isError).toBeUndefined();
    await client.close();
  });

  it("failures then success, an isError result, and a mismatch as McpError -32602", async () => {
    const { client } = await connect(`${h.url}/s/${name}/fail/mcp`);
    for (let i = 0; i < 2; i++) {
      const err = await client.callTool({ name: "flaky", arguments: {} }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(-32000);
      expect((err as McpError).message).toContain("try again");
    }
    expect(textOf(await client.callTool({ name: "flaky", arguments: {} }))).toBe("ok now");
    const sunk = await client.callTool({ name: "get_weather", arguments: { city: "Atlantis" } });
    expect(sunk.isError).toBe(true);
    expect(textOf(sunk)).toBe("no such place");
    const miss = await client.callTool({ name: "get_weather", arguments: { city: "Rome" } }).catch((e: unknown) => e);
    expect(miss).toBeInstanceOf(McpError);
    expect((miss as McpError).code).toBe(-32602);
    expect((miss as McpError).message).toContain('no mcp call matches; nearest call "paris" failed');
    await client.close();
    // The toolkit's admin client parses MCP entries and verify's MCP fields.
    const adminClient = new AdminClient({ url: h.url, token: h.adminToken });
    const journal = await adminClient.journal(name, "fail");
    expect(journal[3]!.canonical).toMatchObject({ tool: "get_weather", arguments: { city: "Atlantis" }, result: { isError: true }, answered: { text: "no such place" } });
    const verdict = await adminClient.verify(name, "fail");
    expect(verdict.unusedMcpCalls?.map((c) => c.id)).toEqual(["paris", "slow"]);
    expect(verdict.mismatches[0]!.mcp).toEqual({ tool: "get_weather", arguments: { city: "Rome" } });
    expect(journal.map((e) => `${e.surface} ${e.step} ${e.outcome}`)).toEqual(["mcp flaky failure", "mcp flaky failure", "mcp flaky response", "mcp sunk response", "mcp paris mismatch"]);
  });

  it(mode === "sse" ? "progress notifications reach onprogress before the result" : "no progress over JSON; the delayed result arrives", async () => {
    const { client } = await connect(`${h.url}/s/${name}/progress/mcp`);
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: "get_weather", arguments: { city: "Slowtown" } }, undefined, { onprogress: (p) => seen.push(p) });
    expect(textOf(result)).toBe("eventually");
    expect(seen).toEqual(
      mode === "sse"
        ? [
            { progress: 1, total: 3 },
            { progress: 2, total: 3, message: "almost" },
          ]
        : [],
    );
    await client.close();
  });

  it("re-initialises after a 404 (session reset), and terminateSession ends the MCP session with DELETE", async () => {
    const url = `${h.url}/s/${name}/reinit/mcp`;
    const first = await connect(url);
    const oldId = first.transport.sessionId;
    expect((await h.admin(`/sessions/${name}/reinit/reset`, { method: "POST" })).status).toBe(200);
    const gone = await first.client.listTools().catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(StreamableHTTPError);
    expect((gone as StreamableHTTPError).code).toBe(404);
    await first.client.close();

    const second = await connect(url);
    expect(second.transport.sessionId).not.toBe(oldId);
    expect((await second.client.listTools()).tools).toHaveLength(2);
    const id = second.transport.sessionId!;
    await second.transport.terminateSession();
    expect(second.transport.sessionId).toBeUndefined();
    const after = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": id },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(after.status).toBe(404);
    await second.client.close();
  });
});

describe("bundled scenarios/mcp-weather.json: one script for both sides of the tool loop", () => {
  it("OpenAI SDK for the model, MCP SDK for the tool (busy once, then the answer), verify ok", async () => {
    const { default: OpenAI } = await import("openai");
    const session = `${h.url}/s/mcp-weather/loop`;
    const openai = new OpenAI({ baseURL: `${session}/v1`, apiKey: "sk-test", maxRetries: 0 });
    const tools = [{ type: "function" as const, function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }];
    const messages: Parameters<typeof openai.chat.completions.create>[0]["messages"] = [{ role: "user", content: "What is the weather in Paris?" }];
    const first = await openai.chat.completions.create({ model: "gpt-4o-mini", messages, tools });
    const toolCall = first.choices[0]!.message.tool_calls![0]!;
    expect(toolCall.type === "function" && toolCall.function.name).toBe("get_weather");
    const args = JSON.parse(toolCall.type === "function" ? toolCall.function.arguments : "{}") as Record<string, unknown>;

    const { client } = await connect(`${session}/mcp`);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["get_weather"]);
    const busy = await client.callTool({ name: "get_weather", arguments: args }).catch((e: unknown) => e);
    expect((busy as McpError).code).toBe(-32000);
    const result = await client.callTool({ name: "get_weather", arguments: args });
    expect(textOf(result)).toBe("18C and sunny in Paris");
    await client.close();

    messages.push(first.choices[0]!.message, { role: "tool", tool_call_id: toolCall.id, content: textOf(result) });
    const second = await openai.chat.completions.create({ model: "gpt-4o-mini", messages, tools });
    expect(second.choices[0]!.message.content).toBe("It is 18C and sunny in Paris.");
    const verdict = await (await h.admin("/sessions/mcp-weather/loop/verify")).json();
    expect(verdict).toMatchObject({ ok: true, unusedSteps: [], unusedMcpCalls: [], mismatches: [] });
    const journal = await h.journal("mcp-weather", "loop");
    expect(journal.map((e) => `${e.provider} ${e.step} ${e.outcome}`)).toEqual(["openai ask-tool response", "mcp paris failure", "mcp paris response", "openai answer response"]);
  });
});
