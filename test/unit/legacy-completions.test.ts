/**
 * The legacy `/v1/completions` surface's pure parts: the canonical request a body becomes (prompts, the default
 * `max_tokens`, prompts × `n` choices), the model refusals, and a recorded answer decoded for editing.
 */
import { describe, expect, it } from "vitest";
import { chatModelError, completionModelError, DEFAULT_MAX_TOKENS, parseCompletionsRequest } from "../../src/providers/openai/completions/parse";
import { decodeFrames } from "../../src/record/decode";

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
