import { describe, expect, it } from "vitest";
import { forcedTool, type CanonicalRequest } from "../../src/canonical/request";
import { replyChoices } from "../../src/canonical/outcome";
import { defaultReply } from "../../src/default/responder";
import { schemaArguments } from "../../src/default/schema-args";
import { stableHash } from "../../src/util/hash";
import { parseMessagesRequest } from "../../src/providers/anthropic/parse";
import { parseConverse } from "../../src/providers/bedrock/parse";
import { parseGenerateContent } from "../../src/providers/gemini/parse";
import { parseChatRequest } from "../../src/providers/openai/chat/parse";
import { parseResponsesRequest } from "../../src/providers/openai/responses/parse";

const SCHEMA = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const headers = new Headers();
const canonical = <T>(r: { ok: true; request: CanonicalRequest } | { ok: false; error: T }) => (r.ok ? { toolChoice: r.request.toolChoice, toolSchemas: r.request.toolSchemas } : r.error);

describe("each surface parses its tool choice into the canonical one", () => {
  const chat = (tool_choice: unknown) =>
    canonical(parseChatRequest({ model: "m", messages: [{ role: "user", content: "hi" }], tools: [{ type: "function", function: { name: "a", parameters: SCHEMA } }], tool_choice }, headers));
  const responses = (tool_choice: unknown) => canonical(parseResponsesRequest({ model: "m", input: "hi", tools: [{ type: "function", name: "a", parameters: SCHEMA }], tool_choice }, headers));
  const anthropic = (tool_choice: unknown) =>
    canonical(parseMessagesRequest({ model: "m", max_tokens: 5, messages: [{ role: "user", content: "hi" }], tools: [{ name: "a", input_schema: SCHEMA }], tool_choice }, headers));
  const gemini = (toolConfig: unknown) =>
    canonical(
      parseGenerateContent({ contents: [{ role: "user", parts: [{ text: "hi" }] }], tools: [{ functionDeclarations: [{ name: "a", parameters: SCHEMA }] }], toolConfig }, headers, {
        path: "/v1beta/models/g:generateContent",
        query: new URLSearchParams(),
      }),
    );
  const converse = (toolChoice: unknown) =>
    canonical(
      parseConverse({ messages: [{ role: "user", content: [{ text: "hi" }] }], toolConfig: { tools: [{ toolSpec: { name: "a", inputSchema: { json: SCHEMA } } }], toolChoice } }, headers, {
        path: "/model/m/converse",
        query: new URLSearchParams(),
      }),
    );
  const forced = (toolChoice: unknown) => ({ toolChoice, toolSchemas: [{ name: "a", schema: SCHEMA }] });
  const none = { toolChoice: { kind: "none" }, toolSchemas: undefined };
  const auto = { toolChoice: undefined, toolSchemas: undefined };

  it.each([
    ["chat named", chat({ type: "function", function: { name: "a" } }), forced({ kind: "tool", name: "a" })],
    ["chat required", chat("required"), forced({ kind: "required" })],
    [
      "chat allowed_tools required",
      chat({ type: "allowed_tools", allowed_tools: { mode: "required", tools: [{ type: "function", function: { name: "a" } }] } }),
      forced({ kind: "required", allowed: ["a"] }),
    ],
    ["chat allowed_tools auto", chat({ type: "allowed_tools", allowed_tools: { mode: "auto", tools: [] } }), auto],
    ["chat none", chat("none"), none],
    ["chat auto", chat("auto"), auto],
    ["chat unknown shape", chat({ type: "custom", custom: { name: "x" } }), auto],
    ["responses named", responses({ type: "function", name: "a" }), forced({ kind: "tool", name: "a" })],
    ["responses allowed_tools", responses({ type: "allowed_tools", mode: "required", tools: [{ type: "function", name: "a" }] }), forced({ kind: "required", allowed: ["a"] })],
    ["responses hosted tool", responses({ type: "web_search_preview" }), auto],
    ["anthropic tool", anthropic({ type: "tool", name: "a" }), forced({ kind: "tool", name: "a" })],
    ["anthropic any", anthropic({ type: "any", disable_parallel_tool_use: true }), forced({ kind: "required" })],
    ["anthropic none", anthropic({ type: "none" }), none],
    ["anthropic auto", anthropic({ type: "auto" }), auto],
    ["gemini ANY", gemini({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["a"] } }), forced({ kind: "required", allowed: ["a"] })],
    ["gemini snake_case", gemini({ function_calling_config: { mode: "ANY" } }), forced({ kind: "required" })],
    ["gemini NONE", gemini({ functionCallingConfig: { mode: "NONE" } }), none],
    ["gemini VALIDATED", gemini({ functionCallingConfig: { mode: "VALIDATED" } }), auto],
    ["converse tool", converse({ tool: { name: "a" } }), forced({ kind: "tool", name: "a" })],
    ["converse any", converse({ any: {} }), forced({ kind: "required" })],
    ["converse auto", converse({ auto: {} }), auto],
  ])("%s", (_name, got, want) => {
    expect(got).toEqual(want);
  });
});

function request(extra: Partial<CanonicalRequest>): CanonicalRequest {
  return {
    provider: "anthropic",
    endpoint: "messages",
    model: "m",
    stream: false,
    system: "",
    messages: [{ role: "user", text: "weather?" }],
    tools: ["a", "b", "c"],
    toolSchemas: [
      { name: "a", schema: {} },
      { name: "b", schema: SCHEMA },
      { name: "c", schema: SCHEMA },
    ],
    reasoning: "disabled",
    headers: {},
    ...extra,
  };
}

describe("forcedTool and the default reply", () => {
  it("the named tool, the first offered, the first offered of the allowed; nothing for a tool not offered", () => {
    expect(forcedTool(request({ toolChoice: { kind: "tool", name: "c" } }))).toBe("c");
    expect(forcedTool(request({ toolChoice: { kind: "required" } }))).toBe("a");
    expect(forcedTool(request({ toolChoice: { kind: "required", allowed: ["c", "b"] } }))).toBe("b");
    expect(forcedTool(request({ toolChoice: { kind: "required", allowed: ["zz"] } }))).toBeUndefined();
    expect(forcedTool(request({ toolChoice: { kind: "tool", name: "zz" } }))).toBeUndefined();
    expect(forcedTool(request({ toolChoice: { kind: "none" } }))).toBeUndefined();
    expect(forcedTool(request({}))).toBeUndefined();
  });

  it("answers one call, no text, with the schema's arguments from the request's seed; {} for an empty schema", () => {
    const seed = `default/${stableHash(JSON.stringify([{ role: "user", text: "weather?" }]))}/tool/b`;
    const reply = defaultReply(request({ toolChoice: { kind: "tool", name: "b" } }), { wordsPerSecond: 0 });
    expect([reply.text, reply.toolCalls, reply.finishReason]).toEqual([undefined, [{ name: "b", arguments: JSON.stringify(schemaArguments(SCHEMA, seed)) }], "tool_calls"]);
    expect(defaultReply(request({ toolChoice: { kind: "required" } }), { wordsPerSecond: 0 }).toolCalls).toEqual([{ name: "a", arguments: "{}" }]);
  });

  it("Chat Completions finishes a named call with stop and a required one with tool_calls; n choices each call", () => {
    const chat = { provider: "openai", endpoint: "chat.completions" } as const;
    expect(defaultReply(request({ ...chat, toolChoice: { kind: "tool", name: "b" } }), { wordsPerSecond: 0 }).finishReason).toBe("stop");
    const n = defaultReply(request({ ...chat, choices: 3, toolChoice: { kind: "required", allowed: ["c"] } }), { wordsPerSecond: 0 });
    expect(replyChoices(n).map((c) => [c.toolCalls.map((t) => t.name), c.finishReason, c.text])).toEqual([
      [["c"], "tool_calls", undefined],
      [["c"], "tool_calls", undefined],
      [["c"], "tool_calls", undefined],
    ]);
    expect(new Set(replyChoices(n).map((c) => c.toolCalls[0]!.arguments)).size).toBe(3);
  });

  it("an instruction block still drives the answer; none, or a tool not offered, keeps the lorem text", () => {
    const block = `<|instruction_start|>${JSON.stringify({ messages: [{ text_message: { length: 2 } }] })}<|instruction_end|>`;
    expect(defaultReply(request({ messages: [{ role: "user", text: block }], toolChoice: { kind: "tool", name: "b" } }), { wordsPerSecond: 0 }).text).toBe("lorem ipsum");
    for (const toolChoice of [{ kind: "none" as const }, { kind: "tool" as const, name: "zz" }]) {
      const reply = defaultReply(request({ toolChoice }), { wordsPerSecond: 0 });
      expect([reply.toolCalls, reply.finishReason, reply.text?.endsWith("\n\nweather?")]).toEqual([[], "stop", true]);
    }
  });
});
