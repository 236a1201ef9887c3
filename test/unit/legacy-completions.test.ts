/**
 * The legacy `/v1/completions` surface's pure parts: the canonical request a body becomes (prompts, the default
 * `max_tokens`, prompts × `n` choices), the model refusals, and a recorded answer decoded for editing.
 */
import { describe, expect, it } from "vitest";
import { chatModelError, completionModelError, DEFAULT_MAX_TOKENS, parseCompletionsRequest } from "../../src/providers/openai/completions/parse";
import { decodeFrames } from "../../src/record/decode";
import { defaultReply } from "../../src/default/responder";
import { isTextChunks, joinText } from "../../src/http/byte-source";
import { renderCompletionsEvents, renderCompletionsJson, renderCompletionsRaw } from "../../src/providers/openai/completions/render";

const headers = new Headers({ authorization: "Bearer sk-test" });

function parsed(body: Record<string, unknown>) {
  const result = parseCompletionsRequest({ model: "gpt-3.5-turbo-instruct", ...body }, headers);
  if (!result.ok) throw new Error(result.error.message);
  return result;
}

describe("parseCompletionsRequest", () => {
  it("one prompt: one user message, max_tokens 16 unless sent, no extra choices", () => {
    const { request, wire } = parsed({ prompt: "Say this is a test" });
    expect(request.endpoint).toBe("completions");
    expect(request.messages).toEqual([{ role: "user", text: "Say this is a test" }]);
    expect(request.maxTokens).toBe(DEFAULT_MAX_TOKENS);
    expect(request.choices).toBeUndefined();
    expect(wire.prompts).toEqual(["Say this is a test"]);
    expect(parsed({ prompt: "x", max_tokens: 0 }).request.maxTokens).toBe(0);
  });

  it("prompts of every form: strings, token ids (joined by spaces), lists of them, null (the start of a document)", () => {
    expect(parsed({ prompt: ["a", "b"], n: 3 }).request).toMatchObject({
      messages: [
        { role: "user", text: "a" },
        { role: "user", text: "b" },
      ],
      choices: 6,
    });
    expect(parsed({ prompt: [1, 2, 3] }).wire.prompts).toEqual(["1 2 3"]);
    expect(parsed({ prompt: [[1, 2], [3]] }).wire.prompts).toEqual(["1 2", "3"]);
    expect(parsed({ prompt: null }).wire.prompts).toEqual([""]);
    expect(parsed({ prompt: "x", stop: "\n" }).request.stopSequences).toEqual(["\n"]);
  });

  it("refusals: the model, missing fields, bounds", () => {
    const refused = (body: Record<string, unknown>) => {
      const r = parseCompletionsRequest(body, headers);
      return r.ok ? undefined : [r.error.param, r.error.status, r.error.message];
    };
    expect(refused({ prompt: "x" })).toEqual([undefined, undefined, "you must provide a model parameter"]);
    expect(refused({ model: "m", prompt: "x", temperature: 3 })?.[0]).toBe("temperature");
    expect(refused({ model: "m", prompt: "x", max_tokens: -1 })?.[0]).toBe("max_tokens");
    expect(refused({ model: "m", prompt: "x", best_of: 21 })?.[0]).toBe("best_of");
    expect(refused({ model: "m", prompt: "x", stream_options: { include_usage: true } })?.[0]).toBe("stream_options");
    expect(refused({ model: "m", prompt: "x", n: 2 })).toBeUndefined();
  });

  it("which models are chat models here, and completion models on Chat Completions", () => {
    for (const m of ["gpt-4o", "gpt-3.5-turbo", "gpt-3.5-turbo-0125", "gpt-5", "o3-mini", "chatgpt-4o-latest", "ft:gpt-4o-mini:org::abc"]) expect(chatModelError(m), m).toBeDefined();
    for (const m of ["gpt-3.5-turbo-instruct", "davinci-002", "babbage-002", "llama3.2", "qwen2.5-coder:7b"]) expect(chatModelError(m), m).toBeUndefined();
    for (const m of ["gpt-3.5-turbo-instruct", "gpt-3.5-turbo-instruct-0914", "davinci-002", "ft:davinci-002:org::x"]) expect(completionModelError(m), m).toBeDefined();
    for (const m of ["gpt-4o", "davinci-0020", "mockllm-default"]) expect(completionModelError(m), m).toBeUndefined();
  });
});

describe("bounded answers", () => {
  it("prompts × n past 128 choices is refused; 128 is answered", () => {
    const r = parseCompletionsRequest({ model: "davinci-002", prompt: ["a", "b", "c"], n: 43 }, headers);
    expect(r.ok ? undefined : [r.error.param, r.error.providerCode, r.error.message]).toEqual([
      "n",
      "integer_above_max_value",
      "Invalid 'n': 3 prompts × n = 129 choices, above the maximum of 128 per request. Send fewer prompts or a smaller 'n'.",
    ]);
    expect(parseCompletionsRequest({ model: "davinci-002", prompt: Array.from({ length: 128 }, () => "a") }, headers).ok).toBe(true);
    expect(parseCompletionsRequest({ model: "davinci-002", prompt: [1, 2, 3], n: 128 }, headers).ok).toBe(true);
  });

  it("log probabilities for at most 100,000 tokens: echoed prompts' words and prompts × n × max_tokens", () => {
    const refused = (body: Record<string, unknown>) => {
      const r = parseCompletionsRequest({ model: "davinci-002", ...body }, headers);
      return r.ok ? undefined : [r.error.param, r.error.message];
    };
    const big = "word ".repeat(100_001);
    expect(refused({ prompt: big, echo: true, logprobs: 0, max_tokens: 0 })).toEqual([
      "logprobs",
      "mockllm gives log probabilities for at most 100,000 tokens a request; this one asks for up to 100,001 (the echoed prompts' and prompts × n × max_tokens). Send fewer or shorter prompts, or a smaller max_tokens.",
    ]);
    expect(refused({ prompt: big, echo: true, max_tokens: 0 })).toBeUndefined();
    expect(refused({ prompt: big, logprobs: 5 })).toBeUndefined();
    expect(refused({ prompt: ["a", "b"], n: 50, logprobs: 1, max_tokens: 1001 })?.[0]).toBe("logprobs");
    expect(refused({ prompt: ["a", "b"], n: 50, logprobs: 1, max_tokens: 1000 })).toBeUndefined();
  });

  it("a large answer is sent in pieces, byte for byte the whole JSON; a small one is built whole", () => {
    const { wire, request } = parsed({ prompt: Array.from({ length: 64 }, (_, i) => `prompt ${i}`), max_tokens: 1500, echo: true, logprobs: 2 });
    const long = "word ".repeat(1_500).trim();
    const reply = { ...defaultReply({ ...request, choices: undefined }, { wordsPerSecond: 0 }), text: long, finishReason: "stop" as const };
    const ctx = { wire, request, requestId: "req_1", created: 1_700_000_000 };
    const raw = renderCompletionsRaw(reply, ctx);
    expect(raw?.contentType).toBe("application/json");
    const body = raw!.body;
    if (!isTextChunks(body)) throw new Error("expected pieces");
    const whole = JSON.stringify(renderCompletionsJson(reply, ctx));
    expect(joinText(body)).toBe(whole);
    expect((JSON.parse(whole) as { choices: unknown[] }).choices).toHaveLength(64);
    const small = parsed({ prompt: "x", max_tokens: 4096 });
    expect(renderCompletionsRaw(reply, { ...ctx, wire: small.wire, request: small.request })).toBeUndefined();
  });

  it("stream chunks are encoded when read, the same text whenever", () => {
    const { wire, request } = parsed({ prompt: ["a", "b"], max_tokens: 100, stream: true, logprobs: 1 });
    const reply = { ...defaultReply({ ...request, choices: undefined }, { wordsPerSecond: 0 }), text: "one two three four five six seven", finishReason: "stop" as const };
    const events = renderCompletionsEvents(reply, { wire, request, requestId: "req_1", created: 1 });
    const first = events.map((e) => e.data);
    expect(events.map((e) => e.data)).toEqual(first);
    const texts = first.slice(0, -1).map((d) => JSON.parse(d) as { choices: { index: number; text: string; logprobs: { tokens: string[] } | null }[] });
    for (const index of [0, 1]) {
      const mine = texts.flatMap((c) => c.choices).filter((c) => c.index === index);
      expect(mine.map((c) => c.text).join("")).toBe("one two three four five six seven");
      expect(mine.flatMap((c) => c.logprobs?.tokens ?? []).join("")).toBe("one two three four five six seven");
    }
    expect(first.at(-1)).toBe("[DONE]");
  });
});

describe("decodeFrames on completions", () => {
  const at = (data: string) => ({ at: 0, data });
  it("a stream: the first choice's text joined, the usage chunk's counts", () => {
    const chunk = (text: string, finish: string | null) =>
      `data: {"id":"cmpl-1","object":"text_completion","created":1,"choices":[{"text":${JSON.stringify(text)},"index":0,"logprobs":null,"finish_reason":${JSON.stringify(finish)}}],"model":"gpt-3.5-turbo-instruct"}\n\n`;
    const frames = [
      at(chunk("Hello", null)),
      at(chunk(", world", null)),
      at(chunk("", "stop")),
      at(`data: {"id":"cmpl-1","object":"text_completion","created":1,"model":"gpt-3.5-turbo-instruct","usage":{"prompt_tokens":4,"completion_tokens":3,"total_tokens":7},"choices":[]}\n\n`),
      at("data: [DONE]\n\n"),
    ];
    const decoded = decodeFrames("completions", "sse", { status: 200, headers: {}, frames });
    expect(decoded).toMatchObject({ text: "Hello, world", usage: { inputTokens: 4, outputTokens: 3 } });
  });

  it("a whole answer", () => {
    const body = {
      id: "cmpl-1",
      object: "text_completion",
      created: 1,
      model: "davinci-002",
      choices: [{ text: "Hi", index: 0, logprobs: null, finish_reason: "stop" }],
      usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 },
    };
    expect(decodeFrames("completions", "whole", { status: 200, headers: {}, frames: [at(JSON.stringify(body))] })).toMatchObject({ text: "Hi", usage: { inputTokens: 2, outputTokens: 1 } });
  });
});
