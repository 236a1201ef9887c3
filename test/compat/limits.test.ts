/**
 * Scenario `limits` (issue 58) on both runtimes: a loop of SDK calls gets the provider's 429 at the request that
 * goes over requestsPerMinute / tokensPerMinute, and every answer before it carries the provider's own
 * remaining/reset headers.
 */
import Anthropic from "@anthropic-ai/sdk";
import { ApiError, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const step = { consume: false, respond: { text: "ok", usage: { inputTokens: 64, outputTokens: 32 } } };

beforeAll(async () => {
  h = await startHarness();
  await h.upload({ name: "lim-rpm", limits: { requestsPerMinute: 2 }, steps: [step] }, { name: "lim-tpm", limits: { tokensPerMinute: 200 }, steps: [step] });
});
afterAll(() => h?.stop());

const user = [{ role: "user" as const, content: "hi" }];

describe("OpenAI: x-ratelimit-* on every answer, the 429 past the limit", () => {
  const client = (scenario: string, session: string) => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/${scenario}/${session}/v1`, maxRetries: 0 });

  it("requestsPerMinute 2: requests 1 and 2 answer with the bucket going down, request 3 is a RateLimitError", async () => {
    const c = client("lim-rpm", "oa");
    const seen: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { response } = await c.chat.completions.create({ model: "gpt-4o-mini", messages: user }).withResponse();
      seen.push(`${response.headers.get("x-ratelimit-limit-requests")} ${response.headers.get("x-ratelimit-remaining-requests")} ${response.headers.get("x-ratelimit-reset-requests")}`);
    }
    expect(seen).toEqual(["2 1 1m0s", "2 0 1m0s"]);
    const err = (await c.chat.completions.create({ model: "gpt-4o-mini", messages: user }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect([err.code, err.type, err.status]).toEqual(["rate_limit_exceeded", "requests", 429]);
    expect(err.headers.get("x-ratelimit-remaining-requests")).toBe("0");
    expect(err.headers.get("x-ratelimit-reset-requests")).toMatch(/^(5\d(\.\d+)?s|1m0s)$/);
    expect(Number(err.headers.get("retry-after"))).toBeGreaterThanOrEqual(55);
    const journal = await h.journal("lim-rpm", "oa");
    expect(journal.map((e) => [e.outcome, e.status, e.step])).toEqual([
      ["response", 200, "step-1"],
      ["response", 200, "step-1"],
      ["failure", 429, null],
    ]);
    expect(journal[2]!.reasons[0]).toMatch(/^limits: requestsPerMinute 2 reached; retry in \d+ ms$/);
  });

  it("tokensPerMinute 200 at 96 tokens an answer: the 4th request is refused", async () => {
    const c = client("lim-tpm", "oa");
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { response } = await c.chat.completions.create({ model: "gpt-4o-mini", messages: user }).withResponse();
      remaining.push(`${response.headers.get("x-ratelimit-limit-tokens")} ${response.headers.get("x-ratelimit-remaining-tokens")}`);
    }
    expect(remaining).toEqual(["200 104", "200 8", "200 0"]);
    const err = await c.chat.completions.create({ model: "gpt-4o-mini", messages: user }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
  });
});

describe("OpenAI's other surfaces carry the same buckets", () => {
  it("embeddings: x-ratelimit-* on the answer, the 429 past the limit", async () => {
    const c = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/lim-rpm/emb/v1`, maxRetries: 0 });
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 2; i++) remaining.push((await c.embeddings.create({ model: "text-embedding-3-small", input: "hi" }).withResponse()).response.headers.get("x-ratelimit-remaining-requests"));
    expect(remaining).toEqual(["1", "0"]);
    expect(await c.embeddings.create({ model: "text-embedding-3-small", input: "hi" }).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.RateLimitError);
  });
});

describe("Anthropic: anthropic-ratelimit-* on every answer, rate_limit_error past the limit", () => {
  it("requestsPerMinute 2", async () => {
    const c = new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}/s/lim-rpm/anthropic`, maxRetries: 0 });
    const seen: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { response } = await c.messages.create({ model: "claude-sonnet-4-5", max_tokens: 64, messages: user }).withResponse();
      seen.push(`${response.headers.get("anthropic-ratelimit-requests-limit")} ${response.headers.get("anthropic-ratelimit-requests-remaining")}`);
      expect(response.headers.get("anthropic-ratelimit-requests-reset")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    expect(seen).toEqual(["2 1", "2 0"]);
    const err = (await c.messages.create({ model: "claude-sonnet-4-5", max_tokens: 64, messages: user }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.RateLimitError>;
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect((err.error as { error: { type: string } }).error.type).toBe("rate_limit_error");
    expect(err.headers?.get("anthropic-ratelimit-requests-remaining")).toBe("0");
  });

  it("tokensPerMinute: the token buckets count down", async () => {
    const c = new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}/s/lim-tpm/anthropic`, maxRetries: 0 });
    const { response } = await c.messages.create({ model: "claude-sonnet-4-5", max_tokens: 64, messages: user }).withResponse();
    expect(["tokens", "input-tokens", "output-tokens"].map((b) => response.headers.get(`anthropic-ratelimit-${b}-remaining`))).toEqual(["104", "104", "104"]);
  });
});

describe("Gemini: RESOURCE_EXHAUSTED with QuotaFailure and RetryInfo past the limit", () => {
  it("requestsPerMinute 2", async () => {
    const c = new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: `${h.url}/s/lim-rpm/gemini` } });
    for (let i = 0; i < 2; i++) expect((await c.models.generateContent({ model: "gemini-2.5-flash", contents: "hi" })).text).toBe("ok");
    const err = (await c.models.generateContent({ model: "gemini-2.5-flash", contents: "hi" }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(429);
    const body = JSON.parse(err.message.slice(err.message.indexOf("{"))) as { error: { status: string; details: { "@type": string; retryDelay?: string }[] } };
    expect(body.error.status).toBe("RESOURCE_EXHAUSTED");
    expect(body.error.details.map((d) => d["@type"])).toContain("type.googleapis.com/google.rpc.QuotaFailure");
    expect(body.error.details.find((d) => d["@type"].endsWith("RetryInfo"))?.retryDelay).toMatch(/^(5\d|60)(\.\d+)?s$/);
  });
});
