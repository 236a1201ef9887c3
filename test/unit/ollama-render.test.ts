import { describe, expect, it } from "vitest";
import type { Reply } from "../../src/canonical/outcome";
import type { CanonicalRequest } from "../../src/canonical/request";
import { renderOllamaError } from "../../src/providers/ollama/errors";
import { argumentsObject } from "../../src/http/json";
import { createdAt, renderChatJson, renderGenerateJson } from "../../src/providers/ollama/render-json";
import { renderChatEvents, renderGenerateEvents, renderOllamaStreamError } from "../../src/providers/ollama/render-stream";
import type { RenderContext } from "../../src/providers/types";
import { resolveReply } from "../../src/scenario/engine";
import type { ScenarioResponse } from "../../src/scenario/schema";
import { req } from "./fixtures";

const request: CanonicalRequest = req({ provider: "ollama", endpoint: "chat", model: "llama3.2", stream: true }, [{ role: "user", text: "hi" }]);
const ctx: RenderContext<unknown> = { wire: {}, request, requestId: "req_1", created: 1_735_689_600 };

function reply(respond: ScenarioResponse, seed = "s/default/step-1/1"): Reply {
  return resolveReply(undefined, { respond }, request, seed);
}
const lines = (events: { data: string; words?: number }[]) => events.map((e) => ({ ...JSON.parse(e.data), words: e.words }));

describe("ollama created_at", () => {
  it("is RFC 3339 with nanoseconds, fixed by the seed, later for later lines", () => {
    const r = reply({ text: "x" });
    const t0 = createdAt(r, ctx, 0);
    expect(t0).toMatch(/^2025-01-01T00:00:00\.\d{1,9}Z$/);
    expect(createdAt(r, ctx, 0)).toBe(t0);
    expect(createdAt(r, ctx, 2_000_000_000)).toMatch(/^2025-01-01T00:00:02\.\d{1,9}Z$/);
  });
});

describe("ollama /api/chat JSON", () => {
  it("renders text, counts and nanosecond durations", () => {
    const body = renderChatJson(reply({ text: "Hello there", usage: { inputTokens: 10, outputTokens: 4 } }), ctx);
    expect(body).toEqual({
      model: "llama3.2",
      created_at: expect.stringMatching(/^2025-01-01T00:00:00\.\d+Z$/),
      message: { role: "assistant", content: "Hello there" },
      done: true,
      done_reason: "stop",
      total_duration: 12_345_678 + 20_000_000 + 80_000_000,
      load_duration: 12_345_678,
      prompt_eval_count: 10,
      prompt_eval_duration: 20_000_000,
      eval_count: 4,
      eval_duration: 80_000_000,
    });
  });

  it("times eval at the scripted tokensPerSecond", () => {
    const body = renderChatJson(reply({ text: "x", usage: { outputTokens: 10 }, stream: { tokensPerSecond: 100 } }), ctx) as Record<string, number>;
    expect(body.eval_duration).toBe(100_000_000);
  });

  it("renders tool calls as objects with id and index; stop even for tool calls", () => {
    const body = renderChatJson(
      reply({
        toolCalls: [
          { name: "a", arguments: { x: 1 } },
          { id: "call_given", name: "b", arguments: "[1,2]" },
        ],
      }),
      ctx,
    ) as { message: unknown; done_reason: string };
    expect(body.message).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [
        { id: expect.stringMatching(/^call_[0-9a-z]{8}$/), function: { index: 0, name: "a", arguments: { x: 1 } } },
        { id: "call_given", function: { index: 1, name: "b", arguments: { INVALID_JSON: "[1,2]" } } },
      ],
    });
    expect(body.done_reason).toBe("stop");
  });

  it("puts thinking in message.thinking, a refusal in content, and drops redacted reasoning", () => {
    const body = renderChatJson(reply({ reasoning: [{ text: "Think." }, { redacted: "opaque" }], refusal: "I can't help with that." }), ctx) as { message: unknown };
    expect(body.message).toEqual({ role: "assistant", content: "I can't help with that.", thinking: "Think." });
  });

  it("folds extraChoices into the one message: texts joined by a blank line, tool calls appended", () => {
    const base = reply({ text: "First.", reasoning: "R1" });
    const extra1 = reply({ text: "Second." }, "s/default/step-1/1#1");
    const extra2 = reply({ toolCalls: [{ name: "t", arguments: {} }] }, "s/default/step-1/1#2");
    const body = renderChatJson({ ...base, extraChoices: [extra1, extra2] }, ctx) as { message: Record<string, unknown> };
    expect(body.message).toMatchObject({ content: "First.\n\nSecond.", thinking: "R1" });
    expect(body.message.tool_calls).toEqual([{ id: expect.any(String), function: { index: 0, name: "t", arguments: {} } }]);
  });

  it("says length for a reply cut by the token limit", () => {
    expect((renderChatJson(reply({ text: "x", finishReason: "length" }), ctx) as { done_reason: string }).done_reason).toBe("length");
  });

  it.each([
    ["{}", {}],
    ['{"a":[1]}', { a: [1] }],
    ['{"a":', { INVALID_JSON: '{"a":' }],
    ["42", { INVALID_JSON: "42" }],
  ])("argumentsObject(%s), the arguments Ollama sends", (text, expected) => {
    expect(argumentsObject(text)).toEqual(expected);
  });
});

describe("ollama /api/chat NDJSON", () => {
  it("streams thinking, content chunks (with words for pacing), tool calls, then the done line", () => {
    const out = lines(renderChatEvents(reply({ reasoning: "Hmm ok", text: "One two three", toolCalls: [{ name: "f", arguments: { a: 1 } }], stream: { chunkWords: 2 } }), ctx));
    expect(out.map((l) => [l.message, l.done, l.words])).toEqual([
      [{ role: "assistant", content: "", thinking: "Hmm ok" }, false, 2],
      [{ role: "assistant", content: "One two" }, false, 2],
      [{ role: "assistant", content: " three" }, false, 1],
      [{ role: "assistant", content: "", tool_calls: [{ id: expect.any(String), function: { index: 0, name: "f", arguments: { a: 1 } } }] }, false, 1],
      [{ role: "assistant", content: "" }, true, undefined],
    ]);
    expect(out.at(-1)).toMatchObject({ model: "llama3.2", done_reason: "stop", prompt_eval_count: 64, eval_count: 32 });
    expect(new Set(out.map((l) => l.created_at)).size).toBe(out.length);
  });

  it("renders a stream error as one { error } line", () => {
    expect(renderOllamaStreamError({ kind: "stream_error", message: "boom" }).data).toBe('{"error":"boom"}');
    expect(JSON.parse(renderOllamaStreamError({ kind: "stream_error" }).data)).toEqual({
      error: "an error was encountered while running the model",
    });
  });
});

describe("ollama /api/generate", () => {
  it("renders response and thinking, and no context (Ollama omits an empty one)", () => {
    const body = renderGenerateJson(reply({ text: "Blue.", reasoning: "Rayleigh." }), ctx);
    expect(body).toMatchObject({ response: "Blue.", thinking: "Rayleigh.", done: true, done_reason: "stop" });
    expect(body).not.toHaveProperty("message");
    expect(body).not.toHaveProperty("context");
  });

  it("streams response chunks and a final line without context", () => {
    const out = lines(renderGenerateEvents(reply({ text: "a b", stream: { chunkWords: 1 } }), ctx));
    expect(out.map((l) => [l.response, l.done])).toEqual([
      ["a", false],
      [" b", false],
      ["", true],
    ]);
    expect(out.at(-1)).toMatchObject({ eval_count: 32 });
    expect(out.at(-1)).not.toHaveProperty("context");
  });
});

describe("ollama errors", () => {
  it.each([
    ["invalid_request", 400],
    ["mismatch", 400],
    ["not_found", 404],
    ["rate_limit", 429],
    ["model_error", 500],
    ["overloaded", 503],
  ] as const)("%s → %i { error }", (code, status) => {
    expect(renderOllamaError({ code, message: "m" }, "req")).toEqual({ status, body: { error: "m" }, headers: {} });
  });

  it("words an empty body as Ollama does", () => {
    expect(renderOllamaError({ code: "invalid_json", message: "The request body is empty: send a JSON object." }, "r").body).toEqual({
      error: "missing request body",
    });
  });
});
