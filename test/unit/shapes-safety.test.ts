/**
 * Shape test of the `content_filter` failure's renderings (a blocked prompt, an answer stopped after 2 chunks), through
 * the real render functions: events that add safety keys against test/shapes/safety.ts (every entry exercised), every
 * other event against the surface's own table (test/shapes/*.ts), which a filtered answer must not step outside.
 */
import { describe, expect, it } from "vitest";
import type { Reply } from "../../src/canonical/outcome";
import type { CanonicalRequest } from "../../src/canonical/request";
import { filteredReply } from "../../src/canonical/safety";
import { renderMessageJson } from "../../src/providers/anthropic/render-json";
import { renderMessageEvents } from "../../src/providers/anthropic/render-stream";
import type { MessagesRequest } from "../../src/providers/anthropic/wire";
import { renderConverseEvents, renderConverseJson } from "../../src/providers/bedrock/render-converse";
import type { ConverseWire } from "../../src/providers/bedrock/wire";
import { renderGenerateContentJson } from "../../src/providers/gemini/render-json";
import { renderGenerateContentEvents } from "../../src/providers/gemini/render-stream";
import type { GeminiWire } from "../../src/providers/gemini/wire";
import { parseChatRequest } from "../../src/providers/openai/chat/parse";
import { renderChatJson } from "../../src/providers/openai/chat/render-json";
import { renderChatEvents } from "../../src/providers/openai/chat/render-stream";
import { renderResponseJson } from "../../src/providers/openai/responses/render-json";
import { renderResponseEvents } from "../../src/providers/openai/responses/render-stream";
import type { ResponsesRequest } from "../../src/providers/openai/responses/wire";
import type { RenderContext, SseEvent } from "../../src/providers/types";
import { resolveReply } from "../../src/scenario/engine";
import type { Failure } from "../../src/scenario/schema";
import { anthropic } from "../shapes/anthropic";
import { bedrock } from "../shapes/bedrock";
import { gemini } from "../shapes/gemini";
import { openaiChat } from "../shapes/openai-chat";
import { openaiResponses } from "../shapes/openai-responses";
import { anthropicSafety, bedrockSafety, geminiSafety } from "../shapes/safety";
import { compareShape, type SurfaceTable } from "../shapes/shape";
import { req } from "./fixtures";

type Kinded = { kind: string; value: unknown }[];
type ContentFilter = Extract<Failure, { kind: "content_filter" }>;

const FAILURES: ContentFilter[] = [
  { kind: "content_filter", on: "prompt", categories: ["violence"], message: "Blocked." },
  { kind: "content_filter", on: "completion", afterChunks: 2, categories: ["hate", "sexual"] },
];

function filtered(request: CanonicalRequest, failure: ContentFilter): Reply {
  const reply = resolveReply(undefined, { respond: { text: "Here is how you would do that.", usage: { inputTokens: 9 } } }, request, `shapes/safety/${failure.on}`);
  return filteredReply(failure, reply);
}

/** Findings of `rendered` against `tables` (kind → the table that holds it); `exhaustive` tables must be exercised whole. */
function check(rendered: Kinded, tables: SurfaceTable[], exhaustive: SurfaceTable[]): void {
  const findings: string[] = [];
  const exercised = new Set<string>();
  for (const { kind, value } of rendered) {
    const table = tables.find((t) => t.shapes[kind]);
    if (!table) {
      findings.push(`${kind}: no table has this event`);
      continue;
    }
    exercised.add(`${table.surface}|${kind}`);
    for (const f of compareShape(value, table.shapes[kind]!, table.opaque)) findings.push(`${kind}: ${f}`);
  }
  for (const t of exhaustive) for (const kind of Object.keys(t.shapes)) if (!exercised.has(`${t.surface}|${kind}`)) findings.push(`${kind}: table entry not exercised`);
  expect([...new Set(findings)]).toEqual([]);
}

const data = (events: SseEvent[]) => events.filter((e) => e.data !== "[DONE]").map((e) => JSON.parse(e.data) as Record<string, any>);

describe("content_filter wire shapes against recordings and documentation", () => {
  it("every safety table names its sources", () => {
    for (const table of [anthropicSafety, geminiSafety, bedrockSafety]) {
      for (const [kind, entry] of Object.entries(table.shapes)) {
        expect(entry.from.length, `${table.surface} ${kind}`).toBeGreaterThan(0);
        for (const s of entry.from) expect(table.sources[s], `${table.surface} ${kind} → ${s}`).toBeDefined();
      }
      for (const s of Object.values(table.sources)) expect(s.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
    }
  });

  it("Anthropic: stop_details on message_delta and the message; everything else as the Messages table records it", () => {
    const request = req({ provider: "anthropic", endpoint: "messages", model: "claude-sonnet-4-5", stream: true });
    const wire: MessagesRequest = { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "hi" }] };
    const ctx: RenderContext<MessagesRequest> = { wire, request, requestId: "req_011CZAZuCr9hV42toiCdnnKB", created: 1 };
    const out: Kinded = [];
    for (const failure of FAILURES) {
      const reply = filtered(request, failure);
      for (const e of data(renderMessageEvents(reply, ctx))) {
        const sub = e.type === "content_block_start" ? `:${e.content_block.type}` : e.type === "content_block_delta" ? `:${e.delta.type}` : e.type === "message_delta" ? ":refusal" : "";
        out.push({ kind: `${e.type}${sub}`, value: e });
      }
      out.push({ kind: "message:refusal", value: renderMessageJson(reply, ctx) });
    }
    check(out, [anthropicSafety, anthropic], [anthropicSafety]);
  });

  it("Gemini and Vertex: promptFeedback for a blocked prompt, safetyRatings on the SAFETY finish", () => {
    const out: Kinded = [];
    for (const provider of ["gemini", "vertex"] as const) {
      const request = req({ provider, endpoint: "generateContent", model: "gemini-2.5-flash", stream: true });
      const wire: GeminiWire = { body: { contents: [] }, model: "gemini-2.5-flash", method: "streamGenerateContent", sse: true };
      const ctx: RenderContext<GeminiWire> = { wire, request, requestId: "req_1", created: 1 };
      for (const failure of FAILURES) {
        const reply = filtered(request, failure);
        const kind = (c: Record<string, any>, final: string) => (c.promptFeedback ? "promptBlocked" : c.candidates[0].finishReason !== undefined ? final : "chunk");
        for (const c of data(renderGenerateContentEvents(reply, ctx))) out.push({ kind: kind(c, "chunk:safety"), value: c });
        const json = renderGenerateContentJson(reply, ctx);
        out.push({ kind: kind(json, "json:safety"), value: json });
      }
    }
    check(out, [geminiSafety, gemini], [geminiSafety]);
  });

  it("Bedrock Converse: the guardrail trace on the JSON body and the stream's metadata", () => {
    const request = req({ provider: "bedrock", endpoint: "converse", model: "amazon.nova-lite-v1:0", stream: true });
    const body = { guardrailConfig: { guardrailIdentifier: "gr-abc123", guardrailVersion: "1", trace: "enabled" } };
    const ctx: RenderContext<ConverseWire> = { wire: { body, modelId: request.model }, request, requestId: "r", created: 1 };
    const out: Kinded = [];
    for (const failure of FAILURES) {
      const reply = filtered(request, failure);
      const side = failure.on === "prompt" ? "input" : "output";
      for (const e of renderConverseEvents(reply, ctx)) {
        const payload = JSON.parse(e.data) as Record<string, any>;
        const member = payload.delta ? `:${Object.keys(payload.delta)[0]}` : e.event === "metadata" ? `:guardrail:${side}` : "";
        out.push({ kind: `${e.event}${member}`, value: payload });
      }
      out.push({ kind: `json:guardrail:${side}`, value: renderConverseJson(reply, ctx) });
    }
    check(out, [bedrockSafety, bedrock], [bedrockSafety]);
  });

  it("OpenAI Chat and Responses: a refusal and a content_filter finish stay inside the recorded tables", () => {
    const parsed = parseChatRequest({ model: "gpt-4o-mini", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "x" }] }, new Headers());
    if (!parsed.ok) throw new Error(parsed.error.message);
    const chatCtx = { wire: parsed.wire, request: parsed.request, requestId: "req_1", created: 1 };
    const chatKind = (c: Record<string, any>): string => {
      if (c.choices.length === 0) return "chunk:usage";
      const [choice] = c.choices;
      if (choice.finish_reason !== null) return "chunk:finish";
      if ("role" in choice.delta) return "chunk:role";
      return "refusal" in choice.delta ? "chunk:refusal" : "chunk:content";
    };
    const chat: Kinded = [];
    for (const failure of FAILURES) {
      const reply = filtered(parsed.request, failure);
      for (const c of data(renderChatEvents(reply, chatCtx))) chat.push({ kind: chatKind(c), value: c });
      chat.push({ kind: "chat.completion", value: renderChatJson(reply, chatCtx) });
    }
    check(chat, [openaiChat], []);

    const request = req({ endpoint: "responses", model: "gpt-4.1" });
    const ctx: RenderContext<ResponsesRequest> = { wire: { body: { model: "gpt-4.1" }, items: [], history: [] }, request, requestId: "req_1", created: 1_700_000_000 };
    const responses: Kinded = [];
    for (const failure of FAILURES) {
      const reply = filtered(request, failure);
      for (const e of data(renderResponseEvents(reply, ctx))) {
        responses.push({ kind: e.type.startsWith("response.output_item") ? `${e.type}:${e.item.type}` : e.type, value: e });
      }
      responses.push({ kind: "response", value: renderResponseJson(reply, ctx) });
    }
    check(responses, [openaiResponses], []);
  });
});
