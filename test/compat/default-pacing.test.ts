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

it("streams 5-word chunks about 100 ms apart at 50 words per second", async () => {
  // 20 lorem words: four 5-word chunks, due at 100, 200, 300 and 400 ms after the stream starts.
  const content = '<|instruction_start|>{"messages":[{"text_message":{"length":20}}]}<|instruction_end|>';
  const stream = await client.chat.completions.create({ model: "m", stream: true, messages: [{ role: "user", content }] });
  const arrivals: number[] = [];
  const start = Date.now();
  for await (const c of stream) {
    const piece = c.choices[0]?.delta.content;
    if (piece) {
      expect(piece.trim().split(" ")).toHaveLength(5);
      arrivals.push(Date.now() - start);
    }
  }
  expect(arrivals).toHaveLength(4);
  // The first to the last chunk spans three 100 ms intervals; allow for timer slack, not for missing pacing.
  expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThanOrEqual(250);
  expect(arrivals.at(-1)!).toBeLessThan(5000);
});

it("a JSON answer is not paced", async () => {
  const start = Date.now();
  const res = await client.chat.completions.create({
    model: "m",
    messages: [{ role: "user", content: '<|instruction_start|>{"messages":[{"text_message":{"length":200}}]}<|instruction_end|>' }],
  });
  expect(res.choices[0]!.message.content!.split(" ")).toHaveLength(200);
  // 200 words at 50/s would take 4 s if paced.
  expect(Date.now() - start).toBeLessThan(2000);
});
