/**
 * Remote MCP (issue 56): a scripted `mcp` server-tool use without `result` makes the mock the MCP client the provider
 * is. Against the session's own `/s/{scenario}/{session}/mcp` (allowed by default), an outside server built with
 * `@modelcontextprotocol/sdk` (allowed through `MCP_ALLOWED_HOSTS`), a host not allowed, and a server that never
 * answers (`MCP_TIMEOUT_MS`) — through the official OpenAI and Anthropic SDKs, on both runtimes.
 */
import Anthropic from "@anthropic-ai/sdk";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

const turn = (name: string, server: string, city: string, responseMode: "json" | "sse" = "json") => ({
  name,
  mcp: {
    responseMode,
    tools: [{ name: "get_weather", description: "Weather", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
    calls: [
      { id: "paris", match: { tool: "get_weather", arguments: { city: "Paris" } }, result: { content: [{ type: "text", text: "18C in Paris" }] } },
      { id: "sunk", match: { tool: "get_weather", arguments: { city: "Atlantis" } }, result: { content: [{ type: "text", text: "no such place" }], isError: true } },
    ],
  },
  steps: [{ id: "turn", consume: false, respond: { serverTools: [{ type: "mcp", server, tool: "get_weather", arguments: { city } }], text: "Done." } }],
});

/** An MCP server made with the official SDK: one tool, stateless, JSON answers. */
async function sdkServer(): Promise<Server> {
  const server = createServer(async (req, res) => {
    const mcp = new McpServer({ name: "outside", version: "1.0.0" });
    mcp.registerTool("shout", { description: "Upper-cases", inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [
        { type: "text", text: text.toUpperCase() },
        { type: "text", text: `!${req.headers.authorization ?? ""}` },
      ],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void transport.close());
    await mcp.connect(transport);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    await transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString()));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

const port = (s: Server) => (s.address() as AddressInfo).port;
const openai = (h: Harness, path: string) => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });
const mcpTool = (label: string, url: string, extra: Record<string, unknown> = {}) =>
  ({ type: "mcp", server_label: label, server_url: url, require_approval: "never", ...extra }) as OpenAI.Responses.Tool;

describe("the session's own MCP server (default: the request's own host)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.upload(turn("rmcp-own", "wx", "Paris"), turn("rmcp-sunk", "wx", "Atlantis"), turn("rmcp-far", "far", "Paris"), turn("rmcp-sse", "wx", "Paris", "sse"));
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it("OpenAI Responses: mcp_list_tools from tools/list, mcp_call output from tools/call; the journal has both", async () => {
    const r = await openai(h, "/s/rmcp-own/t1").responses.create({ model: "gpt-5", input: "Weather?", tools: [mcpTool("wx", `${h.url}/s/rmcp-own/t1/mcp`)] });
    expect(r.output.map((i) => i.type)).toEqual(["mcp_list_tools", "mcp_call", "message"]);
    expect(r.output[0]).toMatchObject({
      type: "mcp_list_tools",
      server_label: "wx",
      tools: [{ name: "get_weather", description: "Weather", input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
    });
    expect(r.output[1]).toMatchObject({ type: "mcp_call", status: "completed", name: "get_weather", arguments: '{"city":"Paris"}', output: "18C in Paris", error: null });
    const journal = await h.journal("rmcp-own", "t1");
    expect(journal.map((e) => e.step ?? e.canonical?.tool ?? e.canonical?.method)).toContain("turn");
    const call = journal.find((e) => e.canonical?.tool === "get_weather");
    expect(call?.canonical).toMatchObject({ tool: "get_weather", arguments: { city: "Paris" }, answered: { text: "18C in Paris" } });
  });

  it("an isError result: mcp_call failed with its text; Anthropic mcp_tool_result is_error", async () => {
    const url = `${h.url}/s/rmcp-sunk/t2/mcp`;
    const r = await openai(h, "/s/rmcp-sunk/t2").responses.create({ model: "gpt-5", input: "Weather?", tools: [mcpTool("wx", url)] });
    expect(r.output[1]).toMatchObject({ type: "mcp_call", status: "failed", output: null, error: { content: [{ type: "text", text: "no such place" }] } });
    const a = new Anthropic({ apiKey: "sk-ant", baseURL: `${h.url}/s/rmcp-sunk/t3`, maxRetries: 0 });
    const m = await a.beta.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [{ role: "user", content: "Weather?" }],
      mcp_servers: [{ type: "url", name: "wx", url: `${h.url}/s/rmcp-sunk/t3/mcp` }],
      betas: ["mcp-client-2025-04-04"],
    });
    expect(m.content.map((b) => b.type)).toEqual(["mcp_tool_use", "mcp_tool_result", "text"]);
    expect(m.content[1]).toMatchObject({ type: "mcp_tool_result", is_error: true, content: [{ type: "text", text: "no such place" }] });
  });

  it("Anthropic: the server's text in mcp_tool_result", async () => {
    const a = new Anthropic({ apiKey: "sk-ant", baseURL: `${h.url}/s/rmcp-own/t4`, maxRetries: 0 });
    const m = await a.beta.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [{ role: "user", content: "Weather?" }],
      mcp_servers: [{ type: "url", name: "wx", url: `${h.url}/s/rmcp-own/t4/mcp` }],
      betas: ["mcp-client-2025-04-04"],
    });
    expect(m.content[1]).toMatchObject({ type: "mcp_tool_result", is_error: false, content: [{ type: "text", text: "18C in Paris" }] });
  });

  it("a call awaiting approval is not made: listed, approval requested, called once approved", async () => {
    const c = openai(h, "/s/rmcp-own/t6");
    const tools = [mcpTool("wx", `${h.url}/s/rmcp-own/t6/mcp`, { require_approval: "always" })];
    const first = await c.responses.create({ model: "gpt-5", input: "Weather?", tools });
    expect(first.output.map((i) => i.type)).toEqual(["mcp_list_tools", "mcp_approval_request"]);
    expect(first.output[0]).toMatchObject({ tools: [{ name: "get_weather", description: "Weather" }] });
    expect((await h.journal("rmcp-own", "t6")).some((e) => e.canonical?.tool === "get_weather")).toBe(false);
    const approve = { type: "mcp_approval_response", approval_request_id: first.output[1]!.id!, approve: true } as const;
    const second = await c.responses.create({ model: "gpt-5", input: [approve], tools, previous_response_id: first.id });
    expect(second.output.map((i) => i.type)).toEqual(["mcp_call", "message"]);
    expect(second.output[0]).toMatchObject({ type: "mcp_call", status: "completed", output: "18C in Paris", approval_request_id: first.output[1]!.id });
    expect((await h.journal("rmcp-own", "t6")).filter((e) => e.canonical?.tool === "get_weather")).toHaveLength(1);
  });

  it("an SSE answer from the server; Anthropic messages.stream carries the result", async () => {
    const r = await openai(h, "/s/rmcp-sse/t7").responses.create({ model: "gpt-5", input: "Weather?", tools: [mcpTool("wx", `${h.url}/s/rmcp-sse/t7/mcp`)] });
    expect(r.output[1]).toMatchObject({ type: "mcp_call", status: "completed", output: "18C in Paris" });
    const a = new Anthropic({ apiKey: "sk-ant", baseURL: `${h.url}/s/rmcp-sse/t8`, maxRetries: 0 });
    const m = await a.beta.messages
      .stream({
        model: "claude-sonnet-4-5",
        max_tokens: 100,
        messages: [{ role: "user", content: "Weather?" }],
        mcp_servers: [{ type: "url", name: "wx", url: `${h.url}/s/rmcp-sse/t8/mcp` }],
        betas: ["mcp-client-2025-04-04"],
      })
      .finalMessage();
    expect(m.content[1]).toMatchObject({ type: "mcp_tool_result", is_error: false, content: [{ type: "text", text: "18C in Paris" }] });
  });

  it("another host is refused by default: the error items, no hang, no 500", async () => {
    const r = await openai(h, "/s/rmcp-far/t5").responses.create({ model: "gpt-5", input: "Weather?", tools: [mcpTool("far", "http://mcp.invalid/mcp")] });
    const message = 'the MCP server host "mcp.invalid" is not allowed on this deployment (MCP_ALLOWED_HOSTS)';
    expect(r.output[0]).toMatchObject({ type: "mcp_list_tools", server_label: "far", tools: [], error: message });
    expect(r.output[1]).toMatchObject({ type: "mcp_call", status: "failed", output: null, error: { content: [{ type: "text", text: message }] } });
  });
});

describe("outside servers allowed by MCP_ALLOWED_HOSTS", () => {
  let h: Harness;
  let outside: Server;
  let silent: Server;
  let odd: Server;
  beforeAll(async () => {
    // Answers by path: garbage, an answer over 1 MB, a redirect to a host not allowed.
    odd = createServer((req, res) => {
      if (req.url === "/garbage") res.writeHead(200, { "content-type": "application/json" }).end("<html>not json</html>");
      else if (req.url === "/huge") res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { pad: "x".repeat(1_100_000) } }));
      else res.writeHead(307, { location: "http://mcp.invalid/mcp" }).end();
    });
    await new Promise<void>((r) => odd.listen(0, "127.0.0.1", r));
    outside = await sdkServer();
    // Takes the request and never answers.
    silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    h = await startHarness({ MCP_ALLOWED_HOSTS: `127.0.0.1:${port(outside)}, 127.0.0.1:${port(silent)},127.0.0.1:${port(odd)}`, MCP_TIMEOUT_MS: "300" });
    await h.upload({
      name: "rmcp-out",
      steps: [{ id: "turn", consume: false, respond: { serverTools: [{ type: "mcp", server: "up", tool: "shout", arguments: { text: "hi" } }], text: "Done." } }],
    });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
    outside?.closeAllConnections();
    outside?.close();
    silent?.closeAllConnections();
    silent?.close();
    odd?.close();
  });

  it.each([
    ["/garbage", "the MCP server answered something that is not JSON-RPC"],
    ["/huge", "the MCP server's answer is larger than 1000000 bytes"],
    ["/moved", "the MCP server answered initialize with a redirect (HTTP 307), which is not followed"],
  ])("%s: the error item", async (path, message) => {
    const tools = [mcpTool("up", `http://127.0.0.1:${port(odd)}${path}`)];
    const r = await openai(h, "/s/rmcp-out/o4").responses.create({ model: "gpt-5", input: "Shout", tools });
    expect(r.output[0]).toMatchObject({ type: "mcp_list_tools", tools: [], error: message });
    expect(r.output[1]).toMatchObject({ type: "mcp_call", status: "failed", error: { content: [{ type: "text", text: message }] } });
  });

  it("calls the SDK server with the request's authorization, and lists its tools", async () => {
    const tools = [mcpTool("up", `http://127.0.0.1:${port(outside)}/mcp`, { authorization: "tok-1" })];
    const r = await openai(h, "/s/rmcp-out/o1").responses.create({ model: "gpt-5", input: "Shout", tools });
    expect(r.output[0]).toMatchObject({ type: "mcp_list_tools", server_label: "up", tools: [{ name: "shout", description: "Upper-cases" }] });
    expect(r.output[1]).toMatchObject({ type: "mcp_call", status: "completed", name: "shout", output: "HI!Bearer tok-1", error: null });
  });

  it("the request's own host is no longer allowed once MCP_ALLOWED_HOSTS is set", async () => {
    const r = await openai(h, "/s/rmcp-out/o2").responses.create({ model: "gpt-5", input: "Shout", tools: [mcpTool("up", `${h.url}/s/rmcp-out/o2/mcp`)] });
    expect(r.output[1]).toMatchObject({ type: "mcp_call", status: "failed", error: { content: [{ type: "text", text: expect.stringContaining("is not allowed on this deployment") }] } });
  });

  it("a server that never answers: the error after MCP_TIMEOUT_MS (JSON and stream)", async () => {
    const tools = [mcpTool("up", `http://127.0.0.1:${port(silent)}/mcp`)];
    const c = openai(h, "/s/rmcp-out/o3");
    const r = await c.responses.create({ model: "gpt-5", input: "Shout", tools });
    const message = "the MCP server did not answer within 300 ms";
    expect(r.output[0]).toMatchObject({ type: "mcp_list_tools", tools: [], error: message });
    expect(r.output[1]).toMatchObject({ type: "mcp_call", status: "failed", error: { content: [{ type: "text", text: message }] } });
    const final = await c.responses.stream({ model: "gpt-5", input: "Shout", tools }).finalResponse();
    expect(final.output[1]).toMatchObject({ type: "mcp_call", status: "failed", error: { content: [{ type: "text", text: message }] } });
  });
});
