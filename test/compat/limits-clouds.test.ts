/**
 * A `limits` 429 on Bedrock, Vertex AI, the Gemini API, Cohere and Ollama (issue 58), on both runtimes, through each
 * one's official client: the service's own quota answer (Bedrock `ThrottlingException` "Too many requests|tokens";
 * Vertex `RESOURCE_EXHAUSTED` naming the quota metric and base model, for Claude as for Gemini; the Gemini API's
 * `QuotaFailure` naming the requests or input-token quota), and none of the rate-limit or `retry-after` headers these
 * services do not send. Sources: docs/providers/fidelity.md.
 */
import AnthropicVertex from "@anthropic-ai/vertex-sdk";
import { BedrockRuntimeClient, ConverseCommand, ThrottlingException } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { ApiError, GoogleGenAI } from "@google/genai";
import { Cohere, CohereClientV2, type CohereError } from "cohere-ai";
import { Ollama } from "ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIME, startHarness, type Harness } from "./harness";

let h: Harness;
const step = { consume: false, respond: { text: "ok", usage: { inputTokens: 64, outputTokens: 32 } } };

beforeAll(async () => {
  h = await startHarness();
  await h.upload({ name: "lc-rpm", limits: { requestsPerMinute: 1 }, steps: [step] }, { name: "lc-tpm", limits: { tokensPerMinute: 50 }, steps: [step] });
}, 120_000);
afterAll(() => h?.stop());

/** Headers none of these services send on a quota 429. */
const NOT_SENT = ["retry-after", "retry-after-ms", "x-ratelimit-limit-requests", "anthropic-ratelimit-requests-limit", "anthropic-ratelimit-tokens-limit"];
const sent = (headers: Headers) => NOT_SENT.filter((n) => headers.has(n));

/** Two requests: the first answers, the second is over the scenario's limit. */
async function twice<T>(call: () => Promise<T>): Promise<unknown> {
  await call();
  return call().catch((e: unknown) => e);
}

describe("Bedrock: ThrottlingException, no retry or rate-limit headers", () => {
  const aws = (scenario: string, session: string) =>
    new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: `${h.url}/s/${scenario}/${session}`,
      credentials: { accessKeyId: "AKIDMOCKLLMEXAMPLE", secretAccessKey: "mockllm-fake-secret" },
      maxAttempts: 1,
      ...(RUNTIME === "workers" ? { requestHandler: new NodeHttpHandler() } : {}),
    });
  const converse = (scenario: string, session: string) => () =>
    aws(scenario, session).send(new ConverseCommand({ modelId: "anthropic.claude-3-5-haiku-20241022-v1:0", messages: [{ role: "user", content: [{ text: "hi" }] }] }));

  it("requestsPerMinute: Too many requests", async () => {
    const err = (await twice(converse("lc-rpm", "bd"))) as ThrottlingException;
    expect(err).toBeInstanceOf(ThrottlingException);
    expect([err.$metadata.httpStatusCode, err.message]).toEqual([429, "Too many requests, please wait before trying again."]);
  });

  it("tokensPerMinute: Too many tokens; on the wire, no retry-after and no rate-limit headers", async () => {
    const err = (await twice(converse("lc-tpm", "bd"))) as ThrottlingException;
    expect(err).toBeInstanceOf(ThrottlingException);
    expect(err.message).toBe("Too many tokens, please wait before trying again.");
    const raw = await fetch(`${h.url}/s/lc-tpm/bd/model/anthropic.claude-3-5-haiku-20241022-v1:0/converse`, {
      method: "POST",
      headers: { authorization: "Bearer bedrock-api-key", "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: [{ text: "hi" }] }] }),
    });
    expect(raw.status).toBe(429);
    expect(raw.headers.get("x-amzn-errortype")).toMatch(/^ThrottlingException/);
    expect(sent(raw.headers)).toEqual([]);
  });
});

describe("Vertex AI: RESOURCE_EXHAUSTED naming the quota, for Claude and Gemini", () => {
  const stubAuth = { projectId: "mock-project", getRequestHeaders: async () => new Headers({ authorization: "Bearer ya29.mockllm-fake" }) };

  it("Claude (@anthropic-ai/vertex-sdk): RateLimitError with Vertex's body, no anthropic-ratelimit-* headers", async () => {
    const claude = new AnthropicVertex({ baseURL: `${h.url}/s/lc-rpm/vx/v1`, region: "us-east5", projectId: "mock-project", authClient: stubAuth as never, maxRetries: 0 });
    const err = (await twice(() => claude.messages.create({ model: "claude-sonnet-4@20250514", max_tokens: 64, messages: [{ role: "user", content: "hi" }] }))) as InstanceType<
      typeof AnthropicVertex.RateLimitError
    >;
    expect(err).toBeInstanceOf(AnthropicVertex.RateLimitError);
    expect(err.status).toBe(429);
    expect(err.error).toEqual({
      error: {
        code: 429,
        message:
          "Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude-sonnet-4. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.",
        status: "RESOURCE_EXHAUSTED",
      },
    });
    expect(sent(err.headers!)).toEqual([]);
  });

  it("Gemini (@google/genai, vertexai): ApiError 429 naming the input-token quota", async () => {
    const ai = new GoogleGenAI({
      vertexai: true,
      project: "mock-project",
      location: "us-central1",
      googleAuthOptions: { authClient: stubAuth as never },
      httpOptions: { baseUrl: `${h.url}/s/lc-tpm/vx` },
    });
    const err = (await twice(() => ai.models.generateContent({ model: "gemini-2.5-flash", contents: "hi" }))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(429);
    const body = JSON.parse(err.message.slice(err.message.indexOf("{"))) as { error: Record<string, unknown> };
    expect(body.error).toEqual({
      code: 429,
      message:
        "Quota exceeded for aiplatform.googleapis.com/generate_content_input_tokens_per_minute_per_base_model with base model: gemini-2.5-flash. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.",
      status: "RESOURCE_EXHAUSTED",
    });
  });
});

describe("Gemini API: QuotaFailure names the quota that ran out", () => {
  it("tokensPerMinute: the input-token quota, RetryInfo, no retry-after header", async () => {
    const ai = new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: `${h.url}/s/lc-tpm/gem` } });
    const err = (await twice(() => ai.models.generateContent({ model: "gemini-2.5-flash", contents: "hi" }))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    const body = JSON.parse(err.message.slice(err.message.indexOf("{"))) as { error: { status: string; details: { "@type": string; violations?: unknown[]; retryDelay?: string }[] } };
    expect(body.error.status).toBe("RESOURCE_EXHAUSTED");
    expect(body.error.details[0]!.violations).toEqual([
      { quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_input_token_count", quotaId: "GenerateContentInputTokensPerModelPerMinute-FreeTier" },
    ]);
    expect(body.error.details[2]!.retryDelay).toMatch(/^(5\d|60)(\.\d+)?s$/);
    const raw = await fetch(`${h.url}/s/lc-tpm/gem/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: "POST",
      headers: { "x-goog-api-key": "k", "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ parts: [{ text: "hi" }] }] }),
    });
    expect(raw.status).toBe(429);
    expect(sent(raw.headers)).toEqual([]);
  });
});

describe("Cohere and Ollama: their own 429, no retry headers", () => {
  it("Cohere (cohere-ai): TooManyRequestsError with Cohere's message", async () => {
    const co = new CohereClientV2({ token: "co-test", baseUrl: `${h.url}/s/lc-rpm/co`, maxRetries: 0 });
    const err = (await twice(() => co.rerank({ model: "rerank-v3.5", query: "q", documents: ["a", "b"] }))) as CohereError;
    expect(err).toBeInstanceOf(Cohere.TooManyRequestsError);
    expect([err.statusCode, err.body]).toEqual([429, { message: "You are past the per minute request limit, please wait and try again later." }]);
  });

  it("Ollama (ollama): ResponseError 429; on the wire, no retry-after", async () => {
    const ollama = new Ollama({ host: `${h.url}/s/lc-rpm/ol` });
    const err = (await twice(() => ollama.chat({ model: "llama3.2", messages: [{ role: "user", content: "hi" }] }))) as { name: string; status_code: number; error: string };
    expect([err.name, err.status_code, err.error]).toEqual(["ResponseError", 429, "rate limit exceeded"]);
    const raw = await fetch(`${h.url}/s/lc-rpm/ol/api/chat`, { method: "POST", body: JSON.stringify({ model: "llama3.2", messages: [{ role: "user", content: "hi" }], stream: false }) });
    expect(raw.status).toBe(429);
    expect(sent(raw.headers)).toEqual([]);
  });
});
