/**
 * Usage from the real tokenizer (issue 58 part 4) on both runtimes, with the `openai` SDK: `USAGE=count` on the default
 * responder and a scenario's `"usage": "count"`. The expected figures are computed here, independently of src/, with
 * gpt-tokenizer and the cookbook formula ("How to count tokens with tiktoken"): 3 per message + each field value's
 * tokens + 1 per `name` + 3 priming; tools by the cookbook's `num_tokens_for_tools`.
 */
import { encode as encodeCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { encode as encodeO200k } from "gpt-tokenizer/encoding/o200k_base";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI, { AzureOpenAI } from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ USAGE: "count" });
  await h.upload(
    { name: "counted", usage: "count", steps: [{ id: "one", consume: false, respond: { text: "Paris is the capital of France.", usage: { outputTokens: 7 } } }] },
    { name: "fixed", steps: [{ id: "one", consume: false, respond: { text: "Paris is the capital of France." } }] },
  );
});
afterAll(() => h?.stop());

const client = (base = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${base}/v1`, maxRetries: 0 });

// --- the expectation, written apart from src/ --------------------------------------------------------------------
const CL100K_MODELS = new Set(["gpt-4", "gpt-4-0613", "gpt-3.5-turbo"]);
const tokens = (model: string, text: string): number => (text === "" ? 0 : (CL100K_MODELS.has(model) ? encodeCl100k(text) : encodeO200k(text)).length);

function expectedPrompt(model: string, messages: ChatCompletionMessageParam[], tools: ChatCompletionTool[]): number {
  let n = 3;
  for (const m of messages) {
    n += 3;
    for (const [key, value] of Object.entries(m)) {
      if (key === "tool_calls") for (const c of value as { function: { name: string; arguments: string } }[]) n += tokens(model, c.function.name) + tokens(model, c.function.arguments);
      else if (typeof value === "string") n += tokens(model, value);
      else if (Array.isArray(value)) for (const part of value as { text: string }[]) n += tokens(model, part.text);
      if (key === "name") n += 1;
    }
  }
  if (tools.length === 0) return n;
  const funcInit = CL100K_MODELS.has(model) ? 10 : 7;
  for (const t of tools) {
    const f = (t as { function: { name: string; description?: string; parameters?: { properties?: Record<string, { type: string; description?: string; enum?: string[] }> } } }).function;
    n += funcInit + tokens(model, `${f.name}:${(f.description ?? "").replace(/\.$/, "")}`);
    const props = Object.entries(f.parameters?.properties ?? {});
    if (props.length > 0) n += 3;
    for (const [key, p] of props) {
      n += 3;
      if (p.enum) n += -3 + p.enum.reduce((s, e) => s + 3 + tokens(model, e), 0);
      n += tokens(model, `${key}:${p.type}:${(p.description ?? "").replace(/\.$/, "")}`);
    }
  }
  return n + 12;
}

// --- a corpus of 100 conversations: system prompts, names, text parts (images as text), tool calls and results, tools
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const WORDS = [
  "weather",
  "Zürich",
  "tomorrow",
  "naïve",
  "🙂",
  "refactor",
  "the",
  "build",
  "fails",
  "on",
  "CI",
  "42",
  "λ",
  "東京",
  "please",
  "summarise",
  '{"a":1}',
  "  spaced  ",
  "line\nbreak",
  "snake_case_name",
];
const MODELS = ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-5", "o3-mini", "gpt-4", "gpt-4-0613", "gpt-3.5-turbo"];

function conversation(i: number): { model: string; messages: ChatCompletionMessageParam[]; tools: ChatCompletionTool[] } {
  const r = rng(i + 1);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const text = (n: number) => Array.from({ length: 1 + Math.floor(r() * n) }, () => pick(WORDS)).join(" ");
  const messages: ChatCompletionMessageParam[] = [];
  if (r() < 0.6) messages.push({ role: "system", content: text(12) });
  const turns = 1 + Math.floor(r() * 4);
  for (let t = 0; t < turns; t++) {
    const named = r() < 0.3;
    if (r() < 0.3)
      messages.push({
        role: "user",
        content: [
          { type: "text", text: text(6) },
          { type: "text", text: `[image: ${text(4)}]` },
        ],
        ...(named ? { name: "alice" } : {}),
      });
    else messages.push({ role: "user", content: text(10), ...(named ? { name: "bob_2" } : {}) });
    if (t === turns - 1) break;
    if (r() < 0.4) {
      const id = `call_${i}_${t}`;
      messages.push({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city: pick(WORDS) }) } }] });
      messages.push({ role: "tool", tool_call_id: id, content: text(8) });
    } else messages.push({ role: "assistant", content: text(10) });
  }
  const tools: ChatCompletionTool[] = [];
  if (r() < 0.5) {
    tools.push({
      type: "function",
      function: {
        name: "get_weather",
        description: "Get the weather for a city.",
        parameters: { type: "object", properties: { city: { type: "string", description: "The city." }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } }, required: ["city"] },
      },
    });
    if (r() < 0.5) tools.push({ type: "function", function: { name: "noop", description: "Does nothing", parameters: { type: "object", properties: {} } } });
  }
  return { model: MODELS[i % MODELS.length]!, messages, tools };
}

describe("USAGE=count: OpenAI usage is the tokenizer's count", () => {
  it("Chat Completions over 100 conversations (tools, text parts, system prompts, names)", async () => {
    const openai = client();
    const got: string[] = [];
    const want: string[] = [];
    for (let i = 0; i < 100; i++) {
      const c = conversation(i);
      const res = await openai.chat.completions.create({ model: c.model, messages: c.messages, ...(c.tools.length > 0 ? { tools: c.tools } : {}) });
      const msg = res.choices[0]!.message;
      const completion =
        tokens(c.model, msg.content ?? "") + (msg.tool_calls ?? []).reduce((s, t) => s + (t.type === "function" ? tokens(c.model, t.function.name) + tokens(c.model, t.function.arguments) : 0), 0);
      got.push(`${i} ${res.usage!.prompt_tokens}/${res.usage!.completion_tokens}/${res.usage!.total_tokens}`);
      const prompt = expectedPrompt(c.model, c.messages, c.tools);
      want.push(`${i} ${prompt}/${completion}/${prompt + completion}`);
    }
    expect(got).toEqual(want);
  });

  it("a chat stream's final usage chunk (stream_options.include_usage) carries the same count", async () => {
    const c = conversation(7);
    const openai = client();
    const json = await openai.chat.completions.create({ model: c.model, messages: c.messages, tools: c.tools.length > 0 ? c.tools : undefined });
    const stream = await openai.chat.completions.create({
      model: c.model,
      messages: c.messages,
      tools: c.tools.length > 0 ? c.tools : undefined,
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage?.prompt_tokens).toBe(expectedPrompt(c.model, c.messages, c.tools));
    expect(usage).toMatchObject({ prompt_tokens: json.usage!.prompt_tokens, completion_tokens: json.usage!.completion_tokens, total_tokens: json.usage!.total_tokens });
  });

  it("Responses: usage.input_tokens equals POST /v1/responses/input_tokens and the tokenizer's count", async () => {
    const openai = client();
    const input = [
      { role: "user" as const, content: "What is the weather in Zürich tomorrow?" },
      { role: "assistant" as const, content: "Sunny, 21 °C." },
      { role: "user" as const, content: "And in 東京?" },
    ];
    const instructions = "You are a terse assistant.";
    const res = await openai.responses.create({ model: "gpt-5", instructions, input });
    const count = await openai.responses.inputTokens.count({ model: "gpt-5", instructions, input });
    const expected = expectedPrompt("gpt-5", [{ role: "system", content: instructions }, ...input], []);
    expect([res.usage!.input_tokens, count.input_tokens]).toEqual([expected, expected]);
    expect(res.usage!.output_tokens).toBe(tokens("gpt-5", res.output_text));
  });
});

describe("USAGE=count on Azure OpenAI", () => {
  it("chat through a deployment counts like OpenAI (a deployment name is not a model: o200k_base)", async () => {
    const az = new AzureOpenAI({ endpoint: h.url, apiKey: "azure-key", apiVersion: "2024-10-21", deployment: "prod-4o" });
    const c = conversation(3);
    const res = await az.chat.completions.create({ model: "prod-4o", messages: c.messages, ...(c.tools.length > 0 ? { tools: c.tools } : {}) });
    expect(res.usage!.prompt_tokens).toBe(expectedPrompt("gpt-4o", c.messages, c.tools));
    expect(res.usage!.completion_tokens).toBe(tokens("gpt-4o", res.choices[0]!.message.content ?? ""));
  });
});

describe("USAGE=count on embeddings", () => {
  it("usage.prompt_tokens is the tokens of the inputs (a token array counts its length)", async () => {
    const openai = client();
    const inputs = ["The food was delicious and the waiter…", "東京 is the capital of Japan 🙂"];
    const a = await openai.embeddings.create({ model: "text-embedding-3-small", input: inputs });
    expect(a.usage).toEqual({ prompt_tokens: tokens("gpt-4", inputs[0]!) + tokens("gpt-4", inputs[1]!), total_tokens: tokens("gpt-4", inputs[0]!) + tokens("gpt-4", inputs[1]!) });
    const b = await openai.embeddings.create({ model: "text-embedding-3-small", input: [1, 2, 3, 4, 5] });
    expect(b.usage.prompt_tokens).toBe(5);
  });
});

describe('scenario "usage": "count"', () => {
  it("counts what the step leaves out; a scripted figure wins", async () => {
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Capital of France?", name: "eve" }];
    const res = await client("/s/counted/a").chat.completions.create({ model: "gpt-4o", messages });
    expect(res.usage).toMatchObject({ prompt_tokens: expectedPrompt("gpt-4o", messages, []), completion_tokens: 7 });
  });

  it("Responses under /s/{scenario}: input_tokens counts as the turn does", async () => {
    const openai = client("/s/counted/r");
    const input = "Capital of France?";
    const res = await openai.responses.create({ model: "gpt-4o", input });
    const count = await openai.responses.inputTokens.count({ model: "gpt-4o", input });
    const expected = expectedPrompt("gpt-4o", [{ role: "user", content: input }], []);
    expect([res.usage!.input_tokens, count.input_tokens, res.usage!.output_tokens]).toEqual([expected, expected, 7]);
  });

  it("without it, usage stays the fixed default (64 in, 32 out)", async () => {
    const res = await client("/s/fixed/a").chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "Capital of France?" }] });
    expect(res.usage).toMatchObject({ prompt_tokens: 64, completion_tokens: 32, total_tokens: 96 });
  });
});

describe("USAGE=count on Anthropic: the documented approximation, the same in count_tokens and usage", () => {
  it("usage.input_tokens equals POST /v1/messages/count_tokens; output is ⌈characters / 4⌉ of the answer", async () => {
    const anthropic = new Anthropic({ apiKey: "sk-ant-test", baseURL: h.url, maxRetries: 0 });
    const body = {
      model: "claude-sonnet-4-6",
      system: "You are a terse assistant.",
      messages: [
        { role: "user" as const, content: "What is the weather in Zürich tomorrow?" },
        { role: "assistant" as const, content: "Sunny." },
        { role: "user" as const, content: "And in Paris?" },
      ],
      tools: [{ name: "get_weather", description: "Weather for a city", input_schema: { type: "object" as const, properties: { city: { type: "string" } } } }],
    };
    const count = await anthropic.messages.countTokens(body);
    const res = await anthropic.messages.create({ ...body, max_tokens: 256 });
    const text = res.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(res.usage.input_tokens).toBe(count.input_tokens);
    expect(res.usage.output_tokens).toBe(Math.max(1, Math.ceil(text.length / 4)));
  });
});
