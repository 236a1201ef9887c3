/** Budgets and prices (issue 58): figures from the journal, the dated table, the scenario's own prices. */
import { describe, expect, it } from "vitest";
import { priceOf } from "../../src/scenario/prices";
import { ScenarioSchema } from "../../src/scenario/schema";
import { checkBudget, usageOf } from "../../src/session/budget";
import type { JournalEntry } from "../../src/session/core";

function entry(model: string, usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number } | null, step = "a"): JournalEntry {
  return {
    seq: 1,
    at: "2026-01-01T00:00:00.000Z",
    provider: "openai",
    endpoint: "chat.completions",
    stream: false,
    turn: 1,
    step,
    outcome: usage ? "response" : "failure",
    reasons: [],
    request: { method: "POST", path: "/v1/chat/completions", headers: {}, body: {} },
    status: usage ? 200 : 429,
    canonical: {
      tools: [],
      toolResults: [],
      lastUserMessage: "hi",
      answered: usage ? { text: "x", toolCalls: [] } : null,
      model,
      stream: false,
      usage: usage ? { cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, ...usage } : null,
    },
  };
}

describe("prices", () => {
  it("match the longest prefix: a snapshot takes its family's price, mini is not the big model", () => {
    expect(priceOf("gpt-4o-2024-08-06")).toEqual({ input: 2.5, cachedInput: 1.25, output: 10 });
    expect(priceOf("gpt-4o-mini-2024-07-18")).toEqual({ input: 0.15, cachedInput: 0.075, output: 0.6 });
    expect(priceOf("claude-sonnet-4-5-20250929")).toEqual({ input: 3, cachedInput: 0.3, output: 15 });
    expect(priceOf("models/gemini-2.5-flash")).toEqual({ input: 0.3, cachedInput: 0.03, output: 2.5 });
    // A scenario's own prices by exact name: a model named after Object.prototype's keys is priced by none of them.
    const prices = { "my-model": { input: 1, output: 2 } };
    expect(priceOf("my-model", prices)).toEqual({ input: 1, output: 2 });
    for (const model of ["constructor", "__proto__", "toString"]) expect(priceOf(model, prices)).toBeUndefined();
    expect(priceOf("us.anthropic.claude-haiku-4-5-20251001-v1:0")).toEqual({ input: 1, cachedInput: 0.1, output: 5 });
    expect(priceOf("llama3.2")).toBeUndefined();
  });

  it("a scenario's prices win, exact or by prefix", () => {
    expect(priceOf("gpt-4o", { "gpt-4o": { input: 1, output: 2 } })).toEqual({ input: 1, output: 2 });
    expect(priceOf("llama3.2:1b", { llama3: { input: 0.01, output: 0.02 } })).toEqual({ input: 0.01, output: 0.02 });
  });
});

describe("usage and budgets", () => {
  const journal = [entry("gpt-4o", { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 400 }), entry("gpt-4o", null), entry("llama3.2", { inputTokens: 10, outputTokens: 5 }, "b")];

  it("sums tokens and prices them: cached prompt tokens at the cached price; no usage, no cost", () => {
    // (600 × 2.5 + 400 × 1.25 + 500 × 10) / 1e6 = 0.007
    expect(usageOf(journal, undefined)).toEqual({
      requests: 3,
      inputTokens: 1010,
      outputTokens: 505,
      cachedTokens: 400,
      totalTokens: 1515,
      costUsd: 0.007,
      unpriced: ["llama3.2"],
    });
  });

  it("checks each limit and names what went over", () => {
    const figures = usageOf(journal, undefined);
    expect(checkBudget({ maxTotalTokens: 1000, maxCostUsd: 0.01, maxRequests: 2 }, figures)).toEqual({
      limits: { maxTotalTokens: 1000, maxCostUsd: 0.01, maxRequests: 2 },
      exceeded: [
        { reason: "budget_exceeded", limit: "maxTotalTokens", max: 1000, actual: 1515 },
        { reason: "budget_exceeded", limit: "maxRequests", max: 2, actual: 3 },
      ],
    });
    expect(checkBudget(undefined, figures)).toBeUndefined();
  });

  it("the scenario document takes expect.budget and prices, strictly", () => {
    const doc = ScenarioSchema.parse({ name: "b", expect: { budget: { maxCostUsd: 0.5 } }, prices: { "my-model": { input: 1, output: 2 } }, steps: [] });
    expect(doc.expect?.budget?.maxCostUsd).toBe(0.5);
    expect(ScenarioSchema.safeParse({ name: "b", expect: { budget: { maxTokens: 5 } }, steps: [] }).success).toBe(false);
  });
});
