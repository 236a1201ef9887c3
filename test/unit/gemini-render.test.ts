import { describe, expect, it } from "vitest";
import type { Reply } from "../../src/canonical/outcome";
import type { CanonicalRequest } from "../../src/canonical/request";
import { protoDuration, renderGeminiError } from "../../src/providers/gemini/errors";
import { geminiGenerateContent } from "../../src/providers/gemini";
import { renderGenerateContentJson } from "../../src/providers/gemini/render-json";
import { renderGenerateContentEvents, renderGenerateContentStreamError } from "../../src/providers/gemini/render-stream";
import type { GeminiWire } from "../../src/providers/gemini/wire";
import type { RenderContext } from "../../src/providers/types";
import { resolveReply } from "../../src/scenario/engine";
import type { ScenarioResponse } from "../../src/scenario/schema";
import { req } from "./fixtures";

const request: CanonicalRequest = req({ provider: "gemini", endpoint: "generateContent", model: "gemini-2.5-flash", stream: true }, [{ role: "user", text: "hi" }]);
const wire: GeminiWire = { body: { contents: [] }, model: "gemini-2.5-flash", method: "streamGenerateContent", sse: true };
const ctx: RenderContext<GeminiWire> = { wire, request, requestId: "req_1", created: 1_700_000_000 };

function reply(respond: ScenarioResponse, seed = "s/default/step-1/1"): Reply {
  return resolveReply(undefined, { respond }, request, seed);
}
const chunks = (respond: ScenarioResponse) => renderGenerateContentEvents(reply(respond), ctx).map((e) => ({ event: e.event, data: JSON.parse(e.data), words: e.words }));

describe("gemini JSON body", () => {
  it("renders text, finishReason, usage, modelVersion and a deterministic responseId", () => {
    const body = renderGenerateContentJson(reply({ text: "Hello there", usage: { inputTokens: 10, outputTokens: 3 } }));
    expect(body).toEqual({
      candidates: [{ content: { parts: [{ text: "Hello there" }], role: "model" }, finishReason: "STOP", index: 0 }],
      usageMetadata: {
        promptTokenCount: 10,
        candidatesTokenCount: 3,
        totalTokenCount: 13,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: 10 }],
      },
      modelVersion: "gemini-2.5-flash",
      responseId: expect.stringMatching(/^[0-9A-Za-z]{22}$/),
    });
    expect(renderGenerateContentJson(reply({ text: "x" })).responseId).toBe(body.responseId);
    expect(renderGenerateContentJson(reply({ text: "x" }, "s/default/step-1/2")).responseId).not.toBe(body.responseId);
  });

  it("thoughts first (redacted left out), then text and refusal, then function calls; the signature on the first call", () => {
    const body = renderGenerateContentJson(
      reply({
        reasoning: [{ text: "hmm", signature: "c2ln" }, { text: "so" }, { redacted: "xyz" }],
        text: "Calling.",
        toolCalls: [
          { name: "get_weather", arguments: { city: "Rome" } },
          { id: "call-9", name: "raw", arguments: "[1,2]" },
        ],
      }),
    );
    expect((body.candidates as any)[0]).toEqual({
      content: {
        role: "model",
        parts: [
          { text: "hmm", thought: true },
          { text: "so", thought: true },
          { text: "Calling." },
          { functionCall: { name: "get_weather", args: { city: "Rome" } }, thoughtSignature: "c2ln" },
          { functionCall: { id: "call-9", name: "raw", args: { INVALID_JSON: "[1,2]" } } },
        ],
      },
      finishReason: "STOP",
      index: 0,
      finishMessage: "Model generated function call(s).",
    });
  });

  it("without function calls the signature sits on the last text part; with no text, on an empty one", () => {
    const text = renderGenerateContentJson(reply({ reasoning: [{ text: "hmm", signature: "c2ln" }], text: "Hi.", refusal: "No." }));
    expect((text.candidates as any)[0].content.parts).toEqual([{ text: "hmm", thought: true }, { text: "Hi." }, { text: "No.", thoughtSignature: "c2ln" }]);
    expect((text.candidates as any)[0].finishMessage).toBeUndefined();
    const bare = renderGenerateContentJson(reply({ reasoning: [{ text: "hmm", signature: "c2ln" }] }));
    expect((bare.candidates as any)[0].content.parts).toEqual([
      { text: "hmm", thought: true },
      { text: "", thoughtSignature: "c2ln" },
    ]);
    // No scripted signature: none is invented.
    const none = renderGenerateContentJson(reply({ reasoning: [{ text: "hmm" }], toolCalls: [{ name: "f", arguments: {} }] }));
    expect((none.candidates as any)[0].content.parts).toEqual([{ text: "hmm", thought: true }, { functionCall: { name: "f", args: {} } }]);
  });

  it.each([
    ["stop", "STOP"],
    ["length", "MAX_TOKENS"],
    ["content_filter", "SAFETY"],
    ["tool_calls", "STOP"],
  ] as const)("finishReason %s → %s", (finishReason, expected) => {
    expect((renderGenerateContentJson(reply({ text: "x", finishReason })).candidates as any)[0].finishReason).toBe(expected);
  });

  it("usage: thoughts apart from candidates, cached tokens reported", () => {
    const body = renderGenerateContentJson(reply({ text: "x", usage: { inputTokens: 50, outputTokens: 40, reasoningTokens: 25, cacheReadTokens: 20 } }));
    expect(body.usageMetadata).toEqual({
      promptTokenCount: 50,
      candidatesTokenCount: 15,
      totalTokenCount: 90,
      cachedContentTokenCount: 20,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: 50 }],
      cacheTokensDetails: [{ modality: "TEXT", tokenCount: 20 }],
      thoughtsTokenCount: 25,
    });
  });

  it("extra messages (the default responder's) append their parts to candidates[0]", () => {
    const r = reply({ text: "first" });
    r.extraChoices = [reply({ toolCalls: [{ name: "t", arguments: {} }] }, "s/default/step-1/1#1")];
    expect((renderGenerateContentJson(r).candidates as any)[0].content.parts).toEqual([{ text: "first" }, { functionCall: { name: "t", args: {} } }]);
  });
});

describe("gemini SSE transcript", () => {
  it("data-only events, each with only new parts and a running usageMetadata; the last holds finishReason", () => {
    const events = chunks({ text: "one two three", stream: { chunkWords: 2 } });
    expect(events.map((e) => e.event)).toEqual([undefined, undefined]);
    expect(events.map((e) => e.words)).toEqual([2, 1]);
    expect(events.map((e) => e.data.candidates[0].content.parts)).toEqual([[{ text: "one two" }], [{ text: " three" }]]);
    expect(events[0]!.data.candidates[0].finishReason).toBeUndefined();
    // Two of three words sent: 2/3 of the 32 candidate tokens, rounded.
    expect(events[0]!.data.usageMetadata).toEqual({
      promptTokenCount: 64,
      candidatesTokenCount: 21,
      totalTokenCount: 85,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: 64 }],
    });
    expect(events[1]!.data.candidates[0].finishReason).toBe("STOP");
    expect(events[1]!.data.usageMetadata).toMatchObject({ promptTokenCount: 64, candidatesTokenCount: 32, totalTokenCount: 96 });
  });

  it("thought pieces carry no signature; it goes on the first function call, which is one chunk, with finishMessage", () => {
    const events = chunks({
      reasoning: [{ text: "a b c", signature: "S" }],
      toolCalls: [
        { name: "f", arguments: { x: 1 } },
        { name: "g", arguments: {} },
      ],
      usage: { outputTokens: 10, reasoningTokens: 4 },
      stream: { chunkWords: 2 },
    });
    expect(events.map((e) => e.data.candidates[0].content.parts)).toEqual([
      [{ text: "a b", thought: true }],
      [{ text: " c", thought: true }],
      [{ functionCall: { name: "f", args: { x: 1 } }, thoughtSignature: "S" }],
      [{ functionCall: { name: "g", args: {} } }],
    ]);
    expect(events.map((e) => e.words)).toEqual([2, 1, 1, 1]);
    // Thoughts are counted whole from the first chunk; candidates run with the answer.
    expect(events.map((e) => [e.data.usageMetadata.candidatesTokenCount, e.data.usageMetadata.thoughtsTokenCount])).toEqual([
      [undefined, 4],
      [undefined, 4],
      [3, 4],
      [6, 4],
    ]);
    expect(events[3]!.data.candidates[0]).toMatchObject({ finishReason: "STOP", index: 0, finishMessage: "Model generated function call(s)." });
    expect(events[2]!.data.candidates[0].finishMessage).toBeUndefined();
  });

  it("a signature after text comes on a trailing empty text part that finishes the stream", () => {
    const events = chunks({ reasoning: [{ text: "t", signature: "S" }], text: "a b", stream: { chunkWords: 1 } });
    expect(events.map((e) => e.data.candidates[0].content.parts)).toEqual([[{ text: "t", thought: true }], [{ text: "a" }], [{ text: " b" }], [{ text: "", thoughtSignature: "S" }]]);
    expect(events.map((e) => e.words)).toEqual([1, 1, 1, undefined]);
    expect(events[3]!.data.candidates[0].finishReason).toBe("STOP");
    expect(events[2]!.data.candidates[0].finishReason).toBeUndefined();
  });

  it("an empty reply still sends one finishing chunk", () => {
    const events = chunks({ text: "" });
    expect(events).toHaveLength(1);
    expect(events[0]!.data.candidates[0]).toEqual({ content: { parts: [{ text: "" }], role: "model" }, finishReason: "STOP", index: 0 });
  });

  it("without alt=sse, the streaming method answers the chunks as one JSON array", () => {
    const r = reply({ text: "a b", stream: { chunkWords: 1 } });
    const body = geminiGenerateContent.renderJson(r, { ...ctx, wire: { ...wire, sse: false } }) as any[];
    expect(body.map((c) => c.candidates[0].content.parts[0].text)).toEqual(["a", " b"]);
  });
});

describe("gemini errors", () => {
  it.each([
    ["invalid_request", 400, "INVALID_ARGUMENT"],
    ["mismatch", 400, "INVALID_ARGUMENT"],
    ["permission", 403, "PERMISSION_DENIED"],
    ["not_found", 404, "NOT_FOUND"],
    ["model_error", 500, "INTERNAL"],
    ["overloaded", 503, "UNAVAILABLE"],
  ] as const)("%s → %i %s", (code, status, name) => {
    expect(renderGeminiError({ code, message: "m" }, "req")).toEqual({ status, body: { error: { code: status, message: "m", status: name } }, headers: {} });
  });

  it("429 carries QuotaFailure, Help and RetryInfo details", () => {
    const r = renderGeminiError({ code: "rate_limit", message: "quota", retryAfterMs: 30_000 }, "req");
    expect(r.status).toBe(429);
    expect((r.body as any).error).toMatchObject({ code: 429, status: "RESOURCE_EXHAUSTED", message: "quota" });
    expect((r.body as any).error.details.map((d: any) => d["@type"])).toEqual([
      "type.googleapis.com/google.rpc.QuotaFailure",
      "type.googleapis.com/google.rpc.Help",
      "type.googleapis.com/google.rpc.RetryInfo",
    ]);
    expect((r.body as any).error.details[2].retryDelay).toBe("30s");
  });

  it.each([
    [0, "0s"],
    [1500, "1.500s"],
    [60_000, "60s"],
  ])("protoDuration(%i) = %s", (ms, text) => expect(protoDuration(ms)).toBe(text));

  it("stream_error: an error object the SDK throws on; errorType picks the status", () => {
    expect(JSON.parse(renderGenerateContentStreamError({ kind: "stream_error" }).data)).toEqual({
      error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" },
    });
    expect(JSON.parse(renderGenerateContentStreamError({ kind: "stream_error", errorType: "INTERNAL", message: "boom" }).data)).toEqual({
      error: { code: 500, message: "boom", status: "INTERNAL" },
    });
  });
});
