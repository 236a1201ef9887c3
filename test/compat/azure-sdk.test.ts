/**
 * Azure OpenAI through the official clients, on both runtimes: `openai`'s `AzureOpenAI` (chat JSON and stream — its
 * stream helper and a raw loop over every chunk meet the leading empty-`choices` chunk —, Responses on
 * `/openai/responses`, embeddings, a 429 the SDK retries, the prompt block surfaced as `BadRequestError` with code
 * `content_filter`, a filtered completion) and `@ai-sdk/azure` (`createAzure` on the v1 routes, and on the deployment
 * routes with `useDeploymentBasedUrls`): generateText, streamText, embed.
 */
import { createAzure } from "@ai-sdk/azure";
import { embed, generateText, streamText } from "ai";
import { AzureOpenAI, BadRequestError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const VERSION = "2024-10-21";
const TEXT = "The deployment answered in full.";

beforeAll(async () => {
  h = await startHarness();
  await h.upload(
    {
      name: "az-sdk",
      steps: [
        {
          id: "chat",
          consume: false,
          match: { provider: "azure", endpoint: "chat.completions", model: "prod-4o" },
          respond: { text: TEXT, usage: { inputTokens: 7, outputTokens: 5 }, stream: { chunkWords: 2 } },
        },
        { id: "responses", consume: false, match: { provider: "azure", endpoint: "responses", model: "prod-4o" }, respond: { text: "Responses through Azure." } },
        { id: "embed", consume: false, match: { provider: "azure", endpoint: "embeddings" }, respond: { embeddings: [[0.5, 0.25, -1]] } },
      ],
    },
    { name: "az-sdk-429", steps: [{ id: "busy", failures: [{ kind: "rate_limit", retryAfterMs: 20 }], respond: { text: "After the retry." } }] },
    { name: "az-sdk-block", steps: [{ consume: false, failures: [{ kind: "content_filter", on: "prompt", categories: ["hate"] }], respond: { text: TEXT } }] },
    {
      name: "az-sdk-cut",
      steps: [{ consume: false, failures: [{ kind: "content_filter", on: "completion", afterChunks: 2, categories: ["violence"] }], respond: { text: TEXT, stream: { chunkWords: 1 } } }],
    },
  );
}, 120_000);
afterAll(() => h?.stop());

let n = 0;
const endpoint = (scenario: string) => `${h.url}/s/${scenario}/azs${++n}`;
const user = [{ role: "user" as const, content: "Hello" }];

function client(scenario: string, deployment?: string): AzureOpenAI {
  return new AzureOpenAI({ endpoint: endpoint(scenario), apiKey: "azure-key", apiVersion: VERSION, ...(deployment ? { deployment } : {}) });
}

describe("openai's AzureOpenAI", () => {
  it("chat JSON: the deployment route, Azure's annotations readable as extra fields", async () => {
    const { data, response, request_id } = await client("az-sdk", "prod-4o").chat.completions.create({ model: "gpt-4o", messages: user }).withResponse();
    expect([data.choices[0]!.message.content, data.choices[0]!.finish_reason, data.model, data.usage?.total_tokens]).toEqual([TEXT, "stop", "prod-4o", 12]);
    const extra = data as unknown as { prompt_filter_results: { content_filter_results: { hate: unknown } }[] };
    expect(extra.prompt_filter_results[0]!.content_filter_results.hate).toEqual({ filtered: false, severity: "safe" });
    expect(new URL(response.url).pathname).toMatch(/\/openai\/deployments\/prod-4o\/chat\/completions$/);
    expect([response.headers.get("x-ms-region"), response.headers.get("apim-request-id")?.length, request_id]).toEqual(["East US", 36, response.headers.get("x-request-id")]);
  });

  it("chat stream: the helper accumulates past the empty-choices chunk; a raw loop sees it first", async () => {
    const az = client("az-sdk", "prod-4o");
    const stream = az.chat.completions.stream({ model: "prod-4o", messages: user });
    const final = await stream.finalChatCompletion();
    expect([final.choices[0]!.message.content, final.choices[0]!.finish_reason, final.model]).toEqual([TEXT, "stop", "prod-4o"]);
    const raw = await az.chat.completions.create({ model: "prod-4o", messages: user, stream: true });
    const seen: string[] = [];
    for await (const chunk of raw) seen.push(chunk.choices.length === 0 ? "<empty>" : (chunk.choices[0]!.delta.content ?? chunk.choices[0]!.finish_reason ?? ""));
    expect(seen).toEqual(["<empty>", "", "The deployment", " answered in", " full.", "stop"]);
  });

  it("Responses go to /openai/responses with the deployment as model", async () => {
    const { data, response } = await client("az-sdk").responses.create({ model: "prod-4o", input: "Hello" }).withResponse();
    expect([data.output_text, data.model, new URL(response.url).pathname.endsWith("/openai/responses"), new URL(response.url).searchParams.get("api-version")]).toEqual([
      "Responses through Azure.",
      "prod-4o",
      true,
      VERSION,
    ]);
  });

  it("embeddings on the deployment the body names", async () => {
    const e = await client("az-sdk").embeddings.create({ model: "ada-prod", input: "hello" });
    expect([e.data[0]!.embedding, e.model]).toEqual([[0.5, 0.25, -1], "ada-prod"]);
  });

  it("a 429 is retried by the SDK (retry-after-ms) and the retry is answered", async () => {
    const scenarioBase = endpoint("az-sdk-429");
    const az = new AzureOpenAI({ endpoint: scenarioBase, apiKey: "azure-key", apiVersion: VERSION, deployment: "prod-4o" });
    const done = await az.chat.completions.create({ model: "prod-4o", messages: user });
    expect(done.choices[0]!.message.content).toBe("After the retry.");
    const session = new URL(scenarioBase).pathname.split("/").at(-1)!;
    expect((await h.journal("az-sdk-429", session)).map((e) => [e.status, e.outcome])).toEqual([
      [429, "failure"],
      [200, "response"],
    ]);
  });

  it("a blocked prompt is a BadRequestError with code content_filter (JSON and stream); a filtered completion finishes content_filter", async () => {
    for (const stream of [false, true]) {
      const error = await client("az-sdk-block", "prod-4o")
        .chat.completions.create({ model: "prod-4o", messages: user, stream })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(BadRequestError);
      const e = error as BadRequestError;
      const inner = (e.error as { innererror?: { code: string; content_filter_result: { hate: unknown } } }).innererror;
      expect([e.status, e.code, e.param, inner?.code, inner?.content_filter_result.hate]).toEqual([
        400,
        "content_filter",
        "prompt",
        "ResponsibleAIPolicyViolation",
        { filtered: true, severity: "medium" },
      ]);
    }
    const cut = await client("az-sdk-cut", "prod-4o").chat.completions.stream({ model: "prod-4o", messages: user }).finalChatCompletion();
    expect([cut.choices[0]!.message.content, cut.choices[0]!.finish_reason]).toEqual(["The deployment", "content_filter"]);
  });
});

describe("@ai-sdk/azure", () => {
  it("v1 routes (baseURL …/openai/v1): generateText on Responses and Chat, streamText on Chat, embed", async () => {
    const azure = createAzure({ baseURL: `${endpoint("az-sdk")}/openai/v1`, apiKey: "azure-key" });
    const responses = await generateText({ model: azure("prod-4o"), prompt: "Hello" });
    expect([responses.text, responses.finishReason]).toEqual(["Responses through Azure.", "stop"]);
    const chat = await generateText({ model: azure.chat("prod-4o"), prompt: "Hello" });
    expect([chat.text, chat.usage.inputTokens, chat.usage.outputTokens]).toEqual([TEXT, 7, 5]);
    const streamed = streamText({ model: azure.chat("prod-4o"), prompt: "Hello" });
    let text = "";
    for await (const delta of streamed.textStream) text += delta;
    expect([text, await streamed.finishReason]).toEqual([TEXT, "stop"]);
    const vector = await embed({ model: azure.embedding("ada-prod"), value: "hello" });
    expect(vector.embedding).toEqual([0.5, 0.25, -1]);
  });

  it("deployment routes (useDeploymentBasedUrls, a dated apiVersion): generateText and streamText on Chat", async () => {
    const azure = createAzure({ baseURL: `${endpoint("az-sdk")}/openai`, apiKey: "azure-key", useDeploymentBasedUrls: true, apiVersion: VERSION });
    const chat = await generateText({ model: azure.chat("prod-4o"), prompt: "Hello" });
    expect(chat.text).toBe(TEXT);
    const streamed = streamText({ model: azure.chat("prod-4o"), prompt: "Hello" });
    let text = "";
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toBe(TEXT);
  });
});
