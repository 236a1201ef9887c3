/**
 * Gemini batch mode through the official `@google/genai` client (contract section 11), on both runtimes:
 * `batches.create` → `batches.get` until succeeded, the inline responses (one scripted answer per request key, one a
 * scripted 429), the journal's `batch`, cancel, delete; and a batch read from an uploaded JSONL file, its answers a
 * file `files.download` fetches (and the `ai` SDK's `getBatchResults` reads).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { GoogleGenAI } from "@google/genai";
import { experimental_getBatchResults } from "ai";
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
const FROM_FILE = {
  name: "gbatch-file",
  steps: [
    { id: "a", match: { customId: "req-a" }, respond: { text: "Answer A", usage: { inputTokens: 3, outputTokens: 2 } } },
    { id: "b", match: { customId: "req-b" }, failures: [{ kind: "overloaded" }], respond: { text: "never" } },
  ],
};
const SLOW = { name: "gbatch-slow", async: { processingMs: 60_000 }, steps: [{ consume: false, respond: { text: "late" } }] };

const client = (scenario: string, session: string) => new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: `${h.url}/s/${scenario}/${session}` } });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SCENARIO, FROM_FILE, SLOW);
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

describe("gemini batch mode (an uploaded JSONL file)", () => {
  const jsonl = (keys: string[]) => `${keys.map((key) => JSON.stringify({ key, request: { contents: [{ role: "user", parts: [{ text: key }] }] } })).join("\n")}\n`;

  it("files.upload → batches.create({ src: file }) → get: a responses file of { key, response | error } lines, downloaded", async () => {
    const ai = client("gbatch-file", "run");
    const input = await ai.files.upload({ file: new Blob([jsonl(["req-a", "req-b"])], { type: "application/jsonl" }), config: { displayName: "in" } });
    const job = await ai.batches.create({ model: "gemini-2.5-flash", src: input.name!, config: { displayName: "from-file" } });
    expect(job.state).toBe("JOB_STATE_PENDING");
    const done = await ai.batches.get({ name: job.name! });
    expect(done.state).toBe("JOB_STATE_SUCCEEDED");
    expect(done.dest).toEqual({ fileName: `files/batch-${job.name!.slice("batches/".length)}` });
    const dir = mkdtempSync(join(tmpdir(), "gbatch-"));
    await ai.files.download({ file: done.dest!.fileName!, downloadPath: join(dir, "out.jsonl") });
    const lines = readFileSync(join(dir, "out.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.key, l.response?.candidates?.[0]?.content?.parts?.[0]?.text ?? l.error?.status])).toEqual([
      ["req-a", "Answer A"],
      ["req-b", "UNAVAILABLE"],
    ]);
    expect((await h.journal("gbatch-file", "run")).map((e) => [e.step, e.batch?.customId])).toEqual([
      ["a", "req-a"],
      ["b", "req-b"],
    ]);
    // The input file is the client's: downloading it is refused, as the API refuses an uploaded file.
    await expect(ai.files.download({ file: input.name!, downloadPath: join(dir, "in.jsonl") })).rejects.toMatchObject({ status: 400 });
  });

  it("the ai SDK's batch results, downloaded from /download/v1beta/…; a file that is not requests is refused, and nothing is kept", async () => {
    const ai = client("gbatch-file", "ai");
    const input = await ai.files.upload({ file: new Blob([jsonl(["req-a"])], { type: "application/jsonl" }) });
    const job = await ai.batches.create({ model: "gemini-2.5-flash", src: input.name! });
    await ai.batches.get({ name: job.name! });
    const google = createGoogleGenerativeAI({ apiKey: "test-key", baseURL: `${h.url}/s/gbatch-file/ai/v1beta` });
    const items: unknown[] = [];
    for await (const item of experimental_getBatchResults({ provider: google, batch: { version: 2, id: job.name!, provider: "google.batch" } })) items.push(item);
    expect(items).toMatchObject([{ type: "text", id: "req-a", status: "succeeded", text: "Answer A" }]);

    const bad = await ai.files.upload({ file: new Blob(['{"key":"x","request":{}}\nnot json\n'], { type: "application/jsonl" }) });
    const before = (await ai.batches.list()).page.length;
    await expect(ai.batches.create({ model: "gemini-2.5-flash", src: bad.name! })).rejects.toMatchObject({ status: 400 });
    await expect(ai.batches.create({ model: "gemini-2.5-flash", src: "files/nosuchfile" })).rejects.toMatchObject({ status: 403 });
    expect((await ai.batches.list()).page.length).toBe(before);
  });
});
