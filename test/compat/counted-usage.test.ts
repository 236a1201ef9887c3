/**
 * Counted usage reaches the journal, budgets and limits (issue 58): with a scenario's `"usage": "count"` the session
 * counts the reply it decided before journaling it, so the journal's usage is the answer's, `expect.budget` fails on
 * the counted tokens and `limits.tokensPerMinute` trips at the request the counted tokens say — on both runtimes,
 * with the official SDKs.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const TEXT = "Paris is the capital of France.";
const LONG = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");

beforeAll(async () => {
  h = await startHarness();
  await h.upload(
    { name: "cu-journal", usage: "count", steps: [{ id: "one", consume: false, respond: { text: TEXT } }] },
    { name: "cu-scripted", usage: "count", steps: [{ id: "one", consume: false, respond: { text: TEXT, usage: { outputTokens: 7 } } }] },
    // 96 tokens an answer at the fixed default: within 150. Counted, a 120-word prompt is well over it.
    { name: "cu-budget", usage: "count", expect: { budget: { maxTotalTokens: 150 } }, steps: [{ id: "one", consume: false, respond: { text: TEXT } }] },
    // 96 tokens an answer at the fixed default would be refused at request 2; counted, "hi" → "ok" is 9 tokens.
    { name: "cu-tpm", usage: "count", limits: { tokensPerMinute: 30 }, steps: [{ id: "one", consume: false, respond: { text: "ok" } }] },
  );
});
afterAll(() => h?.stop());

const openai = (scenario: string, session: string) => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/${scenario}/${session}/v1`, maxRetries: 0 });
const anthropic = (scenario: string, session: string) => new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}/s/${scenario}/${session}`, maxRetries: 0 });

const journalUsage = async (scenario: string, session: string) =>
  (await h.journal(scenario, session)).map((e) => {
    const u = e.canonical?.usage as { inputTokens: number; outputTokens: number } | null;
    return u === null ? null : [u.inputTokens, u.outputTokens];
  });

describe('"usage": "count" is what the journal records', () => {
  it("Chat Completions: the journal's usage equals the answer's", async () => {
    const res = await openai("cu-journal", "chat").chat.completions.create({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "What is the capital of France?" },
      ],
    });
    const usage = res.usage!;
    // system + user: 3 + 1 + 3 (Be brief.) + 3 + 1 + 7 + 3 priming; the answer's 7 tokens (o200k_base)
    expect([usage.prompt_tokens, usage.completion_tokens]).toEqual([21, 7]);
    expect(await journalUsage("cu-journal", "chat")).toEqual([[21, 7]]);
  });

  it("a chat stream's usage chunk and the journal agree", async () => {
    const stream = await openai("cu-journal", "stream").chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect([usage!.prompt_tokens, usage!.completion_tokens]).toEqual([8, 7]);
    expect(await journalUsage("cu-journal", "stream")).toEqual([[8, 7]]);
  });

  it("Responses: the journal's usage equals the answer's", async () => {
    const res = await openai("cu-journal", "resp").responses.create({ model: "gpt-4o-mini", input: "What is the capital of France?" });
    expect(await journalUsage("cu-journal", "resp")).toEqual([[res.usage!.input_tokens, res.usage!.output_tokens]]);
    expect(res.usage!.output_tokens).toBe(7);
  });

  it("a scripted figure wins in the journal too", async () => {
    const res = await openai("cu-scripted", "s").chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
    expect([res.usage!.prompt_tokens, res.usage!.completion_tokens]).toEqual([8, 7]);
    expect(await journalUsage("cu-scripted", "s")).toEqual([[8, 7]]);
  });

  it("Anthropic (the documented approximation): the journal's usage equals the answer's", async () => {
    const msg = await anthropic("cu-journal", "claude").messages.create({ model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "What is the capital of France?" }] });
    // ⌈31 characters / 4⌉
    expect(msg.usage.output_tokens).toBe(8);
    expect(await journalUsage("cu-journal", "claude")).toEqual([[msg.usage.input_tokens, 8]]);
  });
});

describe("budgets and limits count the counted tokens", () => {
  it("expect.budget fails verify on the counted tokens (the fixed 96 would pass)", async () => {
    const res = await openai("cu-budget", "b").chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: LONG }] });
    const total = res.usage!.total_tokens;
    expect(total).toBeGreaterThan(150);
    const v = (await (await h.admin("/sessions/cu-budget/b/verify")).json()) as { ok: boolean; usage: { totalTokens: number }; budget: { exceeded: unknown[] } };
    expect(v.ok).toBe(false);
    expect(v.usage.totalTokens).toBe(total);
    expect(v.budget.exceeded).toEqual([{ reason: "budget_exceeded", limit: "maxTotalTokens", max: 150, actual: total }]);
  });

  it("tokensPerMinute 30 at 9 counted tokens an answer: requests 1 to 4 answer, the 5th gets the 429", async () => {
    const c = openai("cu-tpm", "t");
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { data, response } = await c.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }).withResponse();
      seen.push(`${data.usage!.total_tokens} ${response.headers.get("x-ratelimit-remaining-tokens")}`);
    }
    expect(seen).toEqual(["9 21", "9 12", "9 3", "9 0"]);
    const err = await c.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const journal = await h.journal("cu-tpm", "t");
    expect(journal.map((e) => e.status)).toEqual([200, 200, 200, 200, 429]);
    expect(journal[4]!.reasons[0]).toMatch(/^limits: tokensPerMinute 30 reached; retry in \d+ ms$/);
  });
});
