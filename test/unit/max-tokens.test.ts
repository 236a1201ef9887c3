/**
 * Issue 13 item 2: every surface's output-token limit reaches the canonical request, the default responder stops
 * there, and each surface says so in its own words with usage equal to what was sent.
 */
import { describe, expect, it } from "vitest";
import { defaultReply } from "../../src/default/responder";
import { lorem } from "../../src/default/lorem";
import { SURFACES } from "../../src/providers/registry";
import type { ProviderSurface } from "../../src/providers/types";

const MESSAGE = "tell me a long story"; // a lorem answer far longer than 7 words
const LIMIT = 7;

const surface = (path: string): ProviderSurface<any> => SURFACES.find((s) => s.paths.includes(path) || s.matchPath?.(path) === true)!;

const cases = [
  {
    name: "Anthropic max_tokens",
    path: "/v1/messages",
    body: { model: "claude-x", max_tokens: LIMIT, messages: [{ role: "user", content: MESSAGE }] },
    finish: (j: any) => j.stop_reason,
    expected: "max_tokens",
    text: (j: any) => j.content[0].text,
    outputTokens: (j: any) => j.usage.output_tokens,
  },
  {
    name: "OpenAI Chat max_tokens",
    path: "/v1/chat/completions",
    body: { model: "gpt-x", max_tokens: LIMIT, messages: [{ role: "user", content: MESSAGE }] },
    finish: (j: any) => j.choices[0].finish_reason,
    expected: "length",
    text: (j: any) => j.choices[0].message.content,
    outputTokens: (j: any) => j.usage.completion_tokens,
  },
  {
    name: "OpenAI Chat max_completion_tokens",
    path: "/v1/chat/completions",
    body: { model: "gpt-x", max_completion_tokens: LIMIT, max_tokens: 999, messages: [{ role: "user", content: MESSAGE }] },
    finish: (j: any) => j.choices[0].finish_reason,
    expected: "length",
    text: (j: any) => j.choices[0].message.content,
    outputTokens: (j: any) => j.usage.completion_tokens,
  },
  {
    name: "OpenAI Responses max_output_tokens",
    path: "/v1/responses",
    body: { model: "gpt-x", max_output_tokens: LIMIT, input: MESSAGE, store: false },
    finish: (j: any) => `${j.status}/${j.incomplete_details?.reason}`,
    expected: "incomplete/max_output_tokens",
    text: (j: any) => j.output.at(-1).content[0].text,
    outputTokens: (j: any) => j.usage.output_tokens,
  },
  {
    name: "Gemini generationConfig.maxOutputTokens",
    path: "/v1beta/models/gemini-x:generateContent",
    body: { contents: [{ role: "user", parts: [{ text: MESSAGE }] }], generationConfig: { maxOutputTokens: LIMIT } },
    finish: (j: any) => j.candidates[0].finishReason,
    expected: "MAX_TOKENS",
    text: (j: any) => j.candidates[0].content.parts[0].text,
    outputTokens: (j: any) => j.usageMetadata.candidatesTokenCount,
  },
  {
    name: "Ollama options.num_predict",
    path: "/api/chat",
    body: { model: "llama-x", stream: false, options: { num_predict: LIMIT }, messages: [{ role: "user", content: MESSAGE }] },
    finish: (j: any) => j.done_reason,
    expected: "length",
    text: (j: any) => j.message.content,
    outputTokens: (j: any) => j.eval_count,
  },
];

describe("max tokens on every surface (default responder)", () => {
  it.each(cases)("$name: cut at the limit, $expected, usage = words sent", ({ path, body, finish, expected, text, outputTokens }) => {
    const s = surface(path);
    const parsed = s.parse(body, new Headers(), { path, query: new URLSearchParams() });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
    expect(parsed.request.maxTokens).toBe(LIMIT);
    const reply = defaultReply(parsed.request, { wordsPerSecond: 0 });
    const json = s.renderJson(reply, { wire: parsed.wire, request: parsed.request, requestId: "req_1", created: 1_700_000_000 }) as any;
    expect(finish(json)).toBe(expected);
    expect(text(json)).toBe(lorem(LIMIT));
    expect(outputTokens(json)).toBe(LIMIT);
  });
});
