/**
 * Golden wire text of Azure OpenAI Chat Completions from the running server on both runtimes: a JSON answer and a
 * stream (the leading empty-`choices` chunk, annotated chunks), and the `content_filter` failure as Azure renders it —
 * the prompt block's 400 (test/golden/safety/prompt/azure-chat.*) and the filtered completion
 * (test/golden/safety/completion/azure-chat.*). Each request runs in its own session, so each is attempt 1.
 * Regenerate after an intended change with UPDATE_GOLDEN=1 and review the diff.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectGolden } from "../support/golden";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const TEXT = "Here is how you would do that, step by step.";
const PATH = "/openai/deployments/prod-4o/chat/completions?api-version=2024-10-21";

beforeAll(async () => {
  h = await startHarness();
  await h.upload(
    { name: "azure-text", steps: [{ respond: { text: TEXT, model: "gpt-4o-2024-11-20", usage: { inputTokens: 12, outputTokens: 11 }, stream: { chunkWords: 3 } } }] },
    { name: "safety-prompt", steps: [{ failures: [{ kind: "content_filter", on: "prompt", categories: ["violence"] }], respond: { text: TEXT, usage: { inputTokens: 12, outputTokens: 9 } } }] },
    {
      name: "safety-completion",
      steps: [
        {
          failures: [{ kind: "content_filter", on: "completion", afterChunks: 2, categories: ["sexual", "harassment"], message: "The answer was stopped." }],
          respond: { text: TEXT, usage: { inputTokens: 12, outputTokens: 9 }, stream: { chunkWords: 2 } },
        },
      ],
    },
  );
}, 120_000);
afterAll(() => h?.stop());

let sessions = 0;
function post(scenario: string, stream: boolean): Promise<Response> {
  return fetch(`${h.url}/s/${scenario}/g${++sessions}${PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", "api-key": "azure-key" },
    body: JSON.stringify({ messages: [{ role: "user", content: "Hello" }], ...(stream ? { stream: true } : {}) }),
  });
}

describe("Azure chat: golden wire text", () => {
  it.each([
    ["azure/chat.json", "azure-text", false, 200],
    ["azure/chat.sse", "azure-text", true, 200],
    ["safety/prompt/azure-chat.json", "safety-prompt", false, 400],
    ["safety/prompt/azure-chat.sse", "safety-prompt", true, 400],
    ["safety/completion/azure-chat.json", "safety-completion", false, 200],
    ["safety/completion/azure-chat.sse", "safety-completion", true, 200],
  ] as const)("%s", async (name, scenario, stream, status) => {
    const res = await post(scenario, stream);
    expect(res.status).toBe(status);
    expectGolden(name, await res.text());
  });
});
