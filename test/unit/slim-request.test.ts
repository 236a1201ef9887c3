// The slim canonical request (src/canonical/slim.ts) a session across a boundary receives: for every request — each
// provider surface's parse of conversations with tool calls and results, and generated conversations with
// compactions, side calls and thresholds — and every scenario below (each matcher kind, expectations, mismatches
// answered both ways, side calls, templates, compactions, chaos), the engine's decision and the journal entry
// (its canonical view, turn, request) are the same for the slim request as for the whole one.
import { describe, expect, it } from "vitest";
import type { CanonicalMessage, CanonicalRequest } from "../../src/canonical/request";
import { messageCount } from "../../src/canonical/request";
import { slimRequest } from "../../src/canonical/slim";
import { defaultCompactionSummary } from "../../src/canonical/compaction";
import { emptySessionData, MemorySessionStorage } from "../../src/hosts/node/memory";
import { parseMessagesRequest } from "../../src/providers/anthropic/parse";
import { parseConverse } from "../../src/providers/bedrock/parse";
import { parseGenerateContent } from "../../src/providers/gemini/parse";
import { parseChatRequest as parseOllamaChat } from "../../src/providers/ollama/parse";
import { parseChatRequest } from "../../src/providers/openai/chat/parse";
import { parseResponsesRequest } from "../../src/providers/openai/responses/parse";
import type { ParseResult } from "../../src/providers/types";
import { wireToolCallIds } from "../../src/providers/registry";
import { decide, type SessionState } from "../../src/scenario/engine";
import { readsAssistants } from "../../src/scenario/matchers";
import { ScenarioSchema, type Scenario } from "../../src/scenario/schema";
import { SessionCore, type NextInput, type NextResult } from "../../src/session/core";
import { req } from "./fixtures";

function parsed(result: ParseResult<unknown>): CanonicalRequest {
  if (!result.ok) throw new Error(`fixture did not parse: ${JSON.stringify(result.error)}`);
  return result.request;
}

const headers = new Headers({ "content-type": "application/json", "x-team": "blue" });
const tools = [
  { type: "function", function: { name: "read_file", parameters: { type: "object", properties: { path: { type: "string" } } } } },
  { type: "function", function: { name: "grep", parameters: { type: "object", properties: { pattern: { type: "string" } } } } },
];

/** Each surface's wire: a conversation of tool calls, their results and user follow-ups. */
function surfaceRequests(): { name: string; request: CanonicalRequest }[] {
  const chat = (messages: unknown[], extra: Record<string, unknown> = {}) => parsed(parseChatRequest({ model: "gpt-4o", tools, messages, ...extra }, headers));
  const call = (id: string, name: string, args: unknown) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });
  const chatTurns = [
    { role: "system", content: "You are terse." },
    { role: "user", content: "first: read a.ts" },
    { role: "assistant", content: "Let me look.", tool_calls: [call("c1", "read_file", { path: "a.ts" })] },
    { role: "tool", tool_call_id: "c1", content: "export const a = 1;" },
    { role: "user", content: "middle: now grep" },
    { role: "assistant", content: null, tool_calls: [call("c2", "grep", { pattern: "xyz" }), call("c3", "read_file", { path: "b.ts" })] },
    { role: "tool", tool_call_id: "c2", content: "B: no match" },
    { role: "tool", tool_call_id: "c3", content: "export const b = 2;" },
  ];
  const responsesInput = [
    { role: "user", content: "first: read a.ts" },
    { type: "function_call", call_id: "r1", name: "read_file", arguments: JSON.stringify({ path: "a.ts" }) },
    { type: "function_call_output", call_id: "r1", output: "export const a = 1;" },
    { role: "user", content: "middle: anything else?" },
    { role: "assistant", content: "Done reading." },
    { role: "user", content: "last: thanks" },
  ];
  const anthropicMessages = [
    { role: "user", content: "first: read a.ts" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Reading." },
        { type: "tool_use", id: "t1", name: "read_file", input: { path: "a.ts" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "export const a = 1;" },
        { type: "text", text: "middle: and grep?" },
      ],
    },
    { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "grep", input: { pattern: "xyz" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "B: no match", is_error: true }] },
  ];
  const anthropicTools = [
    { name: "read_file", input_schema: { type: "object" } },
    { name: "grep", input_schema: { type: "object" } },
  ];
  const geminiContents = [
    { role: "user", parts: [{ text: "first: read a.ts" }] },
    { role: "model", parts: [{ functionCall: { name: "read_file", args: { path: "a.ts" } } }] },
    { role: "user", parts: [{ functionResponse: { name: "read_file", response: { content: "export const a = 1;" } } }] },
    { role: "user", parts: [{ text: "middle: again" }] },
    { role: "model", parts: [{ text: "Done." }] },
    { role: "user", parts: [{ text: "last: bye" }] },
  ];
  const converseMessages = [
    { role: "user", content: [{ text: "first: read a.ts" }] },
    { role: "assistant", content: [{ toolUse: { toolUseId: "b1", name: "read_file", input: { path: "a.ts" } } }] },
    { role: "user", content: [{ toolResult: { toolUseId: "b1", content: [{ text: "export const a = 1;" }] } }] },
    { role: "assistant", content: [{ text: "Read it." }] },
    { role: "user", content: [{ text: "middle: more" }] },
    { role: "assistant", content: [{ toolUse: { toolUseId: "b2", name: "grep", input: { pattern: "xyz" } } }] },
    { role: "user", content: [{ toolResult: { toolUseId: "b2", content: [{ text: "B: no match" }] } }] },
  ];
  const target = (path: string) => ({ path, query: new URLSearchParams() });
  return [
    { name: "chat, pending tool results", request: chat(chatTurns) },
    { name: "chat, a user follow-up", request: chat([...chatTurns, { role: "user", content: "last: summarise" }], { stream: true, temperature: 0.2, max_tokens: 50 }) },
    { name: "chat, one user message", request: chat([{ role: "user", content: "quota" }]) },
    {
      name: "chat, users only",
      request: chat([
        { role: "user", content: "first" },
        { role: "user", content: "middle" },
        { role: "user", content: "last" },
      ]),
    },
    { name: "chat, json_object", request: chat(chatTurns.slice(0, 5), { response_format: { type: "json_object" } }) },
    {
      name: "responses",
      request: parsed(
        parseResponsesRequest({ model: "gpt-4o", instructions: "Be brief.", input: responsesInput, tools: [{ type: "function", name: "read_file", parameters: {} }, { type: "web_search" }] }, headers),
      ),
    },
    {
      name: "anthropic",
      request: parsed(parseMessagesRequest({ model: "claude-sonnet-4-5", max_tokens: 1024, system: "Be brief.", tools: anthropicTools, messages: anthropicMessages }, headers)),
    },
    { name: "gemini", request: parsed(parseGenerateContent({ contents: geminiContents }, headers, target("/v1beta/models/gemini-2.5-flash:generateContent"))) },
    { name: "ollama", request: parsed(parseOllamaChat({ model: "llama3", stream: false, messages: chatTurns.slice(1, 5).map((m) => ({ role: m.role, content: m.content ?? "" })) }, headers)) },
    { name: "bedrock converse", request: parsed(parseConverse({ messages: converseMessages }, headers, target("/model/anthropic.claude-3-haiku/converse"))) },
  ];
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEXTS = ["first: read a.ts", "middle: now grep", "Let me look.", "Done reading.", "", "B: no match", "quota", "last: thanks", "determine who should logically speak next"];

/** Conversations of any shape: runs of users, assistants with and without calls, results with and without names, compactions. */
function generated(n: number): { name: string; request: CanonicalRequest }[] {
  const out: { name: string; request: CanonicalRequest }[] = [];
  for (let k = 0; k < n; k++) {
    const rnd = random(k + 1);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const messages: CanonicalMessage[] = [];
    const length = Math.floor(rnd() * 14);
    let calls = 0;
    for (let i = 0; i < length; i++) {
      const r = rnd();
      if (r < 0.35) messages.push({ role: "user", text: pick(TEXTS) });
      else if (r < 0.65) {
        const toolCalls = Array.from({ length: Math.floor(rnd() * 3) }, () => ({
          id: `call_${++calls}`,
          name: pick(["read_file", "grep"]),
          arguments: JSON.stringify({ path: pick(["a.ts", "b.ts"]), pattern: "xyz" }),
        }));
        messages.push({ role: "assistant", text: pick(TEXTS), toolCalls, reasoning: rnd() < 0.2 ? [{ text: "thinking", signature: "sig" }] : [] });
      } else {
        const id = `call_${Math.max(1, calls - Math.floor(rnd() * 2))}`;
        messages.push({ role: "tool", toolCallId: id, ...(rnd() < 0.3 ? { name: "grep" } : {}), content: pick(TEXTS), isError: rnd() < 0.2 });
      }
    }
    const request = req(
      {
        provider: pick(["openai", "anthropic"] as const),
        endpoint: pick(["chat.completions", "responses", "messages"] as const),
        stream: rnd() < 0.5,
        system: pick(["", "Be brief.", "You are a title generator", "You are naming a coding session"]),
        tools: rnd() < 0.3 ? [] : rnd() < 0.5 ? ["read_file", "grep"] : ["read_file", "agent__final_report"],
        headers: { "x-team": pick(["blue", "red"]) },
        ...(rnd() < 0.25 ? { compaction: { summary: "earlier work" } } : {}),
        ...(rnd() < 0.15 ? { compactionRequested: true as const } : {}),
        ...(rnd() < 0.2 ? { compactThreshold: 1 } : {}),
        ...(rnd() < 0.2 ? { temperature: 0.2, maxTokens: 5 } : {}),
        ...(rnd() < 0.1 ? { outputSchema: { kind: "json_object" as const } } : {}),
        ...(rnd() < 0.1 ? { serverTools: ["web_search"] } : {}),
      },
      messages,
    );
    out.push({ name: `generated ${k}`, request });
  }
  return out;
}

const reusable = (step: Record<string, unknown>) => ({ consume: false, ...step });

const SCENARIOS: Scenario[] = [
  {
    name: "matchers",
    onMismatch: "report",
    steps: [
      reusable({ id: "side", match: { turn: 1, lastUserMessage: "quota" }, respond: { text: "turn {{request.turn}}" } }),
      { id: "flaky", match: { turn: 2, toolResult: { name: "grep" } }, failures: [{ kind: "rate_limit" }, { kind: "overloaded" }], respond: { text: "after two failures" } },
      reusable({ id: "turn3", match: { turn: 3 }, respond: { text: "turn {{request.turn}}: {{request.lastUserMessage}}" } }),
      reusable({ id: "first", match: { firstUserMessage: { contains: "first" }, lastUserMessage: { regex: "^last" } }, respond: { text: "first and last" } }),
      reusable({ id: "assistant", match: { assistantMessage: { contains: "Done" } }, respond: { toolCalls: [{ name: "grep", arguments: { pattern: "{{request.lastUserMessage}}" } }] } }),
      reusable({ id: "call", match: { toolCall: { name: "grep", arguments: { pattern: { contains: "xy" } } } }, respond: { text: "grep was called" } }),
      { id: "result-name", match: { toolResult: { name: "read_file" } }, respond: { text: "a file was read" } },
      reusable({ id: "result-content", match: { toolResult: { content: { contains: "B" }, toolCallId: { regex: "^c" } } }, respond: { text: "B" } }),
      reusable({ id: "compacted", match: { compacted: true }, respond: { compaction: { summary: "scripted summary" } } }),
      reusable({
        id: "misc",
        match: {
          headers: { "X-Team": "red" },
          model: { contains: "gpt" },
          system: { contains: "brief" },
          tools: ["read_file"],
          stream: true,
          provider: "openai",
          endpoint: ["chat.completions", "responses"],
        },
        respond: { text: "misc" },
      }),
      reusable({ id: "schema", match: { outputSchema: true }, respond: { json: { ok: true } } }),
      reusable({ id: "server", match: { serverTool: "web_search" }, respond: { text: "searched" } }),
    ],
  },
  {
    name: "mismatches",
    steps: [
      {
        id: "never",
        match: { turn: 99, assistantMessage: "nothing like it", toolCall: { name: "nope" }, toolResult: { content: "zzz" }, firstUserMessage: "zzz", lastUserMessage: "zzz" },
        respond: { text: "x" },
      },
      {
        id: "expects",
        match: { turn: 2 },
        expect: { tools: ["grep", "agent__x"], temperature: 0.7, topP: 0.9, reasoning: "enabled", systemPromptMustInclude: ["brief"], model: "gpt-4o", maxTokens: 7 },
        respond: { text: "x" },
      },
    ],
  },
  {
    name: "report-expectations",
    onMismatch: "report",
    reportTitles: { noStep: "# No step", expectations: "# Expectations" },
    systemPromptMustInclude: ["Be"],
    steps: [{ id: "any", consume: false, expect: { temperature: 0.2, maxTokens: 5 }, respond: { text: "answered at turn {{request.turn}}", finishReason: "stop" } }],
  },
  {
    name: "side-calls",
    sideCalls: { preset: ["gemini", "opencode", "qwen", "claude"], match: [{ turn: 2, toolResult: {} }] },
    steps: [{ id: "rest", consume: false, respond: { text: "rest" } }],
  },
  { name: "compaction-default", steps: [{ id: "plain", consume: false, respond: { text: "plain", usage: { inputTokens: 500 } } }] },
  {
    name: "chaos",
    chaos: { seed: 7, rate: 0.5, kinds: ["malformed_tool_arguments", "empty_response", "rate_limit", "duplicate_tool_call_id"] },
    steps: [reusable({ respond: { text: "t", toolCalls: [{ name: "read_file", arguments: { path: "a" } }] } })],
  },
].map((s) => ScenarioSchema.parse(s));

function input(scenario: Scenario, request: CanonicalRequest, i: number): NextInput {
  return {
    scenario: scenario.name,
    session: "s1",
    version: "v1",
    document: scenario,
    request,
    wire: { method: "POST", path: "/v1/chat/completions", headers: { "x-team": "blue" }, body: { i } },
    statuses: { mismatch: 400, rate_limit: 429, overloaded: 529, model_error: 500 },
  };
}

const REQUESTS = [...surfaceRequests(), ...generated(300)];

/** What the Worker sends a session running `scenario`: the slim request, and without assistant messages when none is read. */
function slimForms(scenario: Scenario, request: CanonicalRequest): CanonicalRequest[] {
  return readsAssistants(scenario) ? [slimRequest(request)] : [slimRequest(request), slimRequest(request, false)];
}

describe("the slim canonical request", () => {
  it("leaves out what no session reads in every conversation that has it, and counts what it left out", () => {
    let smaller = 0;
    for (const { name, request } of REQUESTS) {
      const slim = slimRequest(request);
      expect(messageCount(slim), name).toBe(request.messages.length);
      expect(slim.elided?.users ?? 0, name).toBe(request.messages.filter((m) => m.role === "user").length - slim.messages.filter((m) => m.role === "user").length);
      if (slim.messages.length < request.messages.length) smaller++;
      else expect(slim, name).toBe(request);
      expect(defaultCompactionSummary(slim), name).toBe(defaultCompactionSummary(request));
    }
    expect(smaller).toBeGreaterThan(100);
  });

  it("keeps 43 of a 121-message agent turn (the bench's LONG_BODY): the assistants, the first user message, the last result and user message", () => {
    const messages: CanonicalMessage[] = [{ role: "user", text: "bench long" }];
    for (let i = 0; i < 40; i++) {
      messages.push({ role: "assistant", text: "", toolCalls: [{ id: `call_${i}`, name: "read_file", arguments: "{}" }], reasoning: [] });
      messages.push({ role: "tool", toolCallId: `call_${i}`, content: `file ${i}`, isError: false });
      messages.push({ role: "user", text: `Now look at file ${i + 1}` });
    }
    const slim = slimRequest(req({}, messages));
    expect(slim.messages.length).toBe(43);
    expect(slim.elided).toStrictEqual({ messages: 78, users: 39 });
    expect(slim.messages.slice(-3)).toStrictEqual([messages[118], messages[119], messages[120]]);
    expect(slimRequest(slim)).toBe(slim);
  });

  it("decides exactly as the whole request, for every scenario and session state", () => {
    const states: SessionState[] = [
      { used: [], attempts: {} },
      { used: [5], attempts: { "5:openai": 1, "1:anthropic": 2, "report:3": 1 } },
    ];
    let decisions = 0;
    for (const scenario of SCENARIOS) {
      for (const { name, request } of REQUESTS) {
        for (const slim of slimForms(scenario, request)) {
          for (const state of states) {
            const ctx = { scenario: scenario.name, session: "s1" };
            expect(decide(scenario, state, slim, ctx), `${scenario.name}: ${name}`).toStrictEqual(decide(scenario, state, request, ctx));
            decisions++;
          }
        }
      }
    }
    // Four of the six scenarios read no assistant message: their requests are decided without them too.
    expect(SCENARIOS.map(readsAssistants)).toStrictEqual([true, true, false, false, false, false]);
    expect(decisions).toBe((2 + 4 * 2) * REQUESTS.length * 2);
  });

  it("journals exactly as the whole request: results, canonical views, turns and requests, through a session's run", () => {
    const kinds = new Set<string>();
    for (const scenario of SCENARIOS) {
      const whole = new SessionCore(new MemorySessionStorage(emptySessionData()), wireToolCallIds);
      const slims = slimForms(scenario, req()).map(() => new SessionCore(new MemorySessionStorage(emptySessionData()), wireToolCallIds));
      REQUESTS.forEach(({ name, request }, i) => {
        const now = 1_700_000_000_000 + i * 1000;
        const a = whole.next(input(scenario, request, i), now) as NextResult;
        slimForms(scenario, request).forEach((slim, k) => {
          expect(slims[k]!.next(input(scenario, slim, i), now), `${scenario.name}: ${name}`).toStrictEqual(a);
        });
        kinds.add(a.journaled);
      });
      for (const slim of slims) {
        expect(slim.requests()).toStrictEqual(whole.requests());
        expect(slim.state()).toStrictEqual(whole.state());
      }
    }
    // The scenarios reached every journal outcome a turn can have.
    expect([...kinds].sort()).toStrictEqual(["chaos", "failure", "mismatch", "response", "side_call"]);
  });

  it("without assistant messages: counted in the turn, the pending results named by their calls; a session on another version asks again", () => {
    const whole = req({ tools: ["read_file"] }, [
      { role: "user", text: "first" },
      { role: "assistant", text: "a", toolCalls: [{ id: "c1", name: "read_file", arguments: "{}" }], reasoning: [] },
      { role: "tool", toolCallId: "c1", content: "one", isError: false },
      { role: "user", text: "middle" },
      { role: "assistant", text: "b", toolCalls: [{ id: "c2", name: "grep", arguments: "{}" }], reasoning: [] },
      { role: "tool", toolCallId: "c2", content: "two", isError: false },
      { role: "tool", toolCallId: "c9", content: "unknown call", isError: true },
    ]);
    const slim = slimRequest(whole, false);
    expect(slim.messages).toStrictEqual([
      { role: "user", text: "first" },
      { role: "user", text: "middle" },
      { role: "tool", toolCallId: "c2", name: "grep", content: "two", isError: false },
      { role: "tool", toolCallId: "c9", content: "unknown call", isError: true },
    ]);
    expect(slim.elided).toStrictEqual({ messages: 3, users: 0, assistants: 2 });
    expect(slimRequest(req(), false)).toStrictEqual(req());

    const scenario = SCENARIOS[2]!;
    const core = new SessionCore(new MemorySessionStorage(emptySessionData()), wireToolCallIds);
    expect((core.next(input(scenario, slimRequest(whole), 0)) as NextResult).seq).toBe(1);
    // The session runs v1: a request slimmed for v2 is not decided (nothing journaled), one for v1 is.
    expect(core.next({ ...input(scenario, slim, 1), version: "v2" })).toStrictEqual({ needsDocument: true });
    expect(core.next({ ...input(scenario, slimRequest(whole), 1), version: "v2" })).toMatchObject({ seq: 2, version: "v1" });
    expect(core.next(input(scenario, slim, 2))).toMatchObject({ seq: 3, version: "v1" });
    expect(core.requests().map((e) => e.turn)).toStrictEqual([3, 3, 3]);
  });
});
