// `mockllm verify --budget` (issue 58): the session's tokens, cost and requests, and each budget limit against them.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureCli } from "../support/cli";
import { startMockLLM, type MockLLM } from "../../src/client/index";

let mock: MockLLM;

beforeAll(async () => {
  mock = await startMockLLM({
    scenarios: [
      {
        name: "cli-budget",
        expect: { budget: { maxTotalTokens: 100, maxRequests: 5 } },
        steps: [{ consume: false, respond: { text: "ok", usage: { inputTokens: 50, outputTokens: 25 } } }],
      },
    ],
  });
});
afterAll(async () => {
  await mock?.stop();
});

const cli = (argv: string[]) => captureCli(argv, { env: { MOCKLLM_URL: mock.url, MOCKLLM_ADMIN_TOKEN: mock.adminToken } });

describe("mockllm verify --budget", () => {
  it("prints the figures and each limit; exit 1 over budget", async () => {
    const openai = new OpenAI({ apiKey: "test", baseURL: mock.openaiBaseURL("cli-budget", "run-1"), maxRetries: 0 });
    for (let i = 0; i < 2; i++) await openai.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
    const run = await cli(["verify", "cli-budget", "run-1", "--budget"]);
    expect(run.code).toBe(1);
    expect(run.out).toContain("mockllm verify: FAILED");
    expect(run.out).toContain(
      ["Budget: 2 requests, 150 tokens (100 in, 0 of them cached, 50 out), $0.000045", "  maxTotalTokens 100: 150 used — budget_exceeded", "  maxRequests 5: 2 used"].join("\n"),
    );
  });
});
