/**
 * The scripted MCP server over raw HTTP (contract section 9), on both runtimes: lifecycle and protocol rules, every
 * method, scripted calls (templates, failures, isError, errors, consume, mismatches), SSE with progress, batches,
 * the journal, verify and coverage.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, chat, upload, userTurn } from "./helpers";

const WEATHER = {
  name: "mcp-int",
  variables: { unit: "C" },
  steps: [{ id: "ask", respond: { toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Paris" } }] } }],
  mcp: {
    instructions: "Weather tools.",
    tools: [{ name: "get_weather", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } } } }, { name: "flaky" }],
    resources: [
      { uri: "file:///notes.txt", name: "notes", mimeType: "text/plain", text: "remember the umbrella" },
      { uri: "file:///logo.png", name: "logo", mimeType: "image/png", blob: "iVBORw0K" },
    ],
    prompts: [
      {
        name: "forecast",
        description: "Ask for a forecast",
        arguments: [{ name: "city", required: true }],
        messages: [{ role: "user", content: { type: "text", text: "Forecast for {{args.city}} in {{vars.unit}}" } }],
      },
    ],
    calls: [
      {
        id: "paris",
        match: { tool: "get_weather", arguments: { city: "Paris" } },
        result: { content: [{ type: "text", text: "18{{vars.unit}} in {{args.city}} ({{session}})" }] },
      },
      { id: "flaky", match: { tool: "flaky" }, failuresBeforeSuccess: 2, result: { content: [{ type: "text", text: "finally" }] } },
      { id: "broken", match: { tool: "get_weather", arguments: { city: { contains: "Atlant" } } }, result: { content: [{ type: "text", text: "sunk" }], isError: true } },
      { id: "boom", match: { tool: "get_weather", arguments: { city: "Nowhere" } }, error: { code: -32000, message: "no such city: {{args.city}}" }, consume: false },
    ],
  },
};

const SSE = {
  name: "mcp-int-sse",
  steps: [],
  mcp: {
    responseMode: "sse",
    tools: [{ name: "slow" }],
    calls: [
      {
        id: "slow",
        match: { tool: "slow" },
        progress: [
          { progress: 1, total: 2, message: "half" },
          { progress: 2, total: 2 },
        ],
        result: { content: [{ type: "text", text: "done" }] },
      },
    ],
  },
};

type Json = Record<string, any>;

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function rpc(path: string, method: string, params: Json | undefined, headers: Record<string, string> = {}, id = 1): Promise<Json> {
  const res = await post(path, { jsonrpc: "2.0", id, method, ...(params ? { params } : {}) }, headers);
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

async function initialize(path: string, protocolVersion = "2025-06-18"): Promise<{ sid: string; body: Json }> {
  const res = await post(path, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  expect(res.status).toBe(200);
  const sid = res.headers.get("mcp-session-id");
  expect(sid).toMatch(/^mcp-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  return { sid: sid!, body: (await res.json()) as Json };
}

function text(r: Json): string {
  return r.result.content[0].text;
}

beforeAll(async () => {
  await upload(WEATHER, SSE);
});

describe("MCP lifecycle and protocol rules", () => {
  const path = "/s/mcp-int/life/mcp";

  it("initialize negotiates the version, names the server and assigns an Mcp-Session-Id; initialized is 202", async () => {
    const { sid, body } = await initialize(path, "2025-06-18");
    expect(body.result.protocolVersion).toBe("2025-06-18");
    expect(body.result.serverInfo.name).toBe("mockllm/mcp-int");
    expect(body.result.instructions).toBe("Weather tools.");
    expect(Object.keys(body.result.capabilities).sort()).toEqual(["prompts", "resources", "tools"]);
    const note = await post(path, { jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": sid });
    expect(note.status).toBe(202);
    expect(await note.text()).toBe("");
    const older = await initialize(path, "2024-11-05");
    expect(older.body.result.protocolVersion).toBe("2024-11-05");
    expect(older.sid).not.toBe(sid);
    const future = await initialize(path, "2099-01-01");
    expect(future.body.result.protocolVersion).toBe("2025-11-25");
  });

  it("an unsupported MCP-Protocol-Version header is 400; an unknown Mcp-Session-Id is 404; DELETE ends a session", async () => {
    const { sid } = await initialize(path);
    const bad = await post(path, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-protocol-version": "2023-01-01" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).error.message).toContain('unsupported MCP-Protocol-Version "2023-01-01"');
    expect(await rpc(path, "ping", undefined, { "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" })).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    const unknown = await post(path, { jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": "mcp-nope" });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as Json).error.code).toBe(-32001);
    expect((await call(path, { method: "DELETE" })).status).toBe(400);
    expect((await call(path, { method: "DELETE", headers: { "mcp-session-id": sid } })).status).toBe(200);
    expect((await call(path, { method: "DELETE", headers: { "mcp-session-id": sid } })).status).toBe(404);
    expect((await post(path, { jsonrpc: "2.0", id: 3, method: "ping" }, { "mcp-session-id": sid })).status).toBe(404);
  });

  it("GET is 405 with Allow; malformed JSON -32700, invalid requests -32600 (400); unknown method -32601; bad params -32602", async () => {
    const get = await call(path, { method: "GET", headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, DELETE");
    const parse = await post(path, "{not json");
    expect(parse.status).toBe(400);
    expect(((await parse.json()) as Json).error.code).toBe(-32700);
    for (const body of [{ id: 1, method: "ping" }, { jsonrpc: "2.0", id: 1 }, { jsonrpc: "2.0", id: { x: 1 }, method: "ping" }, 42]) {
      const res = await post(path, body);
      expect(res.status).toBe(400);
      const err = (await res.json()) as Json;
      expect(err.error.code).toBe(-32600);
      expect(err.jsonrpc).toBe("2.0");
    }
    expect((await rpc(path, "sampling/nothing", {})).error).toEqual({ code: -32601, message: "Method not found: sampling/nothing" });
    expect((await rpc(path, "tools/call", { arguments: {} })).error.code).toBe(-32602);
    expect((await rpc(path, "tools/call", { name: "get_weather", arguments: [1] })).error.message).toBe("tools/call: params.arguments must be an object");
    expect((await rpc(path, "initialize", {})).error.code).toBe(-32602);
  });

  it("batches: answered as an array for 2025-03-26, refused for newer versions", async () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: "initialize", params: { protocolVersion: "2025-03-26" } },
    ];
    const ok = await post(path, batch, { "mcp-protocol-version": "2025-03-26" });
    expect(ok.status).toBe(200);
    const answers = (await ok.json()) as Json[];
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(answers[1]!.result.tools.map((t: Json) => t.name)).toEqual(["get_weather", "flaky"]);
    expect(answers[2]!.error.code).toBe(-32600);
    const refused = await post(path, batch, { "mcp-protocol-version": "2025-06-18" });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as Json).error.message).toContain("batches are not part of MCP 2025-06-18");
  });

  it("the selection headers work at /mcp; bad names there are a 400", async () => {
    const ok = await post("/mcp", { jsonrpc: "2.0", id: 1, method: "ping" }, { "x-mock-scenario": "mcp-int", "x-mock-session": "hdr" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-mockllm-session")).toBe("hdr");
    expect((await post("/mcp", { jsonrpc: "2.0", id: 1, method: "ping" }, { "x-mock-scenario": "Bad Name" })).status).toBe(400);
    expect((await post("/mcp", { jsonrpc: "2.0", id: 1, method: "ping" }, { "x-mock-scenario": "mcp-int", "x-mock-session": "v1" })).status).toBe(400);
    expect((await post("/mcp", { jsonrpc: "2.0", id: 1, method: "ping" })).status).toBe(404);
  });

  it("an unknown scenario is a 404 naming the nearest one", async () => {
    const res = await post("/s/mcp-inx/mcp", { jsonrpc: "2.0", id: 1, method: "ping" });
    expect(res.status).toBe(404);
    expect(((await res.json()) as Json).error.message).toBe('mockllm: scenario "mcp-inx" not found; did you mean "mcp-int"?');
  });
});

describe("MCP 2026-07-28 (stateless)", () => {
  const path = "/s/mcp-int/modern/mcp";
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const modern = (id: number, method: string, params: Json = {}) =>
    post(path, { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }, { "mcp-protocol-version": "2026-07-28", "mcp-method": method });

  it("server/discover lists every version; requests need no session; results say resultType and caching", async () => {
    const res = await modern(1, "server/discover");
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body = (await res.json()) as Json;
    expect(body.result).toMatchObject({
      supportedVersions: ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"],
      instructions: "Weather tools.",
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "mockllm/mcp-int" } },
    });
    const tools = (await (await modern(2, "tools/list")).json()) as Json;
    expect(tools.result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    const call = (await (await modern(3, "tools/call", { name: "get_weather", arguments: { city: "Paris" } })).json()) as Json;
    expect(call.result).toEqual({ content: [{ type: "text", text: "18C in Paris (modern)" }], resultType: "complete" });
  });

  it("an envelope version it does not speak is -32022 (400) naming the supported ones; an unknown method is 404", async () => {
    const res = await post(path, { jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: { ...meta, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).error).toEqual({
      code: -32022,
      message: "Unsupported protocol version: 2099-01-01",
      data: { supported: ["2026-07-28"], requested: "2099-01-01" },
    });
    const unknown = await modern(5, "nothing/here");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as Json).error.code).toBe(-32601);
  });
});

describe("MCP lists, resources and prompts", () => {
  const path = "/s/mcp-int/lists/mcp";

  it("tools/list defaults inputSchema; resources/list leaves contents out; resources/read answers text or blob", async () => {
    const tools = await rpc(path, "tools/list", {});
    expect(tools.result.tools).toEqual([
      { name: "get_weather", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } } } },
      { name: "flaky", inputSchema: { type: "object" } },
    ]);
    const resources = await rpc(path, "resources/list", {});
    expect(resources.result.resources).toEqual([
      { uri: "file:///notes.txt", name: "notes", mimeType: "text/plain" },
      { uri: "file:///logo.png", name: "logo", mimeType: "image/png" },
    ]);
    expect((await rpc(path, "resources/read", { uri: "file:///notes.txt" })).result).toEqual({
      contents: [{ uri: "file:///notes.txt", mimeType: "text/plain", text: "remember the umbrella" }],
    });
    expect((await rpc(path, "resources/read", { uri: "file:///logo.png" })).result.contents[0].blob).toBe("iVBORw0K");
    expect((await rpc(path, "resources/read", { uri: "file:///x" })).error).toEqual({ code: -32002, message: "Resource not found: file:///x", data: { uri: "file:///x" } });
  });

  it("prompts/list and prompts/get with {{args.…}} and {{vars.…}}; a missing required argument is -32602", async () => {
    const list = await rpc(path, "prompts/list", {});
    expect(list.result.prompts).toEqual([{ name: "forecast", description: "Ask for a forecast", arguments: [{ name: "city", required: true }] }]);
    const got = await rpc(path, "prompts/get", { name: "forecast", arguments: { city: "Oslo" } });
    expect(got.result).toEqual({
      description: "Ask for a forecast",
      messages: [{ role: "user", content: { type: "text", text: "Forecast for Oslo in C" } }],
    });
    expect((await rpc(path, "prompts/get", { name: "forecast" })).error.message).toBe('prompts/get "forecast": missing required argument(s) city');
    expect((await rpc(path, "prompts/get", { name: "nope" })).error.code).toBe(-32602);
  });
});

describe("MCP tools/call", () => {
  it("answers scripted results with templates, failures then success, isError, errors; consumes; mismatches with reasons", async () => {
    const path = "/s/mcp-int/calls/mcp";
    const callTool = (name: string, args: Json) => rpc(path, "tools/call", { name, arguments: args });
    const paris = await post(path, { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "get_weather", arguments: { city: "Paris", days: 2 } } });
    expect(paris.headers.get("x-mockllm-step")).toBe("paris");
    expect(paris.headers.get("x-mockllm-outcome")).toBe("response");
    expect(await paris.json()).toEqual({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "18C in Paris (calls)" }] } });

    expect((await callTool("flaky", {})).error).toEqual({ code: -32603, message: "mockllm: scripted failure 1 of 2" });
    expect((await callTool("flaky", {})).error.message).toBe("mockllm: scripted failure 2 of 2");
    expect(text(await callTool("flaky", {}))).toBe("finally");

    const broken = await callTool("get_weather", { city: "Atlantis" });
    expect(broken.result).toEqual({ content: [{ type: "text", text: "sunk" }], isError: true });
    for (let i = 0; i < 2; i++) {
      expect((await callTool("get_weather", { city: "Nowhere" })).error).toEqual({ code: -32000, message: "no such city: Nowhere" });
    }
    // "paris" is consumed: a second Paris call has only the non-consumed "boom" left, which does not match.
    const again = await callTool("get_weather", { city: "Paris" });
    expect(again.error.code).toBe(-32602);
    expect(again.error.message).toBe(
      'mockllm: scenario "mcp-int" session "calls" tools/call get_weather: no mcp call matches; nearest call "boom" failed\n' +
        '- match.arguments: expected arguments including {"city":"Nowhere"}, got {"city":"Paris"}',
    );
    expect(again.error.data.reasons[0]).toBe('no mcp call matches; nearest call "boom" failed');

    const journal = (await (await admin("/sessions/mcp-int/calls/requests")).json()) as Json[];
    expect(journal.map((e) => [e.surface, e.endpoint, e.step, e.outcome])).toEqual([
      ["mcp", "tools/call", "paris", "response"],
      ["mcp", "tools/call", "flaky", "failure"],
      ["mcp", "tools/call", "flaky", "failure"],
      ["mcp", "tools/call", "flaky", "response"],
      ["mcp", "tools/call", "broken", "response"],
      ["mcp", "tools/call", "boom", "response"],
      ["mcp", "tools/call", "boom", "response"],
      ["mcp", "tools/call", "boom", "mismatch"],
    ]);
    expect(journal[0]!.canonical).toEqual({
      tools: [],
      toolResults: [],
      lastUserMessage: null,
      answered: { text: "18C in Paris (calls)", toolCalls: [] },
      model: "",
      stream: false,
      usage: null,
      tool: "get_weather",
      arguments: { city: "Paris", days: 2 },
      result: { content: [{ type: "text", text: "18C in Paris (calls)" }] },
      error: null,
    });
    expect(journal[1]!.reasons).toEqual(["attempt 1: scripted error -32603"]);
    expect(journal[1]!.canonical).toMatchObject({ answered: null, result: null, error: { code: -32603, message: "mockllm: scripted failure 1 of 2" } });
    expect(journal[0]!.request.body.params.name).toBe("get_weather");
  });

  it("verify fails on unused calls and MCP mismatches, beside unused steps; coverage counts calls", async () => {
    const path = "/s/mcp-int/verify/mcp";
    await rpc(path, "tools/call", { name: "get_weather", arguments: { city: "Rome" } });
    const v = (await (await admin("/sessions/mcp-int/verify/verify")).json()) as Json;
    expect(v.ok).toBe(false);
    expect(v.unusedSteps.map((s: Json) => s.id)).toEqual(["ask"]);
    expect(v.unusedMcpCalls.map((c: Json) => c.id)).toEqual(["paris", "flaky", "broken"]);
    expect(v.unusedMcpCalls[1]).toEqual({ id: "flaky", index: 2, match: 'tool "flaky"', respond: 'result "finally" (after 2 scripted failure(s))', attempts: 0 });
    expect(v.mismatches).toHaveLength(1);
    expect(v.mismatches[0].mcp).toEqual({ tool: "get_weather", arguments: { city: "Rome" } });
    expect(v.summary).toContain("3 MCP calls never answered");
    expect(v.summary).toContain('  - request #1 (mcp tools/call get_weather {"city":"Rome"}, answered JSON-RPC error -32602): no mcp call matches');
    const allowed = (await (await admin("/sessions/mcp-int/verify/verify?allowUnused=paris,flaky,broken,ask")).json()) as Json;
    expect(allowed.unusedMcpCalls).toEqual([]);
    expect(allowed.ok).toBe(false); // the mismatch still fails it

    const cov = (await (await admin("/scenarios/mcp-int/coverage")).json()) as Json;
    const byId = Object.fromEntries(cov.mcpCalls.map((c: Json) => [c.id, c]));
    expect(byId.flaky).toMatchObject({ sessions: 1, attempts: 3, failures: 2, mismatches: 0 });
    expect(byId.boom).toMatchObject({ sessions: 1, attempts: 2, mismatches: 1 });
    expect(byId.paris).toMatchObject({ sessions: 2, attempts: 2, mismatches: 1 }); // sessions "calls" and "modern"; Rome's nearest call
  });

  it("a whole run verifies: the model's tool call, the MCP call, both in one journal; reset forgets MCP sessions", async () => {
    const doc = {
      name: "mcp-int-run",
      steps: [
        { id: "ask", match: { turn: 1 }, respond: { toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Paris" } }] } },
        { id: "answer", match: { toolResult: { content: { contains: "18C" } } }, respond: { text: "It is 18C." } },
      ],
      mcp: { calls: [{ id: "w", match: { tool: "get_weather" }, result: { content: [{ type: "text", text: "18C" }] } }] },
    };
    await upload(doc);
    const prefix = "/s/mcp-int-run/r1";
    const { sid } = await initialize(`${prefix}/mcp`);
    expect((await chat(userTurn("weather?"), prefix)).status).toBe(200);
    expect(text(await rpc(`${prefix}/mcp`, "tools/call", { name: "get_weather", arguments: { city: "Paris" } }, { "mcp-session-id": sid }))).toBe("18C");
    const turn2 = {
      model: "gpt-4o-mini",
      messages: [
        { role: "user", content: "weather?" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
        { role: "tool", tool_call_id: "call_1", content: "18C" },
      ],
    };
    expect((await chat(turn2, prefix)).status).toBe(200);
    const v = (await (await admin("/sessions/mcp-int-run/r1/verify")).json()) as Json;
    expect(v.ok).toBe(true);
    expect(v.summary).toBe(`mockllm verify: ok: scenario "mcp-int-run" session "r1" (version ${v.version}): 3 requests, all 2 steps used, all 1 MCP call answered, no mismatches`);
    const journal = (await (await admin("/sessions/mcp-int-run/r1/requests")).json()) as Json[];
    expect(journal.map((e) => `${e.provider} ${e.endpoint} ${e.step}`)).toEqual(["openai chat.completions ask", "mcp tools/call w", "openai chat.completions answer"]);
    const state = (await (await admin("/sessions/mcp-int-run/r1")).json()) as Json;
    expect(state.mcpCalls).toEqual([{ id: "w", used: true, attempts: 1, consume: true }]);
    expect((await admin("/sessions/mcp-int-run/r1/reset", { method: "POST" })).status).toBe(200);
    expect((await post(`${prefix}/mcp`, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-session-id": sid })).status).toBe(404);
  });
});

describe("MCP over SSE", () => {
  it("responseMode sse answers an event stream; a progressToken gets notifications/progress before the result", async () => {
    const path = "/s/mcp-int-sse/p1/mcp";
    const res = await post(path, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "slow", arguments: {}, _meta: { progressToken: "tok" } } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const events = (await res.text()).split("\n\n").filter((e) => e !== "");
    expect(events.map((e) => e.split("\n")[0])).toEqual(["event: message", "event: message", "event: message"]);
    const data = events.map((e) => JSON.parse(e.split("\n")[1]!.slice("data: ".length)) as Json);
    expect(data).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 1, total: 2, message: "half" } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 2, total: 2 } },
      { jsonrpc: "2.0", id: 5, result: { content: [{ type: "text", text: "done" }] } },
    ]);
  });

  it("a client that accepts only JSON gets JSON; no progress without a token", async () => {
    const res = await post("/s/mcp-int-sse/p2/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }, { accept: "application/json" });
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(((await res.json()) as Json).result.tools).toEqual([{ name: "slow", inputSchema: { type: "object" } }]);
    const plain = await post("/s/mcp-int-sse/p2/mcp", { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow" } });
    expect((await plain.text()).split("\n\n").filter((e) => e !== "")).toHaveLength(1);
  });
});

describe("MCP scenario validation", () => {
  it("rejects a call without an answer, a duplicate call id, and {{request.…}} in an MCP result", async () => {
    const res = await admin("/scenarios/mcp-bad", {
      method: "PUT",
      body: JSON.stringify({
        name: "mcp-bad",
        steps: [],
        mcp: {
          calls: [
            { id: "a", match: { tool: "x" } },
            { id: "a", result: { content: [{ type: "text", text: "{{request.model}}" }] } },
          ],
        },
      }),
    });
    expect(res.status).toBe(400);
    const body = JSON.stringify(await res.json());
    expect(body).toContain("a call answers with `result` or `error` (or both)");
    expect(body).toContain('duplicate call id \\"a\\"');
    expect(body).toContain("{{request.model}} is for model responses");
  });
});
