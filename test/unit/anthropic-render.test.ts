import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../../src/canonical/request";
import { renderMessageJson } from "../../src/providers/anthropic/render-json";
import { jsonFragments, renderMessageEvents, renderMessageStreamError } from "../../src/providers/anthropic/render-stream";
import { thinkingSignature } from "../../src/providers/anthropic/thinking";
import type { MessagesRequest } from "../../src/providers/anthropic/wire";
import type { RenderContext } from "../../src/providers/types";
import { resolveReply } from "../../src/scenario/engine";
import type { ScenarioResponse } from "../../src/scenario/schema";
import { req } from "./fixtures";

const request: CanonicalRequest = req({ provider: "anthropic", endpoint: "messages", model: "claude-sonnet-4-5", stream: true }, [{ role: "user", text: "hi" }]);
const wire: MessagesRequest = { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "hi" }] };
const ctx: RenderContext<MessagesRequest> = { wire, request, requestId: "req_1", created: 1_700_000_000 };

function reply(respond: ScenarioResponse, seed = "s/default/step-1/1") {
  return resolveReply(undefined, { respond }, request, seed);
}
const events = (respond: ScenarioResponse) => renderMessageEvents(reply(respond), ctx).map((e) => ({ event: e.event, data: JSON.parse(e.data), words: e.words }));

describe("anthropic JSON body", () => {
  it("renders text with usage and a deterministic msg id", () => {
    const body = renderMessageJson(reply({ text: "Hello there", usage: { inputTokens: 10, outputTokens: 3, cacheReadTokens: 4, cacheWriteTokens: 5 } }), ctx);
    expect(body).toEqual({
      model: "claude-sonnet-4-5-20250929",
      id: expect.stringMatching(/^msg_01[0-9A-Za-z]{22}$/),
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: "Hello there" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      stop_details: null,
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 5,
        cache_read_input_tokens: 4,
        cache_creation: { ephemeral_5m_input_tokens: 5, ephemeral_1h_input_tokens: 0 },
        output_tokens: 3,
        service_tier: "standard",
        inference_geo: "not_available",
      },
      diagnostics: null,
    });
    // The recorded key order: model first, stop_details after stop_sequence, diagnostics last, inference_geo last in usage.
    expect(Object.keys(body as object)).toEqual(["model", "id", "type", "role", "content", "stop_reason", "stop_sequence", "stop_details", "usage", "diagnostics"]);
    expect(renderMessageJson(reply({ text: "x" }), ctx)).toMatchObject({ id: (body as { id: string }).id });
    expect(renderMessageJson(reply({ text: "x" }, "other-seed"), ctx)).not.toMatchObject({ id: (body as { id: string }).id });
  });

  it("orders thinking, redacted, text, tool_use; derives tool ids and signatures", () => {
    const body = renderMessageJson(
      reply({
        text: "Checking.",
        reasoning: [{ text: "Think." }, { redacted: "opaque" }, { text: "Scripted.", signature: "sig-x" }],
        toolCalls: [
          { name: "get_weather", arguments: { city: "Paris" } },
          { id: "toolu_scripted", name: "noop" },
          { name: "broken", arguments: '{"city": "Par' },
          { name: "array", arguments: "[1,2]" },
        ],
      }),
      ctx,
    ) as { content: Record<string, unknown>[]; stop_reason: string };
    expect(body.stop_reason).toBe("tool_use");
    expect(body.content).toEqual([
      { type: "thinking", thinking: "Think.", signature: thinkingSignature("Think.") },
      { type: "redacted_thinking", data: "opaque" },
      { type: "thinking", thinking: "Scripted.", signature: "sig-x" },
      { type: "text", text: "Checking." },
      { type: "tool_use", id: expect.stringMatching(/^toolu_01[0-9A-Za-z]{22}$/), name: "get_weather", input: { city: "Paris" } },
      { type: "tool_use", id: "toolu_scripted", name: "noop", input: {} },
      { type: "tool_use", id: expect.stringMatching(/^toolu_01/), name: "broken", input: { INVALID_JSON: '{"city": "Par' } },
      { type: "tool_use", id: expect.stringMatching(/^toolu_01/), name: "array", input: { INVALID_JSON: "[1,2]" } },
    ]);
    const ids = body.content.filter((b) => b.type === "tool_use").map((b) => b.id);
    expect(new Set(ids).size).toBe(4);
  });

  it.each([
    [{ text: "a" }, "end_turn"],
    [{ text: "a", finishReason: "length" }, "max_tokens"],
    [{ toolCalls: [{ name: "f" }] }, "tool_use"],
    [{ text: "a", finishReason: "content_filter" }, "refusal"],
    [{ refusal: "I can't help with that." }, "refusal"],
  ] as [ScenarioResponse, string][])("%j → stop_reason %s", (respond, stop) => {
    expect(renderMessageJson(reply(respond), ctx)).toMatchObject({ stop_reason: stop });
  });

  it("sends a refusal as text", () => {
    expect(renderMessageJson(reply({ refusal: "No." }), ctx)).toMatchObject({ content: [{ type: "text", text: "No." }] });
  });
});

describe("anthropic SSE transcript", () => {
  it("streams text in the real order, chunkWords words per delta", () => {
    const ev = events({ text: "The sky is blue", stream: { chunkWords: 2 }, usage: { inputTokens: 7, outputTokens: 4 } });
    expect(ev.map((e) => e.event)).toEqual(["message_start", "content_block_start", "ping", "content_block_delta", "content_block_delta", "content_block_stop", "message_delta", "message_stop"]);
    for (const e of ev) expect(e.data.type).toBe(e.event);
    expect(ev[0]!.data.message).toMatchObject({
      type: "message",
      role: "assistant",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
    });
    expect(ev[1]!.data).toEqual({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    expect(ev.slice(3, 5).map((e) => [e.data.delta, e.words])).toEqual([
      [{ type: "text_delta", text: "The sky" }, 2],
      [{ type: "text_delta", text: " is blue" }, 2],
    ]);
    expect(ev[6]!.data).toEqual({
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null, stop_details: null },
      usage: { input_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 4 },
    });
  });

  it("streams thinking with one signature_delta before its stop, then tool input as JSON fragments", () => {
    const ev = events({ reasoning: "Let me check", toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] });
    const names = ev.map((e) => `${e.event}${e.data.delta?.type ? `:${e.data.delta.type}` : ""}`);
    expect(names).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta:thinking_delta",
      "content_block_delta:thinking_delta",
      "content_block_delta:thinking_delta",
      "content_block_delta:signature_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta:input_json_delta",
      "content_block_delta:input_json_delta",
      "content_block_delta:input_json_delta",
      "content_block_delta:input_json_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(ev[1]!.data.content_block).toEqual({ type: "thinking", thinking: "", signature: "" });
    expect(ev[6]!.data.delta).toEqual({ type: "signature_delta", signature: thinkingSignature("Let me check") });
    expect(ev[8]!.data).toMatchObject({ index: 1, content_block: { type: "tool_use", name: "get_weather", input: {} } });
    const fragments = ev.slice(9, 13).map((e) => e.data.delta.partial_json);
    expect(fragments[0]).toBe("");
    expect(fragments.join("")).toBe('{"city":"Paris"}');
    expect(ev.at(-2)!.data.delta.stop_reason).toBe("tool_use");
  });

  it("sends redacted thinking whole in its block start, and invalid tool JSON raw", () => {
    const ev = events({ reasoning: [{ redacted: "opaque" }], text: "ok", toolCalls: [{ name: "f", arguments: "not json" }] });
    expect(ev[1]!.data.content_block).toEqual({ type: "redacted_thinking", data: "opaque" });
    expect(ev[3]!.event).toBe("content_block_stop");
    const json = ev.filter((e) => e.data.delta?.type === "input_json_delta").map((e) => e.data.delta.partial_json);
    expect(json.join("")).toBe("not json");
  });

  it("splits JSON without breaking characters", () => {
    expect(jsonFragments("")).toEqual([]);
    expect(jsonFragments('{"a":1}')).toEqual(['{"a', '":1', "}"]);
    expect(jsonFragments('{"e":"😀😀"}').join("")).toBe('{"e":"😀😀"}');
    expect(jsonFragments("x".repeat(200)).every((f) => f.length <= 32)).toBe(true);
  });

  it("renders the stream error event", () => {
    const e = renderMessageStreamError({ kind: "stream_error" }, ctx);
    expect(e.event).toBe("error");
    expect(JSON.parse(e.data)).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
      request_id: "req_1",
    });
    const custom = renderMessageStreamError({ kind: "stream_error", errorType: "api_error", message: "boom" }, ctx);
    expect(JSON.parse(custom.data).error).toEqual({ type: "api_error", message: "boom" });
  });
});

describe("anthropic: further assistant messages (extraChoices)", () => {
  it("append their blocks in order, with their own tool ids, and make the stop reason tool_use", () => {
    const main = reply({ reasoning: "First thought.", text: "First." });
    const extra = reply({ toolCalls: [{ name: "lookup", arguments: { q: "x" } }] }, "s/default/step-1/1/choice-1");
    const body = renderMessageJson({ ...main, extraChoices: [extra] }, ctx) as { content: { type: string; id?: string }[]; stop_reason: string };
    expect(body.content.map((b) => b.type)).toEqual(["thinking", "text", "tool_use"]);
    expect(body.stop_reason).toBe("tool_use");
    const ev = renderMessageEvents({ ...main, extraChoices: [extra] }, ctx).map((e) => JSON.parse(e.data));
    const starts = ev.filter((e) => e.type === "content_block_start").map((e) => [e.index, e.content_block.type]);
    expect(starts).toEqual([
      [0, "thinking"],
      [1, "text"],
      [2, "tool_use"],
    ]);
    expect(ev.find((e) => e.type === "content_block_start" && e.index === 2).content_block.id).toBe(body.content[2]!.id);
  });
});
