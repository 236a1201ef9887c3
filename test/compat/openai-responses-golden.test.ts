/**
 * Golden Responses SSE transcripts, one per behaviour, compared byte for byte with
 * test/golden/openai-responses/*.sse after normalising ids and timestamps. `UPDATE_GOLDEN=1` rewrites them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectGolden, normalize, RESPONSES_IDS } from "../support/golden";
import { cutTimeCall, WEATHER_CALL } from "../support/golden-scenarios";
import { startHarness, type Harness } from "./harness";
import { namedEvents } from "../support/sse";

let h: Harness;

const CASES: { name: string; respond: Record<string, unknown>; failures?: unknown[] }[] = [
  { name: "text", respond: { text: "The quick brown fox jumps.", stream: { chunkWords: 2 }, usage: { inputTokens: 9, outputTokens: 5 } } },
  {
    name: "tool-calls",
    respond: {
      text: "Let me check.",
      toolCalls: [WEATHER_CALL, cutTimeCall("call_scripted")],
    },
  },
  { name: "reasoning", respond: { reasoning: [{ text: "First think." }, { text: "Then answer." }], text: "Answer.", usage: { reasoningTokens: 5 } } },
  { name: "refusal", respond: { refusal: "I can't help with that." } },
  { name: "incomplete", respond: { text: "Cut off mid", finishReason: "length" } },
  {
    name: "stream-error",
    respond: { text: "one two three four" },
    failures: [{ kind: "stream_error", afterChunks: 5, message: "The model crashed." }],
  },
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...CASES.map((c) => ({ name: `golden-resp-${c.name}`, steps: [{ ...(c.failures ? { failures: c.failures } : {}), respond: c.respond }] })));
});
afterAll(() => h?.stop());

describe("Responses golden transcripts", () => {
  it.each(CASES)("$name", async (c) => {
    const res = await fetch(`${h.url}/s/golden-resp-${c.name}/v1/responses`, {
      method: "POST",
      headers: { authorization: "Bearer sk", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4.1", stream: true, input: "hi", tools: [{ type: "function", name: "get_weather", parameters: {} }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const text = await res.text();
    // Every event's `event:` line names its `type`, and sequence numbers count from 0 without gaps.
    const events = namedEvents(text);
    events.forEach((e, i) => {
      expect(e.data.type).toBe(e.event);
      expect(e.data.sequence_number).toBe(i);
    });
    expectGolden(`openai-responses/${c.name}.sse`, normalize(text, RESPONSES_IDS));
  });
});
