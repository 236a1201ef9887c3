/**
 * Golden Chat Completions SSE transcripts, one per behaviour, compared byte for byte (timestamps normalised).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectGolden } from "../support/golden";
import { WEATHER_CALL } from "../support/golden-scenarios";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const CASES: { name: string; respond: Record<string, unknown>; failures?: unknown[]; includeUsage?: boolean }[] = [
  { name: "text", respond: { text: "The quick brown fox jumps.", stream: { chunkWords: 2 } }, includeUsage: true },
  { name: "text-no-usage", respond: { text: "Short answer." } },
  {
    name: "tool-calls",
    respond: {
      text: "Let me check.",
      toolCalls: [WEATHER_CALL, { id: "call_scripted", name: "get_time", arguments: '{"zone":"Europe/Paris"}' }],
    },
    includeUsage: true,
  },
  { name: "malformed-arguments", respond: { toolCalls: [{ name: "broken", arguments: '{"city": "Par' }] } },
  { name: "reasoning", respond: { reasoning: "First think. Then answer.", text: "Answer.", usage: { reasoningTokens: 5 } }, includeUsage: true },
  { name: "reasoning-field", respond: { reasoning: "Thinking hard.", reasoningField: "reasoning", text: "Done." } },
  { name: "refusal", respond: { refusal: "I can't help with that." } },
  { name: "length", respond: { text: "Cut off mid", finishReason: "length" } },
  { name: "stream-error", respond: { text: "one two three four" }, failures: [{ kind: "stream_error", afterChunks: 2, message: "boom" }] },
  { name: "invalid-response", respond: { text: "one two three" }, failures: [{ kind: "invalid_response", afterChunks: 1 }] },
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...CASES.map((c) => ({ name: `golden-${c.name}`, steps: [{ ...(c.failures ? { failures: c.failures } : {}), respond: c.respond }] })));
});
afterAll(() => h?.stop());

describe("Chat Completions golden transcripts", () => {
  it.each(CASES)("$name", async (c) => {
    const res = await fetch(`${h.url}/s/golden-${c.name}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk", "content-type": "application/json" },
      body: JSON.stringify({
        model: "gpt-4o-mini",
        stream: true,
        ...(c.includeUsage ? { stream_options: { include_usage: true } } : {}),
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expectGolden(`openai-chat/${c.name}.sse`, await res.text());
  });
});
