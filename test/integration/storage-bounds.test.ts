/**
 * What a session stores from a client stays under workerd's SQLite value limit (~2 MB), and is bounded the same way on
 * both runtimes (issue 37, point 9): an 8 MiB MCP `tools/call` and a request offering 30,000 tools are answered and
 * journaled with their long parts cut (a marker says so); a 9.8 MB message the default responder echoes is stored
 * with its response and chains. The Workers-only half (a Realtime socket's state past the limit surviving
 * hibernation) is in socket-object.test.ts.
 */
import { describe, expect, it } from "vitest";
import { admin, call, chat, upload } from "./helpers";

await upload({
  name: "bounds",
  // The journal's bounds are the point here, not the API's 128-tool limit (which `strict: false` lets through).
  strict: false,
  steps: [{ id: "any", consume: false, respond: { text: "Fine." } }],
  mcp: {
    tools: [{ name: "store" }],
    calls: [{ id: "store", consume: false, match: { tool: "store" }, result: { content: [{ type: "text", text: "stored {{args.blob}}" }] } }],
  },
});

type Json = Record<string, any>;

async function journal(session: string): Promise<Json[]> {
  const res = await admin(`/sessions/bounds/${session}/requests`);
  expect(res.status).toBe(200);
  return (await res.json()) as Json[];
}

const MARKER = /…\[mockllm: truncated \d+ characters\]$/;

describe("journal entries stay bounded", () => {
  it("an 8 MiB MCP tools/call: a JSON-RPC result, and a journal entry with the arguments and result cut", async () => {
    const blob = "x".repeat(8 * 1024 * 1024);
    const res = await call("/s/bounds/mcp8/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "store", arguments: { blob } } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.id).toBe(7);
    expect(body.result.content[0].text).toBe(`stored ${blob}`);
    const [entry] = await journal("mcp8");
    expect(entry).toMatchObject({ surface: "mcp", endpoint: "tools/call", step: "store", outcome: "response" });
    expect(entry!.canonical.tool).toBe("store");
    expect(entry!.canonical.arguments.blob).toMatch(MARKER);
    expect(entry!.canonical.arguments.blob.startsWith(`${"x".repeat(4000)}…`)).toBe(true);
    expect(entry!.canonical.result.content[0].text).toMatch(MARKER);
    expect(entry!.reasons.at(-1)).toMatch(/^mockllm: this entry \(\d+ bytes\) was cut to fit the journal$/);
    expect(JSON.stringify(entry).length).toBeLessThan(1_000_000);
  });

  it("an 8 MiB tools/call that matches nothing: the JSON-RPC mismatch error, journaled cut", async () => {
    const res = await call("/s/bounds/mcp8-miss/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "nothing", arguments: { blob: "y".repeat(8 * 1024 * 1024) } } }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).error.code).toBe(-32602);
    const [entry] = await journal("mcp8-miss");
    expect(entry).toMatchObject({ outcome: "mismatch", canonical: { tool: "nothing", result: null } });
    expect(entry!.canonical.arguments.blob).toMatch(MARKER);
    expect(entry!.canonical.error.data.arguments.blob).toMatch(MARKER);
  });

  it("a request offering 30,000 tools: answered, journaled with the first 100 tool names", async () => {
    const tools = Array.from({ length: 30_000 }, (_, i) => ({ type: "function", function: { name: `tool_${i}_${"n".repeat(50)}`, parameters: { type: "object" } } }));
    const res = await chat({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], tools }, "/s/bounds/tools");
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).choices[0].message.content).toBe("Fine.");
    const [entry] = await journal("tools");
    expect(entry).toMatchObject({ step: "any", outcome: "response", canonical: { answered: { text: "Fine." } } });
    expect(entry!.canonical.tools).toHaveLength(100);
    expect(entry!.canonical.tools[99]).toBe(`tool_99_${"n".repeat(50)}`);
    expect(entry!.request.body).toMatch(/…\[mockllm: truncated \d+ of \d+ characters\]$/);
  });
});

describe("stored Responses past SQLite's value limit", () => {
  it("a 9.8 MB message the default responder echoes: stored, readable, and chained on", async () => {
    const message = "é".repeat(4_900_000);
    const post = (body: Json) =>
      call("/v1/responses", { method: "POST", headers: { authorization: "Bearer sk-test", "content-type": "application/json", "x-mock-session": "bounds-big" }, body: JSON.stringify(body) });
    const first = await post({ model: "gpt-4.1", input: message });
    expect(first.status).toBe(200);
    const created = (await first.json()) as Json;
    expect(created.output[0].content[0].text.endsWith(message)).toBe(true);
    const read = await call(`/v1/responses/${created.id}`, { headers: { authorization: "Bearer sk-test", "x-mock-session": "bounds-big" } });
    expect(read.status).toBe(200);
    expect(((await read.json()) as Json).output[0].content[0].text).toBe(created.output[0].content[0].text);
    const next = await post({ model: "gpt-4.1", input: "and then?", previous_response_id: created.id });
    expect(next.status).toBe(200);
    expect(((await next.json()) as Json).previous_response_id).toBe(created.id);
  });
});

describe("a scenario document past SQLite's value limit", () => {
  it("a 9.8 MB scripted answer: the session keeps the document in parts and answers it", async () => {
    const text = "é".repeat(4_900_000);
    await upload({
      name: "bounds-doc",
      steps: [
        { id: "long", respond: { text } },
        { id: "next", respond: { text: "Short." } },
      ],
    });
    const first = await chat({ model: "gpt-4o-mini", messages: [{ role: "user", content: "go" }] }, "/s/bounds-doc/d1");
    expect(first.status).toBe(200);
    expect(((await first.json()) as Json).choices[0].message.content).toBe(text);
    const second = await chat({ model: "gpt-4o-mini", messages: [{ role: "user", content: "again" }] }, "/s/bounds-doc/d1");
    expect(((await second.json()) as Json).choices[0].message.content).toBe("Short.");
  });
});
