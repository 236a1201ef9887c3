/**
 * Latency, pacing and the timeout failure as a client sees them. Only lower bounds are asserted on time:
 * the script says "no sooner than", the machine decides how much later.
 */
import OpenAI, { APIConnectionTimeoutError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.upload(
    { name: "slow-start", steps: [{ consume: false, respond: { text: "a b c", stream: { ttftMs: 250 } } }] },
    { name: "paced", steps: [{ consume: false, respond: { text: "one two three four five six", stream: { tokensPerSecond: 20 } } }] },
    { name: "latency", steps: [{ consume: false, respond: { text: "late", latencyMs: 200 } }] },
    { name: "hangs", steps: [{ failures: [{ kind: "timeout", delayMs: 2000 }], respond: { text: "after the timeout" } }] },
  );
});
afterAll(() => h?.stop());

const client = (scenario: string, opts: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) => new OpenAI({ apiKey: "sk", baseURL: `${h.url}/s/${scenario}/v1`, maxRetries: 0, ...opts });

async function timedStream(scenario: string) {
  const start = performance.now();
  const stream = await client(scenario).chat.completions.create({ model: "m", stream: true, messages: [{ role: "user", content: "x" }] });
  const times: { text: string; at: number }[] = [];
  for await (const c of stream) {
    const text = c.choices[0]?.delta.content;
    if (text) times.push({ text, at: performance.now() - start });
  }
  return times;
}

describe("pacing", () => {
  it("ttftMs holds back the first content chunk", async () => {
    const times = await timedStream("slow-start");
    expect(times.map((t) => t.text).join("")).toBe("a b c");
    expect(times[0]!.at).toBeGreaterThanOrEqual(240);
  });

  it("tokensPerSecond spaces the words: six words at 20/s take at least ~300 ms", async () => {
    const times = await timedStream("paced");
    expect(times).toHaveLength(6);
    expect(times.at(-1)!.at).toBeGreaterThanOrEqual(280);
    for (let i = 1; i < times.length; i++) expect(times[i]!.at).toBeGreaterThanOrEqual(times[i - 1]!.at);
  });

  it("latencyMs holds back the whole JSON answer", async () => {
    const start = performance.now();
    const res = await client("latency").chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] });
    expect(res.choices[0]!.message.content).toBe("late");
    expect(performance.now() - start).toBeGreaterThanOrEqual(190);
  });

  it("timeout: the SDK gives up first; the retry gets the answer", async () => {
    const err = await client("hangs", { timeout: 300 })
      .chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    const ok = await client("hangs").chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] });
    expect(ok.choices[0]!.message.content).toBe("after the timeout");
    expect((await h.journal("hangs")).map((j) => j.outcome)).toEqual(["failure", "response"]);
  });
});
