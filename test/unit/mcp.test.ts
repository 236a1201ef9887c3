/**
 * The MCP pieces that are pure: which call entry answers (StringMatch tool names, argument subsets, consume, order),
 * `{{args.…}}` templates (and that they stay plain text in model responses), and the session's MCP state over the
 * Node runtime's memory storage (persisted with the session, forgotten on reset).
 */
import { describe, expect, it } from "vitest";
import { decideCall } from "../../src/mcp/calls";
import { negotiateVersion } from "../../src/mcp/protocol";
import { parseScenarioDocument } from "../../src/scenario/document";
import { ScenarioSchema } from "../../src/scenario/schema";
import { expandResponse } from "../../src/scenario/templates";
import { emptySessionData, MemorySessionStorage, type MemorySessionData } from "../../src/hosts/node/memory";
import { MemoryMcpStorage } from "../../src/hosts/node/memory-mcp";
import { NodeSessionStore } from "../../src/hosts/node/sessions";
import type { McpInput, McpResult } from "../../src/session/mcp";

const ctx = { scenario: "s", session: "t", vars: { unit: "C" } };

describe("decideCall", () => {
  const mcp = ScenarioSchema.parse({
    name: "x",
    variables: { unit: "C" },
    steps: [],
    mcp: {
      calls: [
        {
          id: "re",
          match: { tool: { regex: "^get_" }, arguments: { where: { city: { contains: "Par" } } } },
          result: { content: [{ type: "text", text: "{{args.where.city}} {{args.n}}{{vars.unit}}" }] },
        },
        { id: "any", consume: false, result: { content: [{ type: "text", text: "any {{args.missing}}" }] } },
      ],
    },
  }).mcp;

  it("matches tool names by StringMatch and arguments as nested subsets; a whole reference to a number is its text", () => {
    const d = decideCall(mcp, { used: [], attempts: {} }, { tool: "get_weather", arguments: { where: { city: "Paris", zip: 1 }, n: 18 } }, ctx);
    expect(d).toMatchObject({ kind: "answer", id: "re", index: 0, attempt: 1, failure: false, consume: 0, result: { content: [{ type: "text", text: "Paris 18C" }] } });
  });

  it("skips used entries; a consume:false entry answers every time and leaves an unknown argument as written", () => {
    const d = decideCall(mcp, { used: [0], attempts: { "0": 1 } }, { tool: "get_weather", arguments: { where: { city: "Paris" } } }, ctx);
    expect(d).toMatchObject({ kind: "answer", id: "any", result: { content: [{ type: "text", text: "any {{args.missing}}" }] } });
    expect(d.kind === "answer" && d.consume).toBeUndefined();
  });

  it("with nothing scripted, says so", () => {
    const d = decideCall(undefined, { used: [], attempts: {} }, { tool: "t", arguments: {} }, ctx);
    expect(d).toMatchObject({ kind: "mismatch", reasons: ["the scenario scripts no mcp.calls"] });
  });
});

describe("templates", () => {
  it("{{args.…}} in a model response is not a template there: sent as written, not an upload error", () => {
    const parsed = parseScenarioDocument({ name: "m", steps: [{ respond: { text: "literal {{args.city}}" } }] });
    expect(parsed.ok).toBe(true);
    expect(expandResponse({ text: "literal {{args.city}}" }, { vars: {}, session: "s" }).text).toBe("literal {{args.city}}");
  });
});

describe("protocol versions", () => {
  it("answers the client's supported version, else the newest", () => {
    expect(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2024-10-07", 3].map(negotiateVersion)).toEqual([
      "2024-11-05",
      "2025-03-26",
      "2025-06-18",
      "2025-11-25",
      "2025-11-25",
      "2025-11-25",
    ]);
  });
});

describe("the session's MCP state on the Node runtime", () => {
  const document = ScenarioSchema.parse({ name: "m", steps: [], mcp: { calls: [{ id: "c", result: { content: [] } }] } });
  const input = (message: McpInput["message"], mcpSession: string | null = null): McpInput => ({
    scenario: "m",
    session: "s",
    version: "v1",
    document,
    mcpSession,
    newMcpSession: "mcp-1",
    message,
    wire: { method: "POST", path: "/mcp", headers: {}, body: message },
  });
  const answered = (r: unknown) => r as Extract<McpResult, { kind: "answer" }>;

  it("is persisted with the session, survives a restore, and a reset forgets it", async () => {
    const dumps = new Map<string, () => MemorySessionData>();
    const store = new NodeSessionStore(new Map(), (name, dump) => dumps.set(name, dump));
    const session = store.get("m/s");
    expect(answered(await session.mcp(input({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18" } }))).mcpSession).toBe("mcp-1");
    expect(answered(await session.mcp(input({ id: 2, method: "tools/call", params: { name: "t" } }, "mcp-1"))).journal).toEqual({ seq: 1, step: "c", outcome: "response" });
    const saved = dumps.get("m/s")!();
    expect(saved.mcp).toEqual({ used: [0], attempts: { "0": 1 }, sessions: ["mcp-1"] });

    const restored = new NodeSessionStore(new Map([["m/s", JSON.parse(JSON.stringify(saved)) as MemorySessionData]])).get("m/s");
    expect((await restored.state()).mcpCalls).toEqual([{ id: "c", used: true, attempts: 1, consume: true }]);
    expect(answered(await restored.mcp(input({ id: 3, method: "ping" }, "mcp-1"))).response).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    await restored.reset();
    expect(await restored.mcp(input({ id: 4, method: "ping" }, "mcp-1"))).toEqual({ kind: "unknown-session" });
  });

  it("MemoryMcpStorage keeps the newest open sessions within the limit", () => {
    const data: { mcp?: NonNullable<MemorySessionData["mcp"]> } = {};
    const storage = new MemoryMcpStorage(data);
    for (const id of ["a", "b", "c"]) storage.open(id, 2);
    expect([storage.isOpen("a"), storage.isOpen("b"), storage.isOpen("c")]).toEqual([false, true, true]);
    expect(storage.close("b")).toBe(true);
    expect(storage.close("b")).toBe(false);
    expect(new MemorySessionStorage(emptySessionData()).state()).toEqual({ used: [], attempts: {} });
  });
});
