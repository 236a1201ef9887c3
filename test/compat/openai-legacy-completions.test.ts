/**
 * OpenAI's legacy `POST /v1/completions` through the official `openai` SDK and the Vercel AI SDK's
 * `openai.completion(…)`: the default answer (16 tokens unless `max_tokens` says otherwise), a scripted one matched
 * on the prompt, streams with usage, `echo` and `logprobs`, several prompts with `n`, and the API's refusals.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText } from "ai";
import OpenAI, { AzureOpenAI, BadRequestError, NotFoundError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIO = {
  name: "legacy",
  steps: [
    {
      id: "haiku",
      match: { endpoint: "completions", lastUserMessage: { contains: "haiku" } },
      respond: { text: "\n\nAn old silent pond. A frog jumps in.", usage: { inputTokens: 7, outputTokens: 9 } },
      consume: false,
    },
    {
      id: "broken",
      match: { endpoint: "completions", lastUserMessage: { contains: "break" } },
      failures: [{ kind: "stream_error", afterChunks: 2, message: "mid-stream failure" }],
      respond: { text: "one two three four five six", stream: { chunkWords: 1 } },
    },
    { id: "ai-sdk", match: { endpoint: "completions", lastUserMessage: { contains: "Hello" } }, respond: { text: " Hi there! How can I help?" }, consume: false },
  ],
};

const client = (path = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });
const MODEL = "gpt-3.5-turbo-instruct";
const HAIKU = "\n\nAn old silent pond. A frog jumps in.";

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SCENARIO);
});
afterAll(() => h?.stop());

describe("openai completions.create", () => {
  it("unscripted: a text_completion of 16 tokens, cut with finish_reason length, in the recorded key order", async () => {
    const res = await fetch(`${h.url}/v1/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
      body: JSON.stringify({ model: MODEL, prompt: "Say this is a test" }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(Object.keys(body)).toEqual(["id", "object", "created", "model", "choices", "usage"]);
    expect(body.id).toMatch(/^cmpl-[A-Za-z0-9]{29}$/);
    expect(body.object).toBe("text_completion");
    expect(body.model).toBe(MODEL);
    expect(body.choices).toHaveLength(1);
    expect(Object.keys(body.choices[0])).toEqual(["text", "index", "logprobs", "finish_reason"]);
    // An instruct model's answer starts a new paragraph; 16 words of it.
    expect(body.choices[0].text.startsWith("\n\nlorem ")).toBe(true);
    expect(body.choices[0].text.split(" ")).toHaveLength(16);
    expect(body.choices[0].finish_reason).toBe("length");
    expect(body.choices[0].logprobs).toBeNull();
    expect(body.usage).toEqual({ prompt_tokens: 5, completion_tokens: 16, total_tokens: 21 });
    const again = await client().completions.create({ model: MODEL, prompt: "Say this is a test" });
    expect(again.id).toBe(body.id);
    expect(again.choices[0]!.text).toBe(body.choices[0].text);
  });

  it("scripted: the step's text, whole under max_tokens, journalled on the completions endpoint", async () => {
    const res = await client("/s/legacy/run-1").completions.create({ model: MODEL, prompt: "Write a haiku", max_tokens: 64 });
    expect(res.choices.map((c) => [c.index, c.text, c.finish_reason])).toEqual([[0, HAIKU, "stop"]]);
    expect(res.usage).toEqual({ prompt_tokens: 7, completion_tokens: 9, total_tokens: 16 });
    const cut = await client("/s/legacy/run-1").completions.create({ model: MODEL, prompt: "Write a haiku", max_tokens: 64, stop: ["frog"] });
    expect([cut.choices[0]!.text, cut.choices[0]!.finish_reason]).toEqual(["\n\nAn old silent pond. A ", "stop"]);
    const short = await client("/s/legacy/run-1").completions.create({ model: MODEL, prompt: "Write a haiku", max_tokens: 3 });
    expect([short.choices[0]!.text, short.choices[0]!.finish_reason]).toEqual(["\n\nAn old silent", "length"]);
    const journal = await h.journal("legacy", "run-1");
    expect(journal.map((e) => [e.endpoint, e.step, e.status])).toEqual([
      ["completions", "haiku", 200],
      ["completions", "haiku", 200],
      ["completions", "haiku", 200],
    ]);
  });

  it("streams: text chunks, an empty finish chunk, the usage chunk with no choices, [DONE]", async () => {
    const stream = await client("/s/legacy/run-2").completions.create({ model: MODEL, prompt: "Write a haiku", max_tokens: 64, stream: true, stream_options: { include_usage: true } });
    const chunks: OpenAI.Completion[] = [];
    for await (const c of stream) chunks.push(c);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.object === "text_completion" && c.model === MODEL)).toBe(true);
    const texts = chunks.slice(0, -2).map((c) => c.choices[0]!.text);
    expect(texts.join("")).toBe(HAIKU);
    expect(texts.length).toBeGreaterThan(1);
    expect(chunks.at(-2)!.choices).toEqual([{ text: "", index: 0, logprobs: null, finish_reason: "stop" }]);
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 7, completion_tokens: 9, total_tokens: 16 });
    expect(chunks.slice(0, -1).every((c) => c.usage === undefined)).toBe(true);
  });

  it("a scripted error mid-stream: the chunks before it, then the SDK's APIError with the message", async () => {
    const stream = await client("/s/legacy/run-5").completions.create({ model: MODEL, prompt: "break it", max_tokens: 64, stream: true });
    const texts: string[] = [];
    const error = await (async () => {
      for await (const c of stream) texts.push(c.choices[0]!.text);
    })().catch((e: unknown) => e);
    expect(texts).toEqual(["one", " two"]);
    expect((error as Error).message).toContain("mid-stream failure");
  });

  it("echo and logprobs: the prompt first, its first token without a log probability, offsets from the prompt's start", async () => {
    const res = await client("/s/legacy/run-3").completions.create({ model: MODEL, prompt: "A haiku:", max_tokens: 64, echo: true, logprobs: 2 });
    const choice = res.choices[0]!;
    expect(choice.text).toBe(`A haiku:${HAIKU}`);
    const lp = choice.logprobs!;
    expect(lp.tokens!.join("")).toBe(choice.text);
    expect(lp.tokens!.slice(0, 3)).toEqual(["A", " haiku:", "\n\nAn"]);
    expect(lp.token_logprobs![0]).toBeNull();
    expect(lp.top_logprobs![0]).toBeNull();
    expect(lp.text_offset!.slice(0, 4)).toEqual([0, 1, 8, 12]);
    for (let i = 1; i < lp.tokens!.length; i++) {
      const top = lp.top_logprobs![i]!;
      expect(Object.keys(top)).toHaveLength(2);
      expect(top[lp.tokens![i]!]).toBe(lp.token_logprobs![i]);
      expect(Math.max(...Object.values(top))).toBe(lp.token_logprobs![i]);
    }
    const plain = await client("/s/legacy/run-3").completions.create({ model: MODEL, prompt: "A haiku:", max_tokens: 64, logprobs: 0 });
    const p = plain.choices[0]!.logprobs!;
    expect(plain.choices[0]!.text).toBe(HAIKU);
    // Without echo the offsets still count from the prompt's start, and each token has its own entry only.
    expect(p.text_offset![0]).toBe("A haiku:".length);
    expect(p.top_logprobs!.every((t) => Object.keys(t!).length === 1)).toBe(true);
  });

  it("max_tokens 0 with echo (scoring a prompt): the prompt alone, finish_reason length, no completion tokens", async () => {
    const res = await client().completions.create({ model: "davinci-002", prompt: "The cat sat on the mat", max_tokens: 0, echo: true, logprobs: 1 });
    const choice = res.choices[0]!;
    expect([choice.text, choice.finish_reason]).toEqual(["The cat sat on the mat", "length"]);
    expect(choice.logprobs!.tokens).toEqual(["The", " cat", " sat", " on", " the", " mat"]);
    expect(choice.logprobs!.token_logprobs![0]).toBeNull();
    expect(choice.logprobs!.token_logprobs!.slice(1).every((x) => typeof x === "number" && x < 0)).toBe(true);
    expect(res.usage).toEqual({ prompt_tokens: 6, completion_tokens: 0, total_tokens: 6 });
  });

  it("a large answer (echoed prompts with logprobs) comes in pieces, the same JSON; more than 128 choices is refused", async () => {
    const prompts = Array.from({ length: 16 }, (_, i) => `${i} ${"lorem ipsum ".repeat(700)}`);
    const res = await fetch(`${h.url}/v1/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
      body: JSON.stringify({ model: MODEL, prompt: prompts, max_tokens: 0, echo: true, logprobs: 1 }),
    });
    expect([res.status, res.headers.get("content-length")]).toEqual([200, null]);
    const body = (await res.json()) as OpenAI.Completion;
    expect(body.choices.map((c) => c.text)).toEqual(prompts);
    // "0", 1,400 words with the space before each, and the trailing space alone.
    expect(body.choices.map((c) => c.logprobs!.tokens!.length)).toEqual(prompts.map(() => 1402));
    const refused = await client()
      .completions.create({ model: MODEL, prompt: ["a", "b"], n: 65 })
      .catch((e: unknown) => e);
    expect([(refused as BadRequestError).status, (refused as BadRequestError).param]).toEqual([400, "n"]);
  });

  it("several prompts with n: a scripted reply answers each prompt; the default responder writes prompts × n choices", async () => {
    const scripted = await client("/s/legacy/run-4").completions.create({ model: MODEL, prompt: ["A haiku", "Another haiku"], max_tokens: 64 });
    expect(scripted.choices.map((c) => [c.index, c.text])).toEqual([
      [0, HAIKU],
      [1, HAIKU],
    ]);
    expect(scripted.usage).toEqual({ prompt_tokens: 7, completion_tokens: 18, total_tokens: 25 });
    const unscripted = await client().completions.create({ model: MODEL, prompt: ["one", "two"], n: 2, max_tokens: 4 });
    expect(unscripted.choices.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect(new Set(unscripted.choices.map((c) => c.text)).size).toBe(4);
    expect(unscripted.choices.every((c) => c.text.split(" ").length === 4 && c.finish_reason === "length")).toBe(true);
    expect(unscripted.usage!.completion_tokens).toBe(16);
  });

  it("refuses a chat model here and a completion model on Chat Completions (404), and bad parameters (400)", async () => {
    const chat = await client()
      .completions.create({ model: "gpt-4o", prompt: "x" })
      .catch((e: unknown) => e);
    expect(chat).toBeInstanceOf(NotFoundError);
    expect((chat as NotFoundError).error).toEqual({
      message: "This is a chat model and not supported in the v1/completions endpoint. Did you mean to use v1/chat/completions?",
      type: "invalid_request_error",
      param: "model",
      code: null,
    });
    const legacy = await client()
      .chat.completions.create({ model: "davinci-002", messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(legacy).toBeInstanceOf(NotFoundError);
    expect((legacy as NotFoundError).message).toContain("This is not a chat model and thus not supported in the v1/chat/completions endpoint.");
    const refusal = async (body: Record<string, unknown>) => {
      const e = await client()
        .completions.create({ model: MODEL, prompt: "x", ...body } as OpenAI.CompletionCreateParamsNonStreaming)
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(BadRequestError);
      const { param, code } = (e as BadRequestError).error as { param: string; code: string | null };
      return [param, code];
    };
    expect(await refusal({ logprobs: 6 })).toEqual(["logprobs", "integer_above_max_value"]);
    expect(await refusal({ prompt: [] })).toEqual(["prompt", "empty_array"]);
    expect(await refusal({ prompt: undefined })).toEqual(["prompt", "missing_required_parameter"]);
    expect(await refusal({ n: 3, best_of: 2 })).toEqual(["best_of", null]);
    expect(await refusal({ best_of: 2, stream: true })).toEqual(["best_of", null]);
    expect(await refusal({ stop: ["a", "b", "c", "d", "e"] })).toEqual(["stop", "array_above_max_length"]);
  });
});

describe("the Vercel AI SDK's completion model", () => {
  const provider = () => createOpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/legacy/ai-sdk/v1` });

  it("generateText and streamText read the scripted text, its finish and usage", async () => {
    const model = provider().completion(MODEL);
    const generated = await generateText({ model, prompt: "Hello", maxOutputTokens: 50 });
    expect(generated.text).toBe(" Hi there! How can I help?");
    expect(generated.finishReason).toBe("stop");
    const streamed = streamText({ model, prompt: "Hello", maxOutputTokens: 50 });
    expect(await streamed.text).toBe(" Hi there! How can I help?");
    expect(await streamed.finishReason).toBe("stop");
    expect((await streamed.usage).outputTokens).toBe((await generated.usage).outputTokens);
  });
});

describe("Azure's legacy completions (AzureOpenAI, a deployment)", () => {
  const azure = (session: string) => new AzureOpenAI({ endpoint: `${h.url}/s/legacy/${session}`, apiKey: "azure-key", apiVersion: "2024-10-21", deployment: "instruct-prod" });
  type Annotated = { content_filter_results: { hate: unknown } };

  it("JSON: the scripted text with Azure's filter results, keys sorted; the deployment is the model", async () => {
    const { data, response } = await azure("az-1").completions.create({ model: "instruct-prod", prompt: "A haiku", max_tokens: 64 }).withResponse();
    expect(new URL(response.url).pathname).toBe("/s/legacy/az-1/openai/deployments/instruct-prod/completions");
    expect([data.choices[0]!.text, data.model, data.object]).toEqual([HAIKU, "instruct-prod", "text_completion"]);
    const raw = data as unknown as Record<string, unknown> & { prompt_filter_results: ({ prompt_index: number } & Annotated)[] };
    expect(Object.keys(raw)).toEqual(["choices", "created", "id", "model", "object", "prompt_filter_results", "usage"]);
    expect(raw.prompt_filter_results.map((p) => [p.prompt_index, p.content_filter_results.hate])).toEqual([[0, { filtered: false, severity: "safe" }]]);
    expect((data.choices[0] as unknown as Annotated).content_filter_results.hate).toEqual({ filtered: false, severity: "safe" });
    const journal = await h.journal("legacy", "az-1");
    expect(journal.map((e) => [e.provider, e.endpoint, e.step])).toEqual([["azure", "completions", "haiku"]]);
  });

  it("stream: a leading chunk of prompt results, annotated text chunks, the finish with {}", async () => {
    const stream = await azure("az-2").completions.create({ model: "instruct-prod", prompt: "A haiku", max_tokens: 64, stream: true });
    const chunks: Record<string, any>[] = [];
    for await (const c of stream) chunks.push(c as unknown as Record<string, any>);
    expect(chunks[0]).toMatchObject({ id: "", object: "", choices: [], prompt_filter_results: [{ prompt_index: 0 }] });
    const body = chunks.slice(1);
    expect(body.map((c) => c.choices[0].text).join("")).toBe(HAIKU);
    expect(body.slice(0, -1).every((c) => c.choices[0].content_filter_results.hate.severity === "safe")).toBe(true);
    expect(body.at(-1)!.choices[0]).toEqual({ content_filter_results: {}, finish_reason: "stop", index: 0, logprobs: null, text: "" });
  });
});
