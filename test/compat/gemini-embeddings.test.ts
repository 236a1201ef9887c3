/**
 * Gemini embeddings and token counts through the clients that call them: `@google/genai`'s `models.embedContent`
 * (`:batchEmbedContents`) and `models.countTokens`, the `ai` SDK's `embed` (`:embedContent`) and `embedMany` with
 * `@ai-sdk/google`; scripted vectors, the default ones (deterministic, unit length, the model's size or
 * `outputDimensionality`), and the limits.
 */
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { GoogleGenAI } from "@google/genai";
import { embed, embedMany } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "ge-scripted",
    steps: [
      {
        match: { provider: "gemini", endpoint: "embeddings", lastUserMessage: "second" },
        respond: {
          embeddings: [
            [1, 0],
            [0, 1],
          ],
        },
      },
    ],
  },
];

const genai = (base = h.url) => new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: base } });
const norm = (v: number[]) => Math.sqrt(v.reduce((n, x) => n + x * x, 0));

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("@google/genai", () => {
  it("embedContent: one vector per content, of the size asked, the same for the same text, unit length", async () => {
    const res = await genai().models.embedContent({ model: "gemini-embedding-001", contents: ["alpha", "beta", "alpha"], config: { outputDimensionality: 8 } });
    const vectors = res.embeddings!.map((e) => e.values!);
    expect(vectors.map((v) => v.length)).toEqual([8, 8, 8]);
    expect(vectors[2]).toEqual(vectors[0]);
    expect(vectors[1]).not.toEqual(vectors[0]);
    for (const v of vectors) expect(norm(v)).toBeCloseTo(1, 5);
    const full = await genai().models.embedContent({ model: "gemini-embedding-001", contents: "alpha" });
    expect(full.embeddings![0]!.values).toHaveLength(3072);
    const small = await genai().models.embedContent({ model: "text-embedding-004", contents: "alpha" });
    expect(small.embeddings![0]!.values).toHaveLength(768);
  });

  it("a scenario scripts the vectors and is journaled as gemini embeddings", async () => {
    const res = await genai(`${h.url}/s/ge-scripted/s1`).models.embedContent({ model: "gemini-embedding-001", contents: ["first", "second"] });
    expect(res.embeddings!.map((e) => e.values)).toEqual([
      [1, 0],
      [0, 1],
    ]);
    const [entry] = await h.journal("ge-scripted", "s1");
    expect(entry).toMatchObject({ provider: "gemini", endpoint: "embeddings", outcome: "response", step: "step-1" });
  });

  it("countTokens: the estimate over the contents, with its TEXT detail", async () => {
    const res = await genai().models.countTokens({ model: "gemini-2.5-flash", contents: "hello there, how are you" });
    expect(res.totalTokens).toBe(6);
    // The SDK keeps `totalTokens` (and `cachedContentTokenCount`); the wire has the details too.
    const raw = await fetch(`${h.url}/v1beta/models/gemini-2.5-flash:countTokens`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": "k" },
      body: JSON.stringify({ generateContentRequest: { model: "models/gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hello there, how are you" }] }] } }),
    });
    expect(await raw.json()).toEqual({ totalTokens: 6, promptTokensDetails: [{ modality: "TEXT", tokenCount: 6 }] });
  });

  it("more than 100 requests in one batch is the API's 400", async () => {
    const contents = Array.from({ length: 101 }, (_, i) => `text ${i}`);
    await expect(genai().models.embedContent({ model: "gemini-embedding-001", contents })).rejects.toMatchObject({ status: 400 });
  });
});

describe("ai SDK with @ai-sdk/google", () => {
  const google = () => createGoogleGenerativeAI({ apiKey: "k", baseURL: `${h.url}/v1beta` });

  it("embed (embedContent) and embedMany (batchEmbedContents) give the same vector for the same text", async () => {
    const one = await embed({ model: google().embedding("gemini-embedding-001"), value: "alpha", maxRetries: 0 });
    const many = await embedMany({ model: google().embedding("gemini-embedding-001"), values: ["alpha", "beta"], maxRetries: 0 });
    expect(one.embedding).toHaveLength(3072);
    expect(many.embeddings).toHaveLength(2);
    expect(many.embeddings[0]).toEqual(one.embedding);
  });
});
