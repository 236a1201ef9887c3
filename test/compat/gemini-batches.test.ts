/**
 * Gemini batch mode with inline requests through the official `@google/genai` client (contract section 11), on both
 * runtimes: `batches.create` → `batches.get` until succeeded, the inline responses (one scripted answer per request
 * key, one a scripted 429), the journal's `batch`, cancel, delete.
 */
import { GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const SCENARIO = {
  name: "gbatch",
  steps: [
    { id: "one", match: { customId: "one" }, respond: { text: "First answer" } },
    { id: "two", match: { customId: "two" }, failures: [{ kind: "rate_limit" }], respond: { text: "never" } },
  ],
};
const SLOW = { name: "gbatch-slow", async: { processingMs: 60_000 }, steps: [{ consume: false, respond: { text: "late" } }] };

const client = (scenario: string, session: string) => new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: `${h.url}/s/${scenario}/${session}` } });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SCENARIO, SLOW);
});
afterAll(() => h?.stop());

describe("gemini batch mode (inline requests)", () => {
  it("create → get until succeeded: inline responses in order, scripted per key", async () => {
    const ai = client("gbatch", "run");
    const job = await ai.batches.create({
      model: "gemini-2.5-flash",
      src: [
        { contents: [{ role: "user", parts: [{ text: "a" }] }], metadata: { key: "one" } },
        { contents: [{ role: "user", parts: [{ text: "b" }] }], metadata: { key: "two" } },
      ],
      config: { displayName: "nightly" },
    });
    expect(job.name).toMatch(/^batches\/[0-9a-z]{28}$/);
    expect(job).toMatchObject({ displayName: "nightly", state: "JOB_STATE_PENDING", model: "models/gemini-2.5-flash" });
    const done = await ai.batches.get({ name: job.name! });
    expect(done.state).toBe("JOB_STATE_SUCCEEDED");
    const responses = done.dest!.inlinedResponses!;
    expect(responses).toHaveLength(2);
    expect(responses[0]!.metadata).toEqual({ key: "one" });
    expect(responses[0]!.response!.candidates![0]!.content!.parts![0]!.text).toBe("First answer");
    expect(responses[1]!.error).toMatchObject({ code: 429, status: "RESOURCE_EXHAUSTED" });
    const journal = await h.journal("gbatch", "run");
    expect(journal.map((e) => [e.step, e.endpoint, e.batch])).toEqual([
      ["one", "generateContent", { id: job.name, customId: "one" }],
      ["two", "generateContent", { id: job.name, customId: "two" }],
    ]);
    await ai.batches.delete({ name: job.name! });
    await expect(ai.batches.get({ name: job.name! })).rejects.toMatchObject({ status: 404 });
  });

  it("cancel before it is due: cancelled, nothing run", async () => {
    const ai = client("gbatch-slow", "c");
    const job = await ai.batches.create({ model: "gemini-2.5-flash", src: [{ contents: [{ role: "user", parts: [{ text: "x" }] }] }] });
    expect((await ai.batches.get({ name: job.name! })).state).toBe("JOB_STATE_PENDING");
    await ai.batches.cancel({ name: job.name! });
    expect((await ai.batches.get({ name: job.name! })).state).toBe("JOB_STATE_CANCELLED");
  });
});
