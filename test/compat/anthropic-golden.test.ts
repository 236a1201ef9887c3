/**
 * Golden wire text: whole Anthropic SSE transcripts from the running Worker, ids normalized, compared byte for
 * byte with test/golden/anthropic/*.sse. Regenerate after an intended change with UPDATE_GOLDEN=1 and review
 * the diff.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANTHROPIC_IDS, expectGolden, normalize } from "../support/golden";
import { BROKEN_TEXT, GREETING, GREETING_USAGE, THOUGHT, toolAnswer } from "../support/golden-scenarios";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "g-text",
    steps: [{ respond: { text: GREETING, usage: { ...GREETING_USAGE, cacheReadTokens: 2 } } }],
  },
  {
    name: "g-tool",
    steps: [{ respond: toolAnswer("toolu_scripted_1") }],
  },
  {
    name: "g-thinking",
    steps: [
      {
        respond: {
          reasoning: [{ text: THOUGHT }, { redacted: "EmwKAhgBEgy3va3pzix" }],
          text: "Hi!",
          stream: { chunkWords: 3 },
        },
      },
    ],
  },
  { name: "g-refusal", steps: [{ respond: { refusal: "I can't help with that." } }] },
  {
    name: "g-stream-error",
    steps: [{ failures: [{ kind: "stream_error", afterChunks: 4, message: "Overloaded" }], respond: { text: BROKEN_TEXT } }],
  },
];

async function transcript(scenario: string, body: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${h.url}/s/${scenario}/golden/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({
      model: "claude-sonnet-4-5",
      max_tokens: 2048,
      stream: true,
      messages: [{ role: "user", content: "Hello" }],
      ...body,
    }),
  });
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("anthropic golden SSE transcripts", () => {
  it.each([
    ["text", "g-text", {}],
    ["tool-use", "g-tool", { tools: [{ name: "get_weather", input_schema: { type: "object" } }] }],
    ["thinking", "g-thinking", { thinking: { type: "enabled", budget_tokens: 1024 } }],
    ["refusal", "g-refusal", {}],
    ["stream-error", "g-stream-error", {}],
  ])("%s", async (name, scenario, body) => {
    const res = await transcript(scenario, body);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expectGolden(`anthropic/${name}.sse`, normalize(await res.text(), ANTHROPIC_IDS));
  });
});
