/**
 * Google Vertex AI through the official clients, on both runtimes: `@anthropic-ai/vertex-sdk` (Claude:
 * rawPredict, streamRawPredict, count-tokens) and `@google/genai` with `vertexai: true` (Gemini on the
 * projects/… path with a stub auth client, and express mode with an API key) — text, stream, a two-turn tool loop,
 * a scripted 429 the SDK retries, and a mid-stream error. No Google credentials: a stub auth client hands out a
 * fake bearer token; the mock checks that one is present.
 */
import AnthropicVertex from "@anthropic-ai/vertex-sdk";
import { ApiError, GoogleGenAI, type Content, type GenerateContentResponse } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloudSteps } from "./cloud-steps";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const CLAUDE = "claude-sonnet-4@20250514";
const GEMINI = "gemini-2.5-flash";

/** A stand-in for google-auth-library's AuthClient: what both SDKs call to authorise a request. */
const stubAuth = { projectId: "mock-project", getRequestHeaders: async () => new Headers({ authorization: "Bearer ya29.mockllm-fake" }) };

const steps = (midStreamError: Record<string, unknown>) => cloudSteps({ text: "Hello from Vertex.", inputTokens: 6, outputTokens: 3 }, midStreamError);

beforeAll(async () => {
  h = await startHarness();
  await h.upload({ name: "vx-claude", steps: steps({ message: "Overloaded" }) }, { name: "vx-gemini", steps: steps({}) });
}, 120_000);
afterAll(() => h?.stop());

function claude(session: string): AnthropicVertex {
  return new AnthropicVertex({
    baseURL: `${h.url}/s/vx-claude/${session}/v1`,
    region: "us-east5",
    projectId: "mock-project",
    authClient: stubAuth as never,
    maxRetries: 2,
  });
}

describe("@anthropic-ai/vertex-sdk", () => {
  const tools = [{ name: "get_weather", description: "Weather", input_schema: { type: "object" as const, properties: { city: { type: "string" } } } }];

  it("text, stream and count-tokens on the publishers/anthropic paths", async () => {
    const client = claude("text");
    const msg = await client.messages.create({ model: CLAUDE, max_tokens: 64, messages: [{ role: "user", content: "hello" }] });
    expect([msg.model, msg.content]).toEqual([CLAUDE, [{ type: "text", text: "Hello from Vertex." }]]);
    const deltas: string[] = [];
    const stream = client.messages.stream({ model: CLAUDE, max_tokens: 64, messages: [{ role: "user", content: "stream please" }] });
    stream.on("text", (t) => deltas.push(t));
    expect((await stream.finalMessage()).stop_reason).toBe("end_turn");
    expect(deltas).toEqual(["One two", " three four", " five."]);
    const count = await client.messages.countTokens({ model: CLAUDE, messages: [{ role: "user", content: "Hello, world" }] });
    expect(count).toEqual({ input_tokens: 3 });
    const journal = await h.journal("vx-claude", "text");
    const base = `/v1/projects/mock-project/locations/us-east5/publishers/anthropic/models/${CLAUDE}`;
    // The SDK moves the model into the path and the API version into the body (from its anthropic-version header).
    expect(journal.map((j) => [j.provider, j.endpoint, j.stream, j.request.path, typeof j.request.body.anthropic_version, "model" in j.request.body])).toEqual([
      ["vertex", "messages", false, `${base}:rawPredict`, "string", false],
      ["vertex", "messages", true, `${base}:streamRawPredict`, "string", false],
    ]);
  });

  it("a two-turn tool loop", async () => {
    const client = claude("tools");
    const first = await client.messages.create({ model: CLAUDE, max_tokens: 64, tools, messages: [{ role: "user", content: "weather in Paris" }] });
    const call = first.content.find((b) => b.type === "tool_use");
    expect(call).toMatchObject({ name: "get_weather", input: { city: "Paris" } });
    const second = await client.messages.create({
      model: CLAUDE,
      max_tokens: 64,
      tools,
      messages: [
        { role: "user", content: "weather in Paris" },
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: call?.type === "tool_use" ? call.id : "", content: "18C" }] },
      ],
    });
    expect(second.content).toEqual([{ type: "text", text: "It is 18C in Paris." }]);
  });

  it("a scripted 429 is retried; a mid-stream error event is the SDK's APIError", async () => {
    const client = claude("flaky");
    const msg = await client.messages.create({ model: CLAUDE, max_tokens: 64, messages: [{ role: "user", content: "flaky" }] });
    expect(msg.content).toEqual([{ type: "text", text: "after a retry" }]);
    expect((await h.journal("vx-claude", "flaky")).map((j) => [j.outcome, j.status])).toEqual([
      ["failure", 429],
      ["response", 200],
    ]);
    const err = await client.messages
      .stream({ model: CLAUDE, max_tokens: 64, messages: [{ role: "user", content: "cut" }] })
      .finalMessage()
      .catch((e: unknown) => e);
    expect(String(err)).toMatch(/overloaded_error/);
  });
});

function gemini(session: string, mode: "project" | "express" = "project"): GoogleGenAI {
  const httpOptions = { baseUrl: `${h.url}/s/vx-gemini/${session}`, retryOptions: { attempts: 3, initialDelay: 0 } };
  if (mode === "express") return new GoogleGenAI({ vertexai: true, apiKey: "mockllm-express-key", httpOptions });
  return new GoogleGenAI({ vertexai: true, project: "mock-project", location: "us-central1", googleAuthOptions: { authClient: stubAuth as never }, httpOptions });
}

async function collect(stream: AsyncGenerator<GenerateContentResponse>): Promise<string[]> {
  const texts: string[] = [];
  for await (const c of stream) texts.push(c.text ?? "");
  return texts;
}

describe("@google/genai with vertexai: true", () => {
  it("text and stream on the projects/… path, and express mode with an API key", async () => {
    const res = await gemini("text").models.generateContent({ model: GEMINI, contents: "hello" });
    expect([res.text, res.usageMetadata?.promptTokenCount, res.usageMetadata?.candidatesTokenCount]).toEqual(["Hello from Vertex.", 6, 3]);
    expect(await collect(await gemini("text").models.generateContentStream({ model: GEMINI, contents: "stream please" }))).toEqual(["One two", " three four", " five."]);
    const express = await gemini("express", "express").models.generateContent({ model: GEMINI, contents: "hello" });
    expect(express.text).toBe("Hello from Vertex.");
    const paths = [...(await h.journal("vx-gemini", "text")), ...(await h.journal("vx-gemini", "express"))].map((j) => [j.provider, j.request.path]);
    expect(paths).toEqual([
      ["vertex", `/v1beta1/projects/mock-project/locations/us-central1/publishers/google/models/${GEMINI}:generateContent`],
      ["vertex", `/v1beta1/projects/mock-project/locations/us-central1/publishers/google/models/${GEMINI}:streamGenerateContent`],
      ["vertex", `/v1beta1/publishers/google/models/${GEMINI}:generateContent`],
    ]);
  });

  it("a two-turn tool loop", async () => {
    const client = gemini("tools");
    const config = { tools: [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } } }] }] };
    const user: Content = { role: "user", parts: [{ text: "weather in Paris" }] };
    const first = await client.models.generateContent({ model: GEMINI, contents: [user], config });
    expect(first.functionCalls?.map((c) => [c.name, c.args])).toEqual([["get_weather", { city: "Paris" }]]);
    const second = await client.models.generateContent({
      model: GEMINI,
      config,
      contents: [user, first.candidates![0]!.content!, { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: "18C" } } }] }],
    });
    expect(second.text).toBe("It is 18C in Paris.");
  });

  it("a tool schema the proto parser refuses: through the SDK, and on the v1 path naming Vertex's own messages (google.cloud.aiplatform.v1)", async () => {
    const parameters = { type: "object", properties: { tags: { type: "array", items: { type: "string", enum: [1, "b"] } } } };
    const config = { tools: [{ functionDeclarations: [{ name: "tag", parameters: parameters as never }] }] };
    const err = await gemini("schema")
      .models.generateContent({ model: GEMINI, contents: "hello", config })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const field = "tools[0].function_declarations[0].parameters.properties[0].value.items.enum[0]";
    const description = `Invalid value at '${field}' (TYPE_STRING), 1`;
    expect([(err as ApiError).status, JSON.parse((err as ApiError).message)]).toEqual([
      400,
      { error: { code: 400, message: description, status: "INVALID_ARGUMENT", details: [{ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field, description }] }] } },
    ]);
    const res = await fetch(`${h.url}/s/vx-gemini/schema/v1/projects/p/locations/us-central1/publishers/google/models/${GEMINI}:generateContent`, {
      method: "POST",
      headers: { authorization: "Bearer ya29.mockllm-fake", "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ parts: [{ text: "hello" }] }], tools: [{ functionDeclarations: [{ name: "tag", parameters: { type: "enum", values: ["a"] } }] }] }),
    });
    const at = "tools[0].function_declarations[0].parameters";
    expect([res.status, ((await res.json()) as { error: { message: string } }).error.message.split("\n")]).toEqual([
      400,
      [`Invalid value at '${at}.type' (type.googleapis.com/google.cloud.aiplatform.v1.Type), "enum"`, `Invalid JSON payload received. Unknown name "values" at '${at}': Cannot find field.`],
    ]);
  });

  it("a scripted 429 is retried by retryOptions; a mid-stream error is an ApiError after the first chunks", async () => {
    const res = await gemini("flaky").models.generateContent({ model: GEMINI, contents: "flaky" });
    expect(res.text).toBe("after a retry");
    expect((await h.journal("vx-gemini", "flaky")).map((j) => [j.outcome, j.status])).toEqual([
      ["failure", 429],
      ["response", 200],
    ]);
    const texts: string[] = [];
    const err = await (async () => {
      for await (const c of await gemini("cut").models.generateContentStream({ model: GEMINI, contents: "cut" })) texts.push(c.text ?? "");
    })().catch((e: unknown) => e);
    expect(texts).toEqual(["a", " b"]);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(503);
  });

  it("embeddings (:predict for text-embedding and gemini-embedding-001, :embedContent for a Gemini model) and countTokens", async () => {
    const ai = new GoogleGenAI({ vertexai: true, project: "mock-project", location: "us-central1", googleAuthOptions: { authClient: stubAuth as never }, httpOptions: { baseUrl: h.url } });
    const res = await ai.models.embedContent({ model: "text-embedding-005", contents: ["alpha", "beta"], config: { outputDimensionality: 16 } });
    expect(res.embeddings!.map((e) => [e.values!.length, e.statistics])).toEqual([
      [16, { truncated: false, tokenCount: 2 }],
      [16, { truncated: false, tokenCount: 1 }],
    ]);
    expect(res.metadata).toEqual({ billableCharacterCount: 9 });
    // The same text, the same vector as on the Gemini API.
    const gemini = await new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: h.url } }).models.embedContent({
      model: "text-embedding-004",
      contents: "alpha",
      config: { outputDimensionality: 16 },
    });
    expect(res.embeddings![0]!.values).toEqual(gemini.embeddings![0]!.values);
    expect((await ai.models.embedContent({ model: "gemini-embedding-001", contents: "alpha" })).embeddings![0]!.values).toHaveLength(3072);
    const viaEmbedContent = await ai.models.embedContent({ model: "gemini-2.5-flash", contents: "alpha", config: { outputDimensionality: 8 } });
    expect(viaEmbedContent.embeddings![0]!.values).toHaveLength(8);
    expect((await ai.models.countTokens({ model: GEMINI, contents: "hello there, how are you" })).totalTokens).toBe(6);
  });
});
