import { describe, expect, it } from "vitest";
import { renderChatJson } from "../../src/providers/openai/chat/render-json";
import { renderChatEvents } from "../../src/providers/openai/chat/render-stream";
import { parseChatRequest } from "../../src/providers/openai/chat/parse";
import { resolveReply } from "../../src/scenario/engine";
import type { ScenarioResponse } from "../../src/scenario/schema";
import { req } from "./fixtures";

function render(respond: ScenarioResponse, wire: Record<string, unknown> = {}) {
  const parsed = parseChatRequest({ model: "m", messages: [{ role: "user", content: "x" }], ...wire }, new Headers());
  if (!parsed.ok) throw new Error(parsed.error.message);
  const reply = resolveReply(undefined, { respond }, req(), "demo/s/step-1/1");
  const ctx = { wire: parsed.wire, request: parsed.request, requestId: "req_1", created: 1 };
  return { json: renderChatJson(reply, ctx) as any, events: renderChatEvents(reply, ctx).map((e) => (e.data === "[DONE]" ? e.data : JSON.parse(e.data))) };
}

describe("Chat Completions rendering", () => {
  it.each([
    { name: "text", respond: { text: "hi" }, message: { role: "assistant", content: "hi", refusal: null, annotations: [] }, finish: "stop" },
    {
      name: "tool call only: content null",
      respond: { toolCalls: [{ id: "call_x", name: "f", arguments: { a: 1 } }] },
      message: { role: "assistant", content: null, refusal: null, annotations: [], tool_calls: [{ id: "call_x", type: "function", function: { name: "f", arguments: '{"a":1}' } }] },
      finish: "tool_calls",
    },
    { name: "refusal", respond: { refusal: "no" }, message: { role: "assistant", content: null, refusal: "no", annotations: [] }, finish: "stop" },
    {
      name: "reasoning_content",
      respond: { text: "a", reasoning: [{ text: "r1" }, { text: "r2" }] },
      message: { role: "assistant", content: "a", refusal: null, annotations: [], reasoning_content: "r1\n\nr2" },
      finish: "stop",
    },
    {
      name: "reasoning field",
      respond: { text: "a", reasoning: "r", reasoningField: "reasoning" as const },
      message: { role: "assistant", content: "a", refusal: null, annotations: [], reasoning: "r" },
      finish: "stop",
    },
    { name: "content_filter", respond: { text: "", finishReason: "content_filter" as const }, message: { role: "assistant", content: "", refusal: null, annotations: [] }, finish: "content_filter" },
  ])("$name", ({ respond, message, finish }) => {
    const { json } = render(respond);
    expect(json.choices).toEqual([{ index: 0, message, logprobs: null, finish_reason: finish }]);
    expect(json.usage).toMatchObject({ prompt_tokens: 64, completion_tokens: 32, total_tokens: 96 });
  });

  it("stream: role first, usage only with include_usage, [DONE] last", () => {
    const without = render({ text: "a b" }).events;
    expect(without.at(-1)).toBe("[DONE]");
    expect(without.some((e: any) => e !== "[DONE]" && "usage" in e)).toBe(false);
    const withUsage = render({ text: "a b" }, { stream: true, stream_options: { include_usage: true } }).events;
    expect(withUsage.at(-2)).toMatchObject({ choices: [], usage: { total_tokens: 96 } });
    expect(withUsage.slice(0, -2).every((e: any) => e.usage === null)).toBe(true);
    expect(withUsage[0].choices[0].delta).toEqual({ role: "assistant", content: "", refusal: null });
  });

  it("a scripted tool id is kept; unscripted ids are derived from the seed", () => {
    const { json } = render({ toolCalls: [{ name: "a" }, { id: "mine", name: "b" }] });
    expect(json.choices[0].message.tool_calls.map((c: any) => c.id)).toEqual([expect.stringMatching(/^call_[A-Za-z0-9]{24}$/), "mine"]);
    expect(render({ toolCalls: [{ name: "a" }] }).json.choices[0].message.tool_calls[0].id).toBe(json.choices[0].message.tool_calls[0].id);
  });
});

describe("Chat Completions chunk fields (as recorded)", () => {
  it("every chunk carries service_tier between model and system_fingerprint, and obfuscation last", () => {
    const events = render({ text: "a b" }, { stream: true, stream_options: { include_usage: true } }).events.slice(0, -1);
    for (const e of events) {
      expect(Object.keys(e).slice(0, 6)).toEqual(["id", "object", "created", "model", "service_tier", "system_fingerprint"]);
      expect(Object.keys(e).at(-1)).toBe("obfuscation");
      expect(e.service_tier).toBe("default");
    }
    // Deterministic: the same reply gives the same padding.
    expect(render({ text: "a b" }).events).toEqual(render({ text: "a b" }).events);
  });

  it("obfuscation pads each delta to the recorded bucket (delta + padding ≡ 10 mod 16)", () => {
    const events = render({ text: "Holiday Name understanding" }).events.slice(0, -1);
    for (const e of events) {
      const text = e.choices[0].delta.content ?? "";
      expect((Array.from(text).length + e.obfuscation.length) % 16).toBe(10);
      expect(e.obfuscation).toMatch(/^[A-Za-z0-9]*$/);
    }
  });

  it("stream_options.include_obfuscation: false leaves it out; a requested service tier is echoed", () => {
    const events = render({ text: "a" }, { stream: true, service_tier: "flex", stream_options: { include_obfuscation: false } }).events.slice(0, -1);
    expect(events.some((e: any) => "obfuscation" in e)).toBe(false);
    expect(events.every((e: any) => e.service_tier === "flex")).toBe(true);
  });

  it('a refusal\'s first delta says refusal: ""', () => {
    const [first, second] = render({ refusal: "No way." }).events;
    expect(first.choices[0].delta).toEqual({ role: "assistant", content: null, refusal: "" });
    expect(second.choices[0].delta).toEqual({ refusal: "No" });
  });

  it("several choices interleave token by token; every finish chunk comes at the end", () => {
    const parsed = parseChatRequest({ model: "m", messages: [{ role: "user", content: "x" }] }, new Headers());
    if (!parsed.ok) throw new Error(parsed.error.message);
    const reply = resolveReply(undefined, { respond: { text: "a b c", stream: { chunkWords: 1 } } }, req(), "demo/s/step-1/1");
    reply.extraChoices = [resolveReply(undefined, { respond: { text: "x y" } }, req(), "demo/s/step-1/1#1")];
    const ctx = { wire: parsed.wire, request: parsed.request, requestId: "req_1", created: 1 };
    const chunks = renderChatEvents(reply, ctx)
      .filter((e) => e.data !== "[DONE]")
      .map((e) => JSON.parse(e.data).choices[0])
      .map((c: any) => [c.index, c.delta.role ?? c.delta.content ?? null, c.finish_reason]);
    expect(chunks).toEqual([
      [0, "assistant", null],
      [0, "a", null],
      [1, "assistant", null],
      [1, "x", null],
      [0, " b", null],
      [1, " y", null],
      [0, " c", null],
      [0, null, "stop"],
      [1, null, "stop"],
    ]);
  });
});
