/**
 * Shape test: the mock's transcripts (text, tool calls, reasoning, usage, refusals, errors), rendered through the
 * real render functions, against tables of the keys and JSON types real providers send (test/shapes/*.ts, each
 * entry naming the recording it was read from). Fails on a missing key, an extra key no recording has, or a type
 * difference; and on a table entry no transcript exercised, so the comparison cannot silently shrink.
 */
import { describe, expect, it } from "vitest";
import type { Reply } from "../../src/canonical/outcome";
import type { CanonicalRequest } from "../../src/canonical/request";
import { apiError } from "../../src/http/errors";
import { renderAnthropicError } from "../../src/providers/anthropic/errors";
import { renderMessageJson } from "../../src/providers/anthropic/render-json";
import { renderMessageEvents, renderMessageStreamError } from "../../src/providers/anthropic/render-stream";
import type { MessagesRequest } from "../../src/providers/anthropic/wire";
import { renderGeminiError } from "../../src/providers/gemini/errors";
import { renderGenerateContentJson } from "../../src/providers/gemini/render-json";
import { renderGenerateContentEvents, renderGenerateContentStreamError } from "../../src/providers/gemini/render-stream";
import type { GeminiWire } from "../../src/providers/gemini/wire";
import { renderOllamaError } from "../../src/providers/ollama/errors";
import { renderChatJson as renderOllamaChatJson, renderGenerateJson } from "../../src/providers/ollama/render-json";
import { renderChatEvents as renderOllamaChatEvents, renderGenerateEvents, renderOllamaStreamError } from "../../src/providers/ollama/render-stream";
import { parseChatRequest } from "../../src/providers/openai/chat/parse";
import { renderChatJson } from "../../src/providers/openai/chat/render-json";
import { renderChatEvents, renderChatStreamError } from "../../src/providers/openai/chat/render-stream";
import { renderOpenAIError } from "../../src/providers/openai/errors";
import { renderResponseJson } from "../../src/providers/openai/responses/render-json";
import { renderResponseEvents, renderResponseStreamError } from "../../src/providers/openai/responses/render-stream";
import type { ResponsesRequest } from "../../src/providers/openai/responses/wire";
import type { RenderContext, SseEvent } from "../../src/providers/types";
import { resolveReply } from "../../src/scenario/engine";
import type { ScenarioResponse } from "../../src/scenario/schema";
import { anthropic } from "../shapes/anthropic";
import { bedrock } from "../shapes/bedrock";
import { renderBedrockError } from "../../src/providers/bedrock/errors";
import { renderBedrockStreamError, renderConverseEvents, renderConverseJson } from "../../src/providers/bedrock/render-converse";
import type { ConverseWire } from "../../src/providers/bedrock/wire";
import { gemini } from "../shapes/gemini";
import { ollama } from "../shapes/ollama";
import { openaiChat } from "../shapes/openai-chat";
import { openaiResponses } from "../shapes/openai-responses";
import { compareShape, type SurfaceTable } from "../shapes/shape";
import { req } from "./fixtures";

/** What every surface renders: text with usage, tool calls, reasoning, a refusal, a cut-off answer. */
const TRANSCRIPTS: Record<string, ScenarioResponse> = {
  text: { text: "Hello there, world.", usage: { inputTokens: 9, outputTokens: 4, cacheReadTokens: 2, cacheWriteTokens: 3 }, stream: { chunkWords: 2 } },
  tools: {
    text: "Checking.",
    toolCalls: [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "get_time", arguments: { zone: "Europe/Paris" } },
    ],
  },
  toolsOnly: { toolCalls: [{ name: "get_weather", arguments: { city: "Rome" } }] },
  reasoning: { reasoning: [{ text: "Think it through.", signature: "c2ln" }], text: "Answer.", usage: { reasoningTokens: 5 } },
  reasoningTools: { reasoning: [{ text: "Need the weather.", signature: "c2ln" }], toolCalls: [{ name: "get_weather", arguments: {} }] },
  redacted: { reasoning: [{ redacted: "EmwKAhgBEgy3va3pzix" }], text: "Hi." },
  refusal: { refusal: "I can't help with that." },
  length: { text: "Cut off mid", finishReason: "length" },
};
const streamError = { kind: "stream_error" as const, afterChunks: 2, message: "boom" };

type Kinded = { kind: string; value: unknown }[];

/** Checks every rendered object against its table entry, and that the transcripts exercised every entry. */
function check(table: SurfaceTable, rendered: Kinded): void {
  const findings: string[] = [];
  const exercised = new Set<string>();
  for (const { kind, value } of rendered) {
    const entry = table.shapes[kind];
    if (!entry) {
      findings.push(`${kind}: no recording has this event`);
      continue;
    }
    exercised.add(kind);
    for (const f of compareShape(value, entry, table.opaque)) findings.push(`${kind}: ${f}`);
  }
  for (const kind of Object.keys(table.shapes)) if (!exercised.has(kind)) findings.push(`${kind}: table entry not exercised`);
  expect([...new Set(findings)]).toEqual([]);
}

const data = (events: SseEvent[]) => events.filter((e) => e.data !== "[DONE]").map((e) => JSON.parse(e.data) as Record<string, any>);

function replyFor(request: CanonicalRequest, respond: ScenarioResponse, name: string): Reply {
  return resolveReply(undefined, { respond }, request, `shapes/s/${name}/1`);
}

describe("wire shapes against recordings", () => {
  it("every table names the recordings it was read from", () => {
    for (const table of [anthropic, openaiChat, openaiResponses, gemini, ollama, bedrock]) {
      for (const [kind, entry] of Object.entries(table.shapes)) {
        expect(entry.from.length, `${table.surface} ${kind}`).toBeGreaterThan(0);
        for (const s of entry.from) expect(table.sources[s], `${table.surface} ${kind} → ${s}`).toBeDefined();
      }
      for (const s of Object.values(table.sources)) expect(s.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
    }
  });

  it("the comparison reports a missing key, an extra key and a type difference", () => {
    const entry = { from: [], keys: { a: "number", "b?": "string", c: "object", "c.d": "null|string" } };
    expect(compareShape({ a: 1, c: { d: null } }, entry, [])).toEqual([]);
    expect(compareShape({ a: "1", c: { d: 2 }, e: true }, entry, [])).toEqual(["type of a: string, recorded number", "type of c.d: number, recorded null|string", "extra key e (boolean)"]);
    expect(compareShape({ c: {} }, entry, [])).toEqual(["missing key a", "missing key c.d"]);
  });

  it("Anthropic Messages", () => {
    const request = req({ provider: "anthropic", endpoint: "messages", model: "claude-sonnet-4-5", stream: true });
    const wire: MessagesRequest = { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "hi" }] };
    const ctx: RenderContext<MessagesRequest> = { wire, request, requestId: "req_011CZAZuCr9hV42toiCdnnKB", created: 1 };
    const out: Kinded = [];
    for (const [name, respond] of Object.entries(TRANSCRIPTS)) {
      const reply = replyFor(request, respond, name);
      for (const e of data(renderMessageEvents(reply, ctx))) {
        const sub = e.type === "content_block_start" ? `:${e.content_block.type}` : e.type === "content_block_delta" ? `:${e.delta.type}` : "";
        out.push({ kind: `${e.type}${sub}`, value: e });
      }
      out.push({ kind: "message", value: renderMessageJson(reply, ctx) });
    }
    out.push({ kind: "error", value: JSON.parse(renderMessageStreamError(streamError, ctx).data) });
    out.push({ kind: "error", value: renderAnthropicError(apiError("overloaded", "Overloaded"), ctx.requestId).body });
    check(anthropic, out);
  });

  it("OpenAI Chat Completions", () => {
    const parsed = parseChatRequest({ model: "gpt-4o-mini", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "x" }] }, new Headers());
    if (!parsed.ok) throw new Error(parsed.error.message);
    const ctx = { wire: parsed.wire, request: parsed.request, requestId: "req_1", created: 1 };
    const out: Kinded = [];
    const chatKind = (c: Record<string, any>): string => {
      if (c.error) return "error";
      if (c.choices.length === 0) return "chunk:usage";
      const [choice] = c.choices;
      const d = choice.delta;
      if (choice.finish_reason !== null) return "chunk:finish";
      if ("role" in d) return "chunk:role";
      if (d.tool_calls) return "id" in d.tool_calls[0] ? "chunk:tool_call" : "chunk:tool_arguments";
      if ("refusal" in d) return "chunk:refusal";
      if ("content" in d) return "chunk:content";
      return "chunk:reasoning";
    };
    // Reasoning text (`reasoning_content`) is a convention of other OpenAI-compatible servers, not OpenAI's: left out.
    for (const [name, respond] of Object.entries(TRANSCRIPTS).filter(([n]) => !n.startsWith("reasoning") && n !== "redacted")) {
      const reply = replyFor(parsed.request, respond, name);
      for (const c of data(renderChatEvents(reply, ctx))) out.push({ kind: chatKind(c), value: c });
      out.push({ kind: "chat.completion", value: renderChatJson(reply, ctx) });
    }
    out.push({ kind: "error", value: JSON.parse(renderChatStreamError(streamError).data) });
    out.push({ kind: "error", value: renderOpenAIError(apiError("rate_limit", "Rate limit reached."), "req_1").body });
    check(openaiChat, out);
  });

  it("OpenAI Responses", () => {
    const request = req({ endpoint: "responses", model: "gpt-4.1" });
    const out: Kinded = [];
    for (const include of [false, true]) {
      const ctx: RenderContext<ResponsesRequest> = {
        wire: {
          body: { model: "gpt-4.1", tools: [{ type: "function", name: "get_weather", parameters: { type: "object" } }], ...(include ? { include: ["reasoning.encrypted_content"] } : {}) },
          items: [],
          history: [],
        },
        request,
        requestId: "req_1",
        created: 1_700_000_000,
      };
      for (const [name, respond] of Object.entries(TRANSCRIPTS)) {
        const reply = replyFor(request, respond, name);
        for (const e of data(renderResponseEvents(reply, ctx))) {
          out.push({ kind: e.type.startsWith("response.output_item") ? `${e.type}:${e.item.type}` : e.type, value: e });
        }
        out.push({ kind: "response", value: renderResponseJson(reply, ctx) });
      }
      const reply = replyFor(request, TRANSCRIPTS.text!, "failed");
      const sent = renderResponseEvents(reply, ctx).slice(0, 4);
      for (const e of data(renderResponseStreamError(streamError, ctx, reply, sent))) out.push({ kind: e.type, value: e });
    }
    out.push({ kind: "error-body", value: renderOpenAIError(apiError("invalid_request", "Bad.", { param: "input" }), "req_1").body });
    check(openaiResponses, out);
  });

  it("Gemini", () => {
    const request = req({ provider: "gemini", endpoint: "generateContent", model: "gemini-2.5-flash", stream: true });
    const wire: GeminiWire = { body: { contents: [] }, model: "gemini-2.5-flash", method: "streamGenerateContent", sse: true };
    const ctx: RenderContext<GeminiWire> = { wire, request, requestId: "req_1", created: 1 };
    const out: Kinded = [];
    for (const [name, respond] of Object.entries(TRANSCRIPTS)) {
      const reply = replyFor(request, respond, name);
      for (const c of data(renderGenerateContentEvents(reply, ctx))) {
        out.push({ kind: c.candidates[0].finishReason !== undefined ? "chunk:final" : "chunk", value: c });
      }
      out.push({ kind: "json", value: renderGenerateContentJson(reply, ctx) });
    }
    out.push({ kind: "error", value: JSON.parse(renderGenerateContentStreamError(streamError).data) });
    out.push({ kind: "error", value: renderGeminiError({ code: "rate_limit", message: "You exceeded your current quota.", retryAfterMs: 1500 }, "req_1").body });
    check(gemini, out);
  });

  it("Ollama", () => {
    const request = req({ provider: "ollama", endpoint: "chat", model: "llama3.2", stream: true });
    const ctx: RenderContext<unknown> = { wire: {}, request, requestId: "req_1", created: 1_735_689_600 };
    const out: Kinded = [];
    for (const [name, respond] of Object.entries(TRANSCRIPTS)) {
      const reply = replyFor(request, respond, name);
      for (const l of data(renderOllamaChatEvents(reply, ctx))) out.push({ kind: l.done ? "chat:final" : "chat", value: l });
      for (const l of data(renderGenerateEvents(reply, ctx))) out.push({ kind: l.done ? "generate:final" : "generate", value: l });
      out.push({ kind: "chat:final", value: renderOllamaChatJson(reply, ctx) });
      out.push({ kind: "generate:final", value: renderGenerateJson(reply, ctx) });
    }
    out.push({ kind: "error", value: JSON.parse(renderOllamaStreamError(streamError).data) });
    out.push({ kind: "error", value: renderOllamaError(apiError("not_found", "model 'x' not found"), "req_1").body });
    check(ollama, out);
  });

  it("Bedrock Converse", () => {
    const request = req({ provider: "bedrock", endpoint: "converse", model: "anthropic.claude-3-5-haiku-20241022-v1:0", stream: true });
    const ctx: RenderContext<ConverseWire> = { wire: { body: {}, modelId: request.model }, request, requestId: "r", created: 1 };
    const out: Kinded = [];
    for (const [name, respond] of Object.entries(TRANSCRIPTS)) {
      const reply = replyFor(request, respond, name);
      for (const e of renderConverseEvents(reply, ctx)) {
        const payload = JSON.parse(e.data) as Record<string, any>;
        const member = payload.delta ? `:${Object.keys(payload.delta)[0]}` : payload.start ? `:${Object.keys(payload.start)[0]}` : "";
        out.push({ kind: `${e.event}${member}`, value: payload });
      }
      out.push({ kind: "json", value: renderConverseJson(reply, ctx) });
    }
    const exception = renderBedrockStreamError({ kind: "stream_error" });
    out.push({ kind: `exception:${exception.event}`, value: JSON.parse(exception.data) });
    out.push({ kind: "error", value: renderBedrockError(apiError("invalid_request", "bad"), "r").body });
    check(bedrock, out);
  });
});
