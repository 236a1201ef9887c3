/**
 * DEFAULT_WORDS_PER_SECOND paces the default responder: 50 words/s = a 5-word chunk every 100 ms.
 */
import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
let client: OpenAI;

beforeAll(async () => {
  h = await startHarness({ DEFAULT_WORDS_PER_SECOND: "50" });
  client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: "sk-test", maxRetries: 0 });
});
afterAll(() => h?.stop());

// Timing read only where load cannot make it pass wrongly or fail: a busy machine delays chunks, never brings them
// forward, so a lower bound on the last arrival proves the pacing; the gap between two arrivals is not asserted (late
// chunks go out together once due), nor how long an unpaced answer takes, only that it is far below its paced time.
it("streams 5-word chunks at 50 words per second: the last of four, due 400 ms into the stream, never comes sooner", async () => {
  // 20 lorem words: four 5-word chunks, due at 100, 200, 300 and 400 ms after the stream starts (which is after `start`).
  const content = '<|instruction_start|>{"messages":[{"text_message":{"length":20}}]}<|instruction_end|>';
  const start = Date.now();
  const stream = await client.chat.completions.create({ model: "m", stream: true, messages: [{ role: "user", content }] });
  const arrivals: number[] = [];
  for await (const c of stream) {
    const piece = c.choices[0]?.delta.content;
    if (piece) {
      expect(piece.trim().split(" ")).toHaveLength(5);
      arrivals.push(Date.now() - start);
    }
  }
  expect(arrivals).toHaveLength(4);
  // Less a millisecond: the Node runtime's shared timer sends what is due within 1 ms of a tick.
  expect(arrivals.at(-1)!).toBeGreaterThanOrEqual(399);
});

it("a JSON answer is not paced", async () => {
  // 1,000 words at 50/s would take 20 s if paced: an unpaced answer comes in a fraction of that even on a busy machine.
  const start = Date.now();
  const res = await client.chat.completions.create({
    model: "m",
    messages: [{ role: "user", content: '<|instruction_start|>{"messages":[{"text_message":{"length":1000}}]}<|instruction_end|>' }],
  });
  expect(res.choices[0]!.message.content!.split(" ")).toHaveLength(1000);
  expect(Date.now() - start).toBeLessThan(10_000);
});
