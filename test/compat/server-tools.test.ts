/**
 * Server-side tools (`respond.serverTools`, contract section 11) through the official clients on both runtimes:
 * OpenAI Responses `web_search_call` + `url_citation`, `code_interpreter_call`, `mcp_list_tools`/`mcp_call` (JSON and
 * stream, events in order); Anthropic `server_tool_use` + result blocks with citations, the MCP connector
 * (JSON and `messages.stream`); the matcher `serverTool`.
 */
import Anthropic, { toFile as toAnthropicFile } from "@anthropic-ai/sdk";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { GoogleGenAI } from "@google/genai";
import { Agent, hostedMcpTool, OpenAIProvider, Runner, setTracingDisabled, webSearchTool } from "@openai/agents";
import { generateText, streamText } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SEARCH = {
  type: "web_search",
  query: "paris weather",
  results: [
    { url: "https://example.com/w", title: "Weather", snippet: "Sunny, 24°C" },
    { url: "https://example.com/f", title: "Forecast" },
  ],
};
/** A 1×1 GIF, as a step's `contentBase64` gives a file's exact bytes. */
const GIF = "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==";
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (b: Uint8Array) => [new DataView(b.buffer, b.byteOffset).getUint32(16), new DataView(b.buffer, b.byteOffset).getUint32(20)];
const SCENARIOS = [
  {
    name: "st-search",
    steps: [{ id: "search", consume: false, match: { serverTool: "web_search" }, respond: { serverTools: [SEARCH], text: "It is sunny [1], warm all week [2]." } }],
  },
  {
    name: "st-code",
    steps: [{ id: "code", consume: false, match: { serverTool: ["code_execution"] }, respond: { serverTools: [{ type: "code_execution", code: "print(1+1)", output: "2\n" }], text: "It is 2." } }],
  },
  {
    name: "st-code-files",
    steps: [
      {
        id: "code",
        consume: false,
        match: { serverTool: "code_execution" },
        respond: { serverTools: [{ type: "code_execution", code: "python plot.py", files: [{ name: "out.csv", content: "a,b\n1,2\n" }] }], text: "Saved out.csv." },
      },
    ],
  },
  {
    name: "st-code-picture",
    steps: [
      {
        id: "chart",
        consume: false,
        match: { serverTool: "code_execution" },
        respond: {
          serverTools: [{ type: "code_execution", code: "plt.savefig('chart.png')", files: [{ name: "chart.png" }, { name: "dot.gif", contentBase64: GIF }, { name: "data.csv", content: "x\n1\n" }] }],
          text: "Here is the chart.",
        },
      },
    ],
  },
  {
    name: "st-mcp",
    steps: [
      {
        id: "mcp",
        consume: false,
        match: { serverTool: "mcp" },
        respond: { serverTools: [{ type: "mcp", server: "docs", tool: "search", arguments: { q: "refunds" }, result: "30 days" }], text: "Refunds within 30 days." },
      },
    ],
  },
  {
    name: "st-none",
    steps: [
      { id: "plain", match: { serverTool: "web_search" }, respond: { text: "searched" } },
      { id: "other", respond: { text: "plain" } },
    ],
  },
];

const openai = (path: string) => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });
/** Blocks with what differs per answer replaced: ids (and the ids referring to them), encrypted contents and indexes. */
const noIds = (blocks: unknown[]) =>
  JSON.parse(
    JSON.stringify(blocks)
      .replace(/"(srvtoolu|mcptoolu)_01[A-Za-z0-9]{22}"/g, '"$1"')
      .replace(/"(encrypted_content|encrypted_index)":"Eu[A-Za-z0-9]+"/g, '"$1":"Eu"'),
  );
const anthropic = (path: string) => new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}${path}`, maxRetries: 0 });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("OpenAI Responses with openai", () => {
  it("web_search: a web_search_call (sources when include asks) and url_citation annotations on the [n] markers", async () => {
    const r = await openai("/s/st-search/oa-json").responses.create({
      model: "gpt-5",
      input: "Weather in Paris?",
      tools: [{ type: "web_search" }],
      include: ["web_search_call.action.sources"],
    });
    expect(r.output.map((i) => i.type)).toEqual(["web_search_call", "message"]);
    const call = r.output[0]!;
    expect(call).toEqual({
      id: expect.stringMatching(/^ws_[0-9a-f]{50}$/),
      type: "web_search_call",
      status: "completed",
      action: {
        type: "search",
        query: "paris weather",
        sources: [
          { type: "url", url: "https://example.com/w" },
          { type: "url", url: "https://example.com/f" },
        ],
      },
    });
    const text = r.output[1]!.type === "message" ? r.output[1]!.content[0]! : undefined;
    expect(text).toEqual({
      type: "output_text",
      text: "It is sunny [1], warm all week [2].",
      annotations: [
        { type: "url_citation", end_index: 15, start_index: 12, title: "Weather", url: "https://example.com/w" },
        { type: "url_citation", end_index: 34, start_index: 31, title: "Forecast", url: "https://example.com/f" },
      ],
      logprobs: [],
    });
    expect(r.output_text).toBe("It is sunny [1], warm all week [2].");
    // Without `include`, no sources.
    const bare = await openai("/s/st-search/oa-bare").responses.create({ model: "gpt-5", input: "Weather?", tools: [{ type: "web_search_preview" }] });
    expect(bare.output[0]).toMatchObject({ type: "web_search_call", action: { type: "search", query: "paris weather" } });
    expect((bare.output[0] as unknown as { action: Record<string, unknown> }).action.sources).toBeUndefined();
  });

  it("web_search stream: added, in_progress, searching, completed, done, then the message; the final response equals the JSON one", async () => {
    const c = openai("/s/st-search/oa-stream");
    const stream = c.responses.stream({ model: "gpt-5", input: "Weather in Paris?", tools: [{ type: "web_search" }] });
    const types: string[] = [];
    for await (const e of stream) types.push(e.type);
    const final = await stream.finalResponse();
    expect(types.slice(0, 8)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.web_search_call.in_progress",
      "response.web_search_call.searching",
      "response.web_search_call.completed",
      "response.output_item.done",
      "response.output_item.added",
    ]);
    expect(types.at(-1)).toBe("response.completed");
    expect(final.output.map((i) => i.type)).toEqual(["web_search_call", "message"]);
    const part = final.output[1]!.type === "message" ? final.output[1]!.content[0]! : undefined;
    expect(part?.type === "output_text" ? part.annotations.length : -1).toBe(2);
  });

  it("code_interpreter: a run's pictures are image outputs (data URLs) beside the logs when include asks", async () => {
    const c = openai("/s/st-code-picture/oa");
    const tools: OpenAI.Responses.Tool[] = [{ type: "code_interpreter", container: { type: "auto" } }];
    const r = await c.responses.create({ model: "gpt-5", input: "Chart it.", tools, include: ["code_interpreter_call.outputs"] });
    const call = r.output[0] as OpenAI.Responses.ResponseCodeInterpreterToolCall;
    expect(call.outputs!.map((o) => (o.type === "image" ? o.url.slice(0, o.url.indexOf(",") + 1) : o.type))).toEqual(["logs", "data:image/png;base64,", "data:image/gif;base64,"]);
    const png = Buffer.from((call.outputs![1] as { url: string }).url.split(",")[1]!, "base64");
    expect([[...png.subarray(0, 8)], pngSize(png)]).toEqual([PNG_SIGNATURE, [640, 480]]);
    expect((call.outputs![2] as { url: string }).url).toBe(`data:image/gif;base64,${GIF}`);
    // The same picture is the container's file.
    const files = await c.containers.files.list(call.container_id);
    const chart = files.data.find((f) => f.path === "/mnt/data/chart.png")!;
    expect(Buffer.from(await (await c.containers.files.content.retrieve(chart.id, { container_id: call.container_id })).arrayBuffer())).toEqual(png);
    // Without include, no outputs.
    expect((await c.responses.create({ model: "gpt-5", input: "Chart it.", tools })).output[0]).toMatchObject({ type: "code_interpreter_call", outputs: null });
  });

  it("code_interpreter: code, container, logs when include asks; the stream sends the code in deltas", async () => {
    const c = openai("/s/st-code/oa");
    const tools: OpenAI.Responses.Tool[] = [{ type: "code_interpreter", container: { type: "auto" } }];
    const r = await c.responses.create({ model: "gpt-5", input: "1+1?", tools, include: ["code_interpreter_call.outputs"] });
    expect(r.output[0]).toEqual({
      id: expect.stringMatching(/^ci_[0-9a-f]{50}$/),
      type: "code_interpreter_call",
      status: "completed",
      code: "print(1+1)",
      container_id: expect.stringMatching(/^cntr_[0-9a-f]{48}$/),
      outputs: [{ type: "logs", logs: "2\n" }],
    });
    const stream = c.responses.stream({ model: "gpt-5", input: "1+1?", tools });
    const events: { type: string; delta?: string }[] = [];
    for await (const e of stream) events.push({ type: e.type, ...("delta" in e && typeof e.delta === "string" ? { delta: e.delta } : {}) });
    expect(events.slice(2, 9)).toEqual([
      { type: "response.output_item.added" },
      { type: "response.code_interpreter_call.in_progress" },
      { type: "response.code_interpreter_call_code.delta", delta: "print(1+1)" },
      { type: "response.code_interpreter_call_code.done" },
      { type: "response.code_interpreter_call.interpreting" },
      { type: "response.code_interpreter_call.completed" },
      { type: "response.output_item.done" },
    ]);
    expect((await stream.finalResponse()).output[0]).toMatchObject({ type: "code_interpreter_call", code: "print(1+1)", outputs: null });
  });

  it("mcp: mcp_list_tools then mcp_call (JSON and stream)", async () => {
    const c = openai("/s/st-mcp/oa");
    const tools: OpenAI.Responses.Tool[] = [{ type: "mcp", server_label: "docs", server_url: "https://mcp.example.com/mcp", require_approval: "never" }];
    const r = await c.responses.create({ model: "gpt-5", input: "Refunds?", tools });
    expect(r.output.map((i) => i.type)).toEqual(["mcp_list_tools", "mcp_call", "message"]);
    expect(r.output[0]).toMatchObject({ type: "mcp_list_tools", server_label: "docs", tools: [{ name: "search", input_schema: { type: "object", properties: {} } }] });
    expect(r.output[1]).toMatchObject({ type: "mcp_call", status: "completed", server_label: "docs", name: "search", arguments: '{"q":"refunds"}', output: "30 days", error: null });
    const stream = c.responses.stream({ model: "gpt-5", input: "Refunds?", tools });
    const types: string[] = [];
    for await (const e of stream) types.push(e.type);
    expect(types.slice(2, 12)).toEqual([
      "response.output_item.added",
      "response.mcp_list_tools.in_progress",
      "response.mcp_list_tools.completed",
      "response.output_item.done",
      "response.output_item.added",
      "response.mcp_call.in_progress",
      "response.mcp_call_arguments.delta",
      "response.mcp_call_arguments.done",
      "response.mcp_call.completed",
      "response.output_item.done",
    ]);
    expect((await stream.finalResponse()).output[1]).toEqual({ ...r.output[1], id: expect.stringMatching(/^mcp_[0-9a-f]{50}$/) });
  });
});

describe("OpenAI Chat Completions web_search_options with openai", () => {
  it("the message's url_citation annotations (JSON), and one annotations delta after the text (stream)", async () => {
    const c = openai("/s/st-search/chat");
    const params = { model: "gpt-4o-search-preview", messages: [{ role: "user" as const, content: "Weather in Paris?" }], web_search_options: {} };
    const r = await c.chat.completions.create(params);
    expect(r.choices[0]!.message.content).toBe("It is sunny [1], warm all week [2].");
    expect(r.choices[0]!.message.annotations).toEqual([
      { type: "url_citation", url_citation: { end_index: 15, start_index: 12, title: "Weather", url: "https://example.com/w" } },
      { type: "url_citation", url_citation: { end_index: 34, start_index: 31, title: "Forecast", url: "https://example.com/f" } },
    ]);
    const deltas: unknown[] = [];
    let text = "";
    for await (const chunk of await c.chat.completions.create({ ...params, stream: true })) {
      const d = chunk.choices[0]?.delta as { content?: string; annotations?: unknown } | undefined;
      text += d?.content ?? "";
      if (d?.annotations !== undefined) deltas.push(d.annotations);
    }
    expect(text).toBe("It is sunny [1], warm all week [2].");
    expect(deltas).toEqual([r.choices[0]!.message.annotations]);
  });
});

describe("OpenAI Responses MCP approvals with openai", () => {
  const tools: OpenAI.Responses.Tool[] = [{ type: "mcp", server_label: "docs", server_url: "https://mcp.example.com/mcp" }];

  it("require_approval absent (always): mcp_approval_request ends the response; approved in the input, the call runs", async () => {
    const c = openai("/s/st-mcp/approve");
    const first = await c.responses.create({ model: "gpt-5", input: "Refunds?", tools, store: false });
    expect(first.output.map((i) => i.type)).toEqual(["mcp_list_tools", "mcp_approval_request"]);
    const request = first.output[1]!;
    expect(request).toEqual({ id: expect.stringMatching(/^mcpr_[0-9a-f]{50}$/), type: "mcp_approval_request", arguments: '{"q":"refunds"}', name: "search", server_label: "docs" });
    expect(first.output_text).toBe("");
    const input: OpenAI.Responses.ResponseInput = [
      { role: "user", content: "Refunds?" },
      ...(first.output as OpenAI.Responses.ResponseInputItem[]),
      { type: "mcp_approval_response", approval_request_id: request.id!, approve: true },
    ];
    const second = await c.responses.create({ model: "gpt-5", input, tools, store: false });
    expect(second.output.map((i) => i.type)).toEqual(["mcp_call", "message"]);
    expect(second.output[0]).toMatchObject({ type: "mcp_call", approval_request_id: request.id, name: "search", output: "30 days" });
    expect(second.output_text).toBe("Refunds within 30 days.");
  });

  it("approved through previous_response_id (stream); refused: no call", async () => {
    const c = openai("/s/st-mcp/approve-prev");
    const first = await c.responses.stream({ model: "gpt-5", input: "Refunds?", tools }).finalResponse();
    expect(first.output.map((i) => i.type)).toEqual(["mcp_list_tools", "mcp_approval_request"]);
    const id = first.output[1]!.id!;
    const second = await c.responses.create({ model: "gpt-5", previous_response_id: first.id, input: [{ type: "mcp_approval_response", approval_request_id: id, approve: true }], tools });
    expect(second.output.map((i) => i.type)).toEqual(["mcp_call", "message"]);
    const refused = await c.responses.create({ model: "gpt-5", previous_response_id: first.id, input: [{ type: "mcp_approval_response", approval_request_id: id, approve: false }], tools });
    expect(refused.output.map((i) => i.type)).toEqual(["message"]);
  });

  it("an approval request in the input whose label or name is no string approves nothing (asked again, never a 500)", async () => {
    const c = openai("/s/st-mcp/approve-odd");
    const odd = { toString: 1 } as unknown as string;
    for (const request of [
      { type: "mcp_approval_request", id: "mcpr_odd", arguments: '{"q":"refunds"}', name: "search", server_label: odd },
      { type: "mcp_approval_request", id: "mcpr_odd", arguments: '{"q":"refunds"}', name: odd, server_label: "docs" },
    ] as OpenAI.Responses.ResponseInputItem[]) {
      const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: "Refunds?" }, request, { type: "mcp_approval_response", approval_request_id: "mcpr_odd", approve: true }];
      const r = await c.responses.create({ model: "gpt-5", input, tools, store: false });
      expect(r.output.map((i) => i.type)).toEqual(["mcp_list_tools", "mcp_approval_request"]);
    }
  });
});

describe("Anthropic Messages with @anthropic-ai/sdk", () => {
  const webSearch = [{ type: "web_search_20250305" as const, name: "web_search" as const, max_uses: 3 }];

  it("web search: server_tool_use, web_search_tool_result, text with citations, usage.server_tool_use (JSON = stream)", async () => {
    const c = anthropic("/s/st-search/an");
    const params = { model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user" as const, content: "Weather in Paris?" }], tools: webSearch };
    const m = await c.messages.create(params);
    expect(m.content.map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result", "text"]);
    const use = m.content[0]!;
    expect(use).toEqual({ type: "server_tool_use", id: expect.stringMatching(/^srvtoolu_01[A-Za-z0-9]{22}$/), name: "web_search", input: { query: "paris weather" }, caller: { type: "direct" } });
    expect(m.content[1]).toEqual({
      type: "web_search_tool_result",
      tool_use_id: use.type === "server_tool_use" ? use.id : "",
      content: [
        { type: "web_search_result", title: "Weather", url: "https://example.com/w", encrypted_content: expect.stringMatching(/^Eu/), page_age: null },
        { type: "web_search_result", title: "Forecast", url: "https://example.com/f", encrypted_content: expect.stringMatching(/^Eu/), page_age: null },
      ],
    });
    const text = m.content[2]!;
    expect(text.type === "text" ? text.citations?.map((c) => (c.type === "web_search_result_location" ? [c.url, c.title, c.cited_text] : [])) : null).toEqual([
      ["https://example.com/w", "Weather", "Sunny, 24°C"],
      ["https://example.com/f", "Forecast", "Forecast"],
    ]);
    expect(m.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
    const final = await c.messages.stream(params).finalMessage();
    expect(noIds(final.content)).toEqual(noIds(m.content));
    expect(final.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
  });

  it("the blocks sent back in the next turn's assistant message are accepted (multi-turn agents)", async () => {
    const c = anthropic("/s/st-search/an-turns");
    const params = { model: "claude-sonnet-4-5", max_tokens: 1024, tools: webSearch };
    const m = await c.messages.create({ ...params, messages: [{ role: "user", content: "Weather in Paris?" }] });
    const next = await c.messages.create({
      ...params,
      messages: [
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: m.content as Anthropic.ContentBlockParam[] },
        { role: "user", content: "And tomorrow?" },
      ],
    });
    expect(next.content.map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result", "text"]);
  });

  it("code execution (20250825 and later): bash_code_execution and its result, the message's container (JSON = stream)", async () => {
    const c = anthropic("/s/st-code/an");
    const params = {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user" as const, content: "1+1?" }],
      tools: [{ type: "code_execution_20250825" as const, name: "code_execution" as const }],
    };
    const m = await c.beta.messages.create({ ...params, betas: ["code-execution-2025-08-25"] } as never);
    const blocks = (m as unknown as Anthropic.Message).content as unknown as Record<string, unknown>[];
    expect(blocks.map((b) => b.type)).toEqual(["server_tool_use", "bash_code_execution_tool_result", "text"]);
    expect(blocks[0]).toMatchObject({ name: "bash_code_execution", input: { command: "print(1+1)" } });
    expect(blocks[1]).toEqual({
      type: "bash_code_execution_tool_result",
      tool_use_id: blocks[0]!.id,
      content: { type: "bash_code_execution_result", stdout: "2\n", stderr: "", return_code: 0, content: [] },
    });
    const container = (m as unknown as { container: { id: string; expires_at: string; skills: null } }).container;
    expect(container).toEqual({ id: expect.stringMatching(/^container_011C[0-9A-Za-z]{22}$/), expires_at: expect.any(String), skills: null });
    expect(Date.parse(container.expires_at)).toBeGreaterThan(Date.now());
    const final = await c.beta.messages.stream({ ...params, betas: ["code-execution-2025-08-25"] } as never).finalMessage();
    expect(noIds(final.content)).toEqual(noIds(blocks));
    expect((final as unknown as { container: { id: string } }).container.id).toMatch(/^container_011C/);
  });

  it("code execution (20250522): the Python form, code_execution_tool_result; the request's container is named back", async () => {
    const c = anthropic("/s/st-code/an-py");
    const m = await c.beta.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: "1+1?" }],
      tools: [{ type: "code_execution_20250522", name: "code_execution" }],
      container: "container_011CmyOwn",
      betas: ["code-execution-2025-05-22"],
    } as never);
    const blocks = (m as unknown as Anthropic.Message).content as unknown as Record<string, unknown>[];
    expect(blocks.map((b) => b.type)).toEqual(["server_tool_use", "code_execution_tool_result", "text"]);
    expect(blocks[0]).toMatchObject({ name: "code_execution", input: { code: "print(1+1)" } });
    expect(blocks[1]).toEqual({ type: "code_execution_tool_result", tool_use_id: blocks[0]!.id, content: { type: "code_execution_result", stdout: "2\n", stderr: "", return_code: 0, content: [] } });
    expect((m as unknown as { container: { id: string } }).container.id).toBe("container_011CmyOwn");
  });

  it("code execution's files: output blocks name Files API files the client downloads; uploads stay not downloadable", async () => {
    const c = anthropic("/s/st-code-files/an");
    const m = await c.beta.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: "plot" }],
      tools: [{ type: "code_execution_20250825", name: "code_execution" }],
      betas: ["code-execution-2025-08-25", "files-api-2025-04-14"],
    } as never);
    const result = (m.content as unknown as Record<string, any>[])[1]!;
    expect(result.content.content).toEqual([{ type: "bash_code_execution_output", file_id: expect.stringMatching(/^file_011C[0-9A-Za-z]{22}$/) }]);
    const fileId: string = result.content.content[0].file_id;
    const meta = await c.beta.files.retrieveMetadata(fileId);
    expect(meta).toMatchObject({ id: fileId, filename: "out.csv", mime_type: "text/csv", size_bytes: 8, downloadable: true });
    expect(await (await c.beta.files.download(fileId)).text()).toBe("a,b\n1,2\n");
    const upload = await c.beta.files.upload({ file: await toAnthropicFile(Buffer.from("mine"), "mine.txt") });
    expect(upload.downloadable).toBe(false);
    await expect(c.beta.files.download(upload.id)).rejects.toMatchObject({ status: 400 });
  });

  it("code execution's pictures are Files API files of their media type, with their bytes", async () => {
    const c = anthropic("/s/st-code-picture/an");
    const m = await c.beta.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: "chart" }],
      tools: [{ type: "code_execution_20250825", name: "code_execution" }],
      betas: ["code-execution-2025-08-25", "files-api-2025-04-14"],
    } as never);
    const ids: string[] = (m.content as unknown as Record<string, any>[])[1]!.content.content.map((o: { file_id: string }) => o.file_id);
    const metas = await Promise.all(ids.map((id) => c.beta.files.retrieveMetadata(id)));
    expect(metas.map((f) => [f.filename, f.mime_type])).toEqual([
      ["chart.png", "image/png"],
      ["dot.gif", "image/gif"],
      ["data.csv", "text/csv"],
    ]);
    const png = new Uint8Array(await (await c.beta.files.download(ids[0]!)).arrayBuffer());
    expect([[...png.subarray(0, 8)], pngSize(png), metas[0]!.size_bytes]).toEqual([PNG_SIGNATURE, [640, 480], png.length]);
    expect(Buffer.from(await (await c.beta.files.download(ids[1]!)).arrayBuffer()).toString("base64")).toBe(GIF);
  });

  it("MCP connector: mcp_tool_use and mcp_tool_result (beta, JSON = stream)", async () => {
    const c = anthropic("/s/st-mcp/an");
    const params = {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user" as const, content: "Refunds?" }],
      mcp_servers: [{ type: "url" as const, url: "https://mcp.example.com/mcp", name: "docs" }],
      betas: ["mcp-client-2025-04-04" as const],
    };
    const m = await c.beta.messages.create(params);
    expect(m.content.map((b) => b.type)).toEqual(["mcp_tool_use", "mcp_tool_result", "text"]);
    expect(m.content[0]).toEqual({ type: "mcp_tool_use", id: expect.stringMatching(/^mcptoolu_01/), name: "search", server_name: "docs", input: { q: "refunds" } });
    expect(m.content[1]).toMatchObject({ type: "mcp_tool_result", is_error: false, content: [{ type: "text", text: "30 days" }] });
    const final = await c.beta.messages.stream(params).finalMessage();
    expect(noIds(final.content)).toEqual(noIds(m.content));
  });
});

describe("Gemini generateContent with @google/genai", () => {
  const gemini = (path: string) => new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: `${h.url}${path}` } });

  it("googleSearch: groundingMetadata with chunks, supports on the [n] markers, queries and the entry point (JSON = stream's last chunk)", async () => {
    const ai = gemini("/s/st-search/gm");
    const params = { model: "gemini-2.5-flash", contents: "Weather in Paris?", config: { tools: [{ googleSearch: {} }] } };
    const r = await ai.models.generateContent(params);
    expect(r.text).toBe("It is sunny [1], warm all week [2].");
    const g = r.candidates?.[0]?.groundingMetadata;
    expect(g?.webSearchQueries).toEqual(["paris weather"]);
    expect(g?.groundingChunks).toEqual([{ web: { uri: "https://example.com/w", title: "Weather" } }, { web: { uri: "https://example.com/f", title: "Forecast" } }]);
    expect(g?.groundingSupports).toEqual([
      { segment: { startIndex: 0, endIndex: 15, text: "It is sunny [1]" }, groundingChunkIndices: [0] },
      { segment: { startIndex: 17, endIndex: 34, text: "warm all week [2]" }, groundingChunkIndices: [1] },
    ]);
    expect(g?.searchEntryPoint?.renderedContent).toContain('href="https://www.google.com/search?q=paris%20weather"');
    const chunks = [];
    for await (const c of await ai.models.generateContentStream(params)) chunks.push(c);
    expect(chunks.at(-1)?.candidates?.[0]?.groundingMetadata).toEqual(g);
    expect(chunks.slice(0, -1).every((c) => c.candidates?.[0]?.groundingMetadata === undefined)).toBe(true);
  });

  it("codeExecution: a run's pictures are inlineData parts after its result", async () => {
    const ai = gemini("/s/st-code-picture/gm");
    const r = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: "Chart it.", config: { tools: [{ codeExecution: {} }] } });
    const parts = r.candidates?.[0]?.content?.parts ?? [];
    expect(parts.map((p) => Object.keys(p).find((k) => k !== "thoughtSignature"))).toEqual(["executableCode", "codeExecutionResult", "inlineData", "inlineData", "text"]);
    expect(parts.slice(2, 4).map((p) => p.inlineData?.mimeType)).toEqual(["image/png", "image/gif"]);
    const png = Buffer.from(parts[2]!.inlineData!.data!, "base64");
    expect([[...png.subarray(0, 8)], pngSize(png)]).toEqual([PNG_SIGNATURE, [640, 480]]);
    expect(parts[3]!.inlineData!.data).toBe(GIF);
    expect(r.text).toBe("Here is the chart.");
  });

  it("codeExecution: executableCode and codeExecutionResult parts before the text", async () => {
    const ai = gemini("/s/st-code/gm");
    const r = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: "1+1?", config: { tools: [{ codeExecution: {} }] } });
    expect(r.candidates?.[0]?.content?.parts).toEqual([
      { executableCode: { language: "PYTHON", code: "print(1+1)" } },
      { codeExecutionResult: { outcome: "OUTCOME_OK", output: "2\n" } },
      { text: "It is 2." },
    ]);
    expect(r.executableCode).toBe("print(1+1)");
    const next = await ai.models.generateContent({
      model: "gemini-2.5-flash",
      contents: [{ role: "user", parts: [{ text: "1+1?" }] }, r.candidates![0]!.content!, { role: "user", parts: [{ text: "And 2+2?" }] }],
      config: { tools: [{ codeExecution: {} }] },
    });
    expect(next.text).toBe("It is 2.");
    expect(r.codeExecutionResult).toBe("2\n");
  });
});

describe("the default responder (no scenario), offered a server tool with a choice forcing it", () => {
  it("OpenAI tool_choice web_search_preview: a search with example.com results, cited", async () => {
    const r = await openai("").responses.create({
      model: "gpt-5",
      input: "paris weather",
      tools: [{ type: "web_search_preview" }],
      tool_choice: { type: "web_search_preview" },
      include: ["web_search_call.action.sources"],
    });
    expect(r.output[0]).toMatchObject({
      type: "web_search_call",
      action: {
        type: "search",
        query: "paris weather",
        sources: [
          { type: "url", url: "https://example.com/paris-weather" },
          { type: "url", url: "https://example.org/paris-weather" },
        ],
      },
    });
    expect(r.output_text).toBe("Example.com covers paris weather [1], and example.org adds more [2].");
    const part = r.output[1]!.type === "message" ? r.output[1]!.content[0]! : undefined;
    expect(part?.type === "output_text" ? part.annotations.map((a) => (a.type === "url_citation" ? a.url : "")) : []).toEqual([
      "https://example.com/paris-weather",
      "https://example.org/paris-weather",
    ]);
    // Not forced: the usual lorem answer, no server tool.
    const plain = await openai("").responses.create({ model: "gpt-5", input: "paris weather", tools: [{ type: "web_search" }] });
    expect(plain.output.map((i) => i.type)).toEqual(["message"]);
  });

  it("OpenAI tool_choice code_interpreter: a code run echoing the message", async () => {
    const r = await openai("").responses.create({
      model: "gpt-5",
      input: "hello",
      tools: [{ type: "code_interpreter", container: { type: "auto" } }],
      tool_choice: { type: "code_interpreter" } as never,
      include: ["code_interpreter_call.outputs"],
    });
    expect(r.output[0]).toMatchObject({ type: "code_interpreter_call", code: 'print("hello")', outputs: [{ type: "logs", logs: "hello\n" }] });
    expect(r.output_text).toBe("The code printed: hello");
  });

  it("Anthropic tool_choice { type: tool, name: web_search }: server_tool_use, results, cited text", async () => {
    const m = await anthropic("").messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: "paris weather" }],
      tools: [{ type: "web_search_20250305", name: "web_search" }],
      tool_choice: { type: "tool", name: "web_search" },
    });
    expect(m.content.map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result", "text"]);
    expect(m.content[0]).toMatchObject({ name: "web_search", input: { query: "paris weather" } });
    expect(m.stop_reason).toBe("end_turn");
    expect(m.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
  });
});

describe("the AI SDK's provider-defined tools", () => {
  it("@ai-sdk/openai openai.tools.webSearch: the search as a provider-executed tool call and result, the citations as sources", async () => {
    const provider = createOpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/st-search/ai-oa/v1` });
    const r = await generateText({ model: provider.responses("gpt-5"), prompt: "Weather in Paris?", tools: { web_search: provider.tools.webSearch({}) } });
    expect(r.text).toBe("It is sunny [1], warm all week [2].");
    // The AI SDK asks for `web_search_call.action.sources` and, having them, skips the url_citation annotations.
    expect(r.sources.map((s) => (s.sourceType === "url" ? s.url : ""))).toEqual(["https://example.com/w", "https://example.com/f"]);
    expect(r.toolCalls.map((c) => [c.toolName, c.providerExecuted])).toEqual([["web_search", true]]);
    const s = streamText({ model: provider.responses("gpt-5"), prompt: "Weather in Paris?", tools: { web_search: provider.tools.webSearch({}) } });
    expect(await s.text).toBe("It is sunny [1], warm all week [2].");
    expect((await s.sources).map((x) => (x.sourceType === "url" ? x.url : ""))).toEqual(["https://example.com/w", "https://example.com/f"]);
  });

  it("@ai-sdk/anthropic webSearch_20250305: the search's results as sources (JSON and stream)", async () => {
    const provider = createAnthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}/s/st-search/ai-an/v1` });
    const tools = { web_search: provider.tools.webSearch_20250305({ maxUses: 3 }) };
    const r = await generateText({ model: provider("claude-sonnet-4-5"), prompt: "Weather in Paris?", tools });
    expect(r.text).toBe("It is sunny [1], warm all week [2].");
    expect(r.sources.map((s) => (s.sourceType === "url" ? s.url : ""))).toEqual(expect.arrayContaining(["https://example.com/w", "https://example.com/f"]));
    const s = streamText({ model: provider("claude-sonnet-4-5"), prompt: "Weather in Paris?", tools });
    expect(await s.text).toBe("It is sunny [1], warm all week [2].");
    expect((await s.sources).map((x) => (x.sourceType === "url" ? x.url : ""))).toEqual(expect.arrayContaining(["https://example.com/w", "https://example.com/f"]));
  });
});

describe("the OpenAI Agents SDK's hosted tools", () => {
  const runner = (path: string) => {
    setTracingDisabled(true);
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });
    return new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client, useResponses: true }), tracingDisabled: true });
  };

  it("webSearchTool: the run's final output is the cited text", async () => {
    const agent = new Agent({ name: "Searcher", instructions: "Search.", model: "gpt-4.1", tools: [webSearchTool()] });
    const result = await runner("/s/st-search/agents").run(agent, "Weather in Paris?");
    expect(result.finalOutput).toBe("It is sunny [1], warm all week [2].");
    expect(result.newItems.map((i) => i.type)).toEqual(["tool_call_item", "message_output_item"]);
  });

  it("hostedMcpTool (requireApproval never): the mcp_call, then the answer", async () => {
    const agent = new Agent({
      name: "Docs",
      instructions: "Use docs.",
      model: "gpt-4.1",
      tools: [hostedMcpTool({ serverLabel: "docs", serverUrl: "https://mcp.example.com/mcp", requireApproval: "never" })],
    });
    const result = await runner("/s/st-mcp/agents").run(agent, "Refunds?");
    expect(result.finalOutput).toBe("Refunds within 30 days.");
    expect(result.newItems.map((i) => i.type)).toContain("message_output_item");
  });
});

describe("verify and coverage", () => {
  it("count the server-tool uses answered, per kind", async () => {
    const c = openai("/s/st-search/counted");
    await c.responses.create({ model: "gpt-5", input: "Weather?", tools: [{ type: "web_search" }] });
    await c.responses.create({ model: "gpt-5", input: "Weather again?", tools: [{ type: "web_search" }] });
    const journal = await h.journal("st-search", "counted");
    expect(journal.map((e) => e.canonical.answered.serverTools)).toEqual([["web_search"], ["web_search"]]);
    const verify = (await (await h.admin("/sessions/st-search/counted/verify")).json()) as Record<string, unknown>;
    expect([verify.ok, verify.serverToolUses]).toEqual([true, { web_search: 2 }]);
    const coverage = (await (await h.admin("/scenarios/st-code/coverage")).json()) as Record<string, unknown>;
    expect(coverage.serverToolUses).toEqual({ code_execution: expect.any(Number) });
  });
});

describe("matcher serverTool", () => {
  it("holds only when the request offers the tool", async () => {
    const c = openai("/s/st-none/m");
    const plain = await c.responses.create({ model: "gpt-5", input: "Hi", tools: [{ type: "function", name: "f", parameters: {}, strict: false }] });
    expect(plain.output_text).toBe("plain");
    const searched = await c.responses.create({ model: "gpt-5", input: "Hi", tools: [{ type: "web_search" }] });
    expect(searched.output_text).toBe("searched");
    const journal = await h.journal("st-none", "m");
    expect(journal.map((e) => [e.step, e.canonical.serverTools ?? null])).toEqual([
      ["other", null],
      ["plain", ["web_search"]],
    ]);
  });
});
