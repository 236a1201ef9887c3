/**
 * Budgets (issue 58) on both runtimes: a session that spends more tokens, dollars or requests than the scenario's
 * `expect.budget` fails verify with the figures (`budget_exceeded`); coverage reports tokens and cost per session
 * and per step, priced from the dated table or the scenario's own `prices`.
 */
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIO = {
  name: "budget-agent",
  expect: { budget: { maxTotalTokens: 2000, maxCostUsd: 0.01, maxRequests: 3 } },
  prices: { "house-model": { input: 100, output: 100 } },
  steps: [
    { id: "plan", consume: false, match: { lastUserMessage: { contains: "plan" } }, respond: { text: "Plan.", usage: { inputTokens: 600, outputTokens: 200, cacheReadTokens: 200 } } },
    { id: "house", consume: false, match: { model: "house-model" }, respond: { text: "Mine.", usage: { inputTokens: 10, outputTokens: 10 } } },
  ],
};

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SCENARIO);
});
afterAll(() => h?.stop());

const client = (session: string) => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/budget-agent/${session}/v1`, maxRetries: 0 });
const ask = (session: string, content: string, model = "gpt-4o") => client(session).chat.completions.create({ model, messages: [{ role: "user", content }] });

interface Verify {
  ok: boolean;
  summary: string;
  usage: Record<string, unknown>;
  budget?: { exceeded: unknown[] };
}
const verify = async (session: string) => (await (await h.admin(`/sessions/budget-agent/${session}/verify?allowUnused=house`)).json()) as Verify;

describe("expect.budget", () => {
  it("within budget: verify passes and reports the figures", async () => {
    const res = await ask("cheap", "plan it");
    expect(res.usage).toMatchObject({ prompt_tokens: 600, completion_tokens: 200, prompt_tokens_details: { cached_tokens: 200 } });
    const v = await verify("cheap");
    expect(v.ok).toBe(true);
    // gpt-4o: (400 × 2.50 + 200 × 1.25 + 200 × 10) / 1e6
    expect(v.usage).toEqual({ requests: 1, inputTokens: 600, outputTokens: 200, cachedTokens: 200, totalTokens: 800, costUsd: 0.00325, unpriced: [] });
    expect(v.budget).toEqual({ limits: { maxTotalTokens: 2000, maxCostUsd: 0.01, maxRequests: 3 }, exceeded: [] });
    expect(v.summary).toContain("within budget (1 request, 800 tokens (600 in, 200 out), $0.00325)");
  });

  it("over budget: verify fails with budget_exceeded and the figures", async () => {
    for (let i = 0; i < 4; i++) await ask("dear", "plan it again");
    const v = await verify("dear");
    expect(v.ok).toBe(false);
    expect(v.budget?.exceeded).toEqual([
      { reason: "budget_exceeded", limit: "maxTotalTokens", max: 2000, actual: 3200 },
      { reason: "budget_exceeded", limit: "maxCostUsd", max: 0.01, actual: 0.013 },
      { reason: "budget_exceeded", limit: "maxRequests", max: 3, actual: 4 },
    ]);
    expect(v.summary).toContain("over budget");
    expect(v.summary).toContain("Over budget (budget_exceeded): 4 requests, 3200 tokens (2400 in, 800 out), $0.013");
    expect(v.summary).toContain("  - maxCostUsd $0.01 exceeded: $0.013 used");
  });

  it("a scenario's prices price a model the table does not know", async () => {
    await ask("house", "hello", "house-model");
    const v = await verify("house");
    expect(v.usage).toMatchObject({ totalTokens: 20, costUsd: 0.002, unpriced: [] });
  });

  it("coverage: tokens and cost per session and per step", async () => {
    const cov = (await (await h.admin("/scenarios/budget-agent/coverage")).json()) as {
      steps: { id: string; tokens: number; costUsd: number }[];
      usage: { session: string; totalTokens: number; costUsd: number }[];
    };
    expect(cov.steps.map((s) => [s.id, s.tokens, s.costUsd])).toEqual([
      ["plan", 4000, 0.01625],
      ["house", 20, 0.002],
    ]);
    expect(cov.usage.map((u) => [u.session, u.totalTokens, u.costUsd]).sort()).toEqual([
      ["cheap", 800, 0.00325],
      ["dear", 3200, 0.013],
      ["house", 20, 0.002],
    ]);
  });
});
