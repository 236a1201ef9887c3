/**
 * Golden wire text: whole Gemini `streamGenerateContent?alt=sse` transcripts from the running Worker, compared
 * byte for byte with test/golden/gemini/*.sse (ids are deterministic, so nothing is normalised). Regenerate
 * after an intended change with UPDATE_GOLDEN=1 and review the diff.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectGolden } from "../support/golden";
import { BROKEN_TEXT, GREETING, GREETING_USAGE, THOUGHT, toolAnswer } from "../support/golden-scenarios";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "gg-text",
    steps: [{ respond: { text: GREETING, usage: { ...GREETING_USAGE, cacheReadTokens: 2 } } }],
  },
  {
    name: "gg-tool",
    steps: [{ respond: toolAnswer("call-scripted-1") }],
  },
  {
    name: "gg-thinking",
    steps: [
      {
        respond: {
          reasoning: [{ text: THOUGHT, signature: "c2NyaXB0ZWQ=" }],
          text: "Hi!",
          usage: { inputTokens: 7, outputTokens: 20, reasoningTokens: 15 },
          stream: { chunkWords: 3 },
        },
      },
    ],
  },
  { name: "gg-length", steps: [{ respond: { text: "cut short", finishReason: "length" } }] },
  {
    name: "gg-stream-error",
    steps: [{ failures: [{ kind: "stream_error", afterChunks: 2 }], respond: { text: BROKEN_TEXT } }],
  },
];

/** Each golden's name and the scenario that answers it. */
const CASES: [string, string][] = [
  ["text", "gg-text"],
  ["tool-call", "gg-tool"],
  ["thinking", "gg-thinking"],
  ["max-tokens", "gg-length"],
  ["stream-error", "gg-stream-error"],
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("gemini golden SSE transcripts", () => {
  it.each(CASES)("%s", async (name, scenario) => {
    const res = await fetch(`${h.url}/s/${scenario}/golden/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": "k" },
      body: JSON.stringify({
        contents: [{ role: "user", parts: [{ text: "Hello" }] }],
        tools: [{ functionDeclarations: [{ name: "get_weather" }, { name: "get_time" }] }],
        generationConfig: { thinkingConfig: { includeThoughts: true } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expectGolden(`gemini/${name}.sse`, await res.text());
  });
});

describe("gemini Interactions golden transcripts and bodies", () => {
  const post = (scenario: string, stream: boolean) =>
    fetch(`${h.url}/s/${scenario}/golden-interactions-${stream ? "sse" : "json"}/v1beta/interactions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": "k" },
      body: JSON.stringify({
        model: "gemini-2.5-flash",
        input: "Hello",
        tools: [
          { type: "function", name: "get_weather" },
          { type: "function", name: "get_time" },
        ],
        generation_config: { thinking_summaries: "auto" },
        store: false,
        stream,
      }),
    });

  it.each(CASES)("%s", async (name, scenario) => {
    const res = await post(scenario, true);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expectGolden(`gemini/interactions-${name}.sse`, await res.text());
  });

  it.each(CASES.slice(0, 3))("%s (JSON)", async (name, scenario) => {
    const res = await post(scenario, false);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expectGolden(`gemini/interactions-${name}.json`, await res.text());
  });
});
