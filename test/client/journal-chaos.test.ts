// `mockllm journal` marks chaos turns (issue 58): the outcome column names the fault drawn.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureCli } from "../support/cli";
import { startMockLLM, type MockLLM } from "../../src/client/index";

let mock: MockLLM;

beforeAll(async () => {
  mock = await startMockLLM({
    scenarios: [{ name: "cli-chaos", chaos: { seed: 5, rate: 1, kinds: ["overloaded"] }, steps: [{ respond: { text: "ok" } }] }],
  });
});
afterAll(async () => {
  await mock?.stop();
});

describe("mockllm journal", () => {
  it("shows a chaos entry as chaos:{kind}, with its reason", async () => {
    const openai = new OpenAI({ apiKey: "test", baseURL: mock.openaiBaseURL("cli-chaos", "run-1"), maxRetries: 0 });
    await openai.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }).catch(() => undefined);
    const run = await captureCli(["journal", "cli-chaos", "run-1"], { env: { MOCKLLM_URL: mock.url, MOCKLLM_ADMIN_TOKEN: mock.adminToken } });
    expect(run.code).toBe(0);
    const row = run.out.split("\n").find((l) => l.startsWith("1 "));
    expect(row).toMatch(/ step-1 +chaos:overloaded +503 +chaos overloaded \(seed 5, request 1\)$/);
  });
});
