/**
 * Gemini's explicit context caches through `@google/genai`'s `ai.caches` (create, get, list, update, delete) and a
 * generateContent naming one: the cache's system instruction and contents are in front of the request, so a scenario
 * matches them; and the API's refusals — the request also setting what the cache holds, an unknown or expired cache,
 * another model.
 */
import { GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const MODEL = "gemini-2.5-flash";
const SCENARIOS = [
  {
    name: "gc-manual",
    steps: [
      {
        consume: false,
        match: { system: "Answer from the manual.", lastUserMessage: "Which button?" },
        respond: { text: "The red one.", usage: { inputTokens: 40, outputTokens: 3, cacheReadTokens: 30 } },
      },
    ],
  },
];

const genai = (session: string) => new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: `${h.url}/s/gc-manual/${session}` } });
const manual = { contents: [{ role: "user", parts: [{ text: "The manual says: press the red button." }] }], systemInstruction: "Answer from the manual." };

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("@google/genai ai.caches", () => {
  it("create, then generateContent with the cache: the scenario sees the cached system text and contents", async () => {
    const ai = genai("s1");
    const cache = await ai.caches.create({ model: MODEL, config: { ...manual, ttl: "300s", displayName: "manual" } });
    expect(cache.name).toMatch(/^cachedContents\/[a-z0-9]{16}$/);
    expect(cache).toMatchObject({ model: `models/${MODEL}`, displayName: "manual", usageMetadata: { totalTokenCount: 16 } });
    expect(Date.parse(cache.expireTime!) - Date.parse(cache.createTime!)).toBe(300_000);

    const res = await ai.models.generateContent({ model: MODEL, contents: "Which button?", config: { cachedContent: cache.name } });
    expect(res.text).toBe("The red one.");
    expect(res.usageMetadata).toMatchObject({ promptTokenCount: 40, cachedContentTokenCount: 30 });
    const [entry] = await h.journal("gc-manual", "s1");
    expect(entry).toMatchObject({ endpoint: "generateContent", outcome: "response", step: "step-1" });
  });

  it("get, list, update (a new ttl), delete; then the cache is the API's 403", async () => {
    const ai = genai("s2");
    const cache = await ai.caches.create({ model: MODEL, config: { ...manual, ttl: "60s" } });
    expect(await ai.caches.get({ name: cache.name! })).toEqual(cache);
    const listed: string[] = [];
    for await (const c of await ai.caches.list()) listed.push(c.name!);
    expect(listed).toContain(cache.name);
    const updated = await ai.caches.update({ name: cache.name!, config: { ttl: "600s" } });
    expect(Date.parse(updated.expireTime!) - Date.parse(updated.updateTime!)).toBe(600_000);
    await ai.caches.delete({ name: cache.name! });
    await expect(ai.caches.get({ name: cache.name! })).rejects.toMatchObject({ status: 403 });
  });

  it("refuses what the API refuses, and journals none of it", async () => {
    const ai = genai("s3");
    const cache = await ai.caches.create({ model: MODEL, config: manual });
    const ask = (config: Record<string, unknown>, model = MODEL) => ai.models.generateContent({ model, contents: "Which button?", config: { cachedContent: cache.name, ...config } });
    await expect(ask({ systemInstruction: "Other." })).rejects.toThrow("Tool config, tools and system instruction should not be set in the request when using cached content.");
    await expect(ask({}, "gemini-2.5-pro")).rejects.toThrow(`Model used by GenerateContent request (models/gemini-2.5-pro) and CachedContent (models/${MODEL}) has to be the same.`);
    await expect(ai.models.generateContent({ model: MODEL, contents: "Which button?", config: { cachedContent: "cachedContents/nosuchcache" } })).rejects.toMatchObject({ status: 403 });
    const past = await ai.caches.create({ model: MODEL, config: { ...manual, expireTime: "2020-01-01T00:00:00Z" } });
    await expect(ai.caches.get({ name: past.name! })).rejects.toMatchObject({ status: 403 });
    // Nothing reached the session: its journal says it has not run.
    expect(await h.journal("gc-manual", "s3")).toMatchObject({ error: { code: "session_not_run" } });
  });
});
