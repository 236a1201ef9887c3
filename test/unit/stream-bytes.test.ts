// Issue 34: stream events are spliced from strings made once per stream (Chat Completions chunks, Responses and
// Anthropic deltas). Their bytes must be those of building each event as an object and JSON.stringify-ing it: this
// renders seeded random streams both ways for Chat Completions and compares the strings, and for every renderer pins
// a digest of the whole corpus as the renderers before the change sent it.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { replyChoices, type Reply } from "../../src/canonical/outcome";
import { obfuscation } from "../../src/http/ids";
import { jsonString } from "../../src/http/json";
import { pacedStream } from "../../src/http/sse";
import { chatToolCalls, chatUsage, completionId, reasoningText, servedTier } from "../../src/providers/openai/chat/render-json";
import { renderMessageEvents } from "../../src/providers/anthropic/render-stream";
import type { MessagesRequest } from "../../src/providers/anthropic/wire";
import { renderChatEvents } from "../../src/providers/openai/chat/render-stream";
import type { ChatRequest } from "../../src/providers/openai/chat/wire";
import { renderResponseEvents } from "../../src/providers/openai/responses/render-stream";
import type { ResponsesRequest } from "../../src/providers/openai/responses/wire";
import type { RenderContext, SseEvent } from "../../src/providers/types";
import { seededRandom } from "../../src/util/hash";
import { chunkChars, chunkWords, wordCount } from "../../src/util/text";
import { req } from "./fixtures";

/** Pieces of text that JSON escapes, or that a renderer could count or split wrongly. */
const ATOMS = ["word", "Hello", " ", "  ", "\n", "\t", "\r\n", '"', "\\", '\\"', "é", "中文", "😀", "👩‍👩‍👧", "\ud800", "\udc00", "\u0000", "\u001f", "\u007f", "\u2028", "</script>", "{}", "%s", "0"];

function randomText(next: () => number, maxAtoms: number): string {
  let s = "";
  const n = Math.floor(next() * maxAtoms);
  for (let i = 0; i < n; i++) s += next() < 0.5 ? ` w${Math.floor(next() * 1000)}` : ATOMS[Math.floor(next() * ATOMS.length)]!;
  return s;
}

function randomChoice(next: () => number, idSeed: string): Reply {
  const pick = () => next() < 0.5;
  const reply: Reply = {
    reasoning: pick() ? [{ type: "thinking", text: randomText(next, 20) }] : [],
    reasoningField: pick() ? "reasoning_content" : "reasoning",
    toolCalls: pick()
      ? Array.from({ length: 1 + Math.floor(next() * 3) }, (_, i) => ({
          ...(pick() ? { id: `call_${randomText(next, 3)}` } : {}),
          name: `tool_${i}${pick() ? randomText(next, 2) : ""}`,
          arguments: JSON.stringify({ q: randomText(next, 15), n: i }),
        }))
      : [],
    finishReason: (["stop", "length", "tool_calls", "content_filter"] as const)[Math.floor(next() * 4)]!,
    usage: { inputTokens: 12, outputTokens: 34, cacheReadTokens: 5, cacheWriteTokens: 0, reasoningTokens: 7 },
    model: pick() ? "gpt-4o-mini-2024-07-18" : 'odd "model" \\ é',
    latencyMs: 0,
    pacing: { ttftMs: 0, tokensPerSecond: 0, chunkDelayMs: 0, chunkWords: 1 + Math.floor(next() * 5), jitterMs: 0, seed: 0 },
    headers: {},
    idSeed,
  };
  if (pick()) reply.text = randomText(next, 40);
  if (next() < 0.2) reply.refusal = randomText(next, 10);
  return reply;
}

function randomCase(seed: number): { reply: Reply; ctx: RenderContext<ChatRequest> } {
  const next = seededRandom(seed);
  const reply = randomChoice(next, `scenario/session-${seed}/step/1`);
  if (next() < 0.3) reply.extraChoices = Array.from({ length: 1 + Math.floor(next() * 2) }, (_, i) => randomChoice(next, `x/${seed}/${i}`));
  const options = [undefined, null, {}, { include_usage: true }, { include_obfuscation: false }, { include_usage: true, include_obfuscation: false }];
  const wire: ChatRequest = { model: "m", messages: [{ role: "user", content: "x" }], stream: true };
  const streamOptions = options[Math.floor(next() * options.length)];
  if (streamOptions !== undefined) wire.stream_options = streamOptions;
  if (next() < 0.3) wire.service_tier = next() < 0.5 ? "flex" : "auto";
  return { reply, ctx: { wire, request: req({ stream: true }), requestId: "req_1", created: Math.floor(next() * 2e9) } };
}

/** The plain way: each chunk an object, serialised whole. Returns each event's data and words. */
function reference(reply: Reply, ctx: RenderContext<ChatRequest>): { data: string; words: number }[] {
  const includeUsage = ctx.wire.stream_options?.include_usage === true;
  const obfuscate = ctx.wire.stream_options?.include_obfuscation !== false;
  const id = completionId(reply);
  const base = { id, object: "chat.completion.chunk", created: ctx.created, model: reply.model, service_tier: servedTier(ctx), system_fingerprint: "fp_mockllm" };
  type Draft = { index: number; delta: object; finish: string | null; text: string; words: number };
  const size = reply.pacing.chunkWords;
  const perChoice = replyChoices(reply).map((choice, index) => {
    const hasText = choice.text !== undefined && choice.text !== "";
    const contentless = choice.toolCalls.length > 0 || choice.refusal !== undefined;
    const role = { role: "assistant", content: hasText || !contentless ? "" : null, refusal: choice.refusal !== undefined ? "" : null };
    const out: Draft[] = [{ index, delta: role, finish: null, text: "", words: 0 }];
    const runs: [string, string][] = [
      [choice.reasoningField, reasoningText(choice)],
      ["content", choice.text ?? ""],
      ["refusal", choice.refusal ?? ""],
    ];
    for (const [field, whole] of runs) {
      const pieces = chunkWords(whole, size);
      pieces.forEach((piece, i) => out.push({ index, delta: { [field]: piece }, finish: null, text: piece, words: i < pieces.length - 1 ? size : Math.max(1, wordCount(piece)) }));
    }
    chatToolCalls(choice).forEach((call, i) => {
      const head = { index: i, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } };
      out.push({ index, delta: { tool_calls: [head] }, finish: null, text: call.function.name, words: 1 });
      for (const fragment of chunkChars(call.function.arguments, 16)) {
        out.push({ index, delta: { tool_calls: [{ index: i, function: { arguments: fragment } }] }, finish: null, text: fragment, words: 1 });
      }
    });
    return out;
  });
  // One choice as it is; several: each choice's first two chunks, then one chunk of each choice in turn.
  const ordered: Draft[] = [];
  if (perChoice.length === 1) ordered.push(...perChoice[0]!);
  else {
    for (const list of perChoice) ordered.push(...list.slice(0, 2));
    for (let i = 2; perChoice.some((l) => l.length > i); i++) for (const list of perChoice) if (list[i]) ordered.push(list[i]!);
  }
  replyChoices(reply).forEach((choice, index) => ordered.push({ index, delta: {}, finish: choice.finishReason, text: "", words: 0 }));
  const pad = (n: number, text: string) => (obfuscate ? { obfuscation: obfuscation(`${id}#${n}`, text, 10) } : {});
  const events = ordered.map((d, n) => ({
    data: JSON.stringify({
      ...base,
      choices: [{ index: d.index, delta: d.delta, logprobs: null, finish_reason: d.finish }],
      ...(includeUsage ? { usage: null } : {}),
      ...pad(n, d.text),
    }),
    words: d.words,
  }));
  if (includeUsage) events.push({ data: JSON.stringify({ ...base, choices: [], usage: chatUsage(reply), ...pad(ordered.length, "") }), words: 0 });
  events.push({ data: "[DONE]", words: 0 });
  return events;
}

const UNPACED = { ttftMs: 0, tokensPerSecond: 0, chunkDelayMs: 0, chunkWords: 1, jitterMs: 0, seed: 0 };

/** The whole transcript as the unpaced stream's body sends it. */
function transcript(reply: Reply, ctx: RenderContext<ChatRequest>): string {
  return sse(renderChatEvents(reply, ctx));
}

function sse(events: SseEvent[]): string {
  const body = pacedStream({ events, pacing: UNPACED, end: { kind: "close" }, waitUntil: () => {} });
  if (typeof body !== "string") throw new Error("an unpaced SSE stream is one string");
  return body;
}

describe("Stream event bytes", () => {
  it("every chunk is the JSON.stringify of its object, on 600 seeded random streams (quotes, escapes, surrogates, tools, n > 1, usage, obfuscation)", () => {
    let chunks = 0;
    for (let seed = 1; seed <= 600; seed++) {
      const { reply, ctx } = randomCase(seed);
      const events = renderChatEvents(reply, ctx);
      const expected = reference(reply, ctx);
      expect(events.map((e) => e.data)).toEqual(expected.map((e) => e.data));
      expect(events.map((e) => e.words ?? 0)).toEqual(expected.map((e) => e.words));
      expect(transcript(reply, ctx)).toBe(expected.map((e) => `data: ${e.data}\n\n`).join(""));
      chunks += events.length;
    }
    expect(chunks).toBeGreaterThan(10_000);
  });

  it("the corpus's transcripts are byte for byte those the renderer sent before its chunks were templates", () => {
    const hash = createHash("sha256");
    for (let seed = 1; seed <= 600; seed++) {
      const { reply, ctx } = randomCase(seed);
      hash.update(transcript(reply, ctx));
    }
    // The digests were taken again once when ids widened to a 64-bit hash (issue 51): the ids changed, nothing else;
    // and once when argument fragments stopped splitting surrogate pairs (util/text.ts chunkChars): 31 of the 600
    // transcripts changed, each only where a fragment had ended inside a pair (the arguments, joined, the same; the
    // other events the same but for the padding that counts a fragment).
    expect(hash.digest("hex")).toBe("dd29b3c270096728639cc27109fd44984558574cb3ab7f9e8b7e316e10bdb74c");
  });

  it("Anthropic and Responses transcripts are byte for byte those sent before their deltas were templates; each event's JSON is JSON.stringify's", () => {
    const anthropic = createHash("sha256");
    const responses = createHash("sha256");
    for (let seed = 1; seed <= 300; seed++) {
      const { reply, ctx } = randomCase(seed);
      const a: RenderContext<MessagesRequest> = { ...ctx, wire: { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "x" }] } };
      const obfuscation = ctx.wire.stream_options?.include_obfuscation;
      const body = { model: "gpt-4.1", ...(obfuscation === false ? { stream_options: { include_obfuscation: false } } : {}) };
      const r: RenderContext<ResponsesRequest> = { ...ctx, wire: { body, items: [], history: [] } };
      for (const [events, hash] of [
        [renderMessageEvents(reply, a), anthropic],
        [renderResponseEvents(reply, r), responses],
      ] as const) {
        for (const e of events) expect(e.data).toBe(JSON.stringify(JSON.parse(e.data)));
        hash.update(sse(events));
      }
    }
    expect([anthropic.digest("hex"), responses.digest("hex")]).toEqual([
      // Anthropic: taken again when every message gained `stop_details` and `diagnostics` (wave 35: with
      // `,"stop_details":null` and `,"diagnostics":null` taken out the corpus hashed to the digest before, 41bb4f02…).
      "b9e165a295397cca4cc74e0d72fc194c9e76a7be267e7ae71939e6141e17fbf9",
      // Responses: taken again when argument fragments stopped splitting surrogate pairs (13 of 300 changed, as above),
      // and when usage gained `cache_write_tokens` (wave 35: with `,"cache_write_tokens":N` taken out of every
      // transcript the corpus hashed to the digest before, 9055036b…).
      "7567f512ac9884163063a830286b0c9380d3be79e8b769fa00444b4960c951c3",
    ]);
  });

  it("jsonString is JSON.stringify for every atom, alone and together", () => {
    for (const a of ATOMS) for (const b of ATOMS) expect(jsonString(`${a}x${b}`)).toBe(JSON.stringify(`${a}x${b}`));
    const differ: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (jsonString(String.fromCharCode(c)) !== JSON.stringify(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });
});
