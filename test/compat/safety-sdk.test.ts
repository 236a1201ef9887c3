/**
 * The `content_filter` failure through each provider's official SDK, on both runtimes: the SDK surfaces the block as
 * it does against the real API — `openai` chat (`message.refusal`, `finish_reason: "content_filter"`, and
 * `ContentFilterFinishReasonError` from `parse`), `openai` responses (the refusal part, `incomplete_details`),
 * `@anthropic-ai/sdk` (`stop_reason: "refusal"` and `stop_details`), `@google/genai` (`promptFeedback.blockReason`,
 * `finishReason: SAFETY`), `@aws-sdk/client-bedrock-runtime` (`stopReason: "guardrail_intervened"` and its trace).
 * Every request runs in its own session, so each is attempt 1 of its step.
 */
import Anthropic from "@anthropic-ai/sdk";
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from "@aws-sdk/client-bedrock-runtime";
import { FinishReason, GoogleGenAI, BlockedReason } from "@google/genai";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import OpenAI from "openai";
import { ContentFilterFinishReasonError } from "openai/core/error";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIME, startHarness, type Harness } from "./harness";

let h: Harness;
const TEXT = "Sure, here is the whole answer you asked for.";
const REFUSAL = "I can't help with that request.";

beforeAll(async () => {
  h = await startHarness();
  await h.upload(
    {
      name: "sdk-cf-prompt",
      steps: [{ failures: [{ kind: "content_filter", on: "prompt", categories: ["violence"], message: REFUSAL }], respond: { text: TEXT } }],
    },
    {
      name: "sdk-cf-completion",
      steps: [{ failures: [{ kind: "content_filter", on: "completion", afterChunks: 3, categories: ["hate"] }], respond: { text: TEXT } }],
    },
  );
}, 120_000);
afterAll(() => h?.stop());

let n = 0;
const base = (scenario: string) => `${h.url}/s/${scenario}/sdk${++n}`;
const user = [{ role: "user" as const, content: "Hello" }];

describe("openai chat completions", () => {
  const client = (scenario: string) => new OpenAI({ apiKey: "sk-test", baseURL: `${base(scenario)}/v1`, maxRetries: 0 });

  it("a blocked prompt is a refusal with no content, JSON and stream", async () => {
    const res = await client("sdk-cf-prompt").chat.completions.create({ model: "gpt-4o", messages: user });
    expect(res.choices[0]!.message).toMatchObject({ content: null, refusal: REFUSAL });
    expect(res.choices[0]!.finish_reason).toBe("stop");
    const stream = client("sdk-cf-prompt").chat.completions.stream({ model: "gpt-4o", messages: user });
    const refusals: string[] = [];
    stream.on("refusal.done", (e) => refusals.push(e.refusal));
    const final = await stream.finalChatCompletion();
    expect([final.choices[0]!.message.content, final.choices[0]!.message.refusal, refusals]).toEqual([null, REFUSAL, [REFUSAL]]);
  });

  it("a stopped answer has the text so far and finish_reason content_filter; parse() throws ContentFilterFinishReasonError", async () => {
    const res = await client("sdk-cf-completion").chat.completions.create({ model: "gpt-4o", messages: user });
    expect([res.choices[0]!.message.content, res.choices[0]!.finish_reason]).toEqual(["Sure, here is", "content_filter"]);
    const final = await client("sdk-cf-completion").chat.completions.stream({ model: "gpt-4o", messages: user }).finalChatCompletion();
    expect([final.choices[0]!.message.content, final.choices[0]!.finish_reason]).toEqual(["Sure, here is", "content_filter"]);
    const err = await client("sdk-cf-completion")
      .chat.completions.parse({ model: "gpt-4o", messages: user })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentFilterFinishReasonError);
  });
});

describe("openai responses", () => {
  const client = (scenario: string) => new OpenAI({ apiKey: "sk-test", baseURL: `${base(scenario)}/v1`, maxRetries: 0 });

  it("a blocked prompt is a refusal content part, JSON and stream", async () => {
    const res = await client("sdk-cf-prompt").responses.create({ model: "gpt-4o", input: "Hello" });
    expect(res.status).toBe("completed");
    expect(res.output[0]).toMatchObject({ type: "message", content: [{ type: "refusal", refusal: REFUSAL }] });
    expect(res.output_text).toBe("");
    const stream = client("sdk-cf-prompt").responses.stream({ model: "gpt-4o", input: "Hello" });
    const done: string[] = [];
    stream.on("response.refusal.done", (e) => done.push(e.refusal));
    const final = await stream.finalResponse();
    const part = final.output[0]?.type === "message" ? final.output[0].content[0] : undefined;
    expect([done, part?.type, part?.type === "refusal" ? part.refusal : undefined]).toEqual([[REFUSAL], "refusal", REFUSAL]);
  });

  it("a stopped answer is incomplete with reason content_filter, JSON and stream", async () => {
    const res = await client("sdk-cf-completion").responses.create({ model: "gpt-4o", input: "Hello" });
    expect([res.status, res.incomplete_details, res.output_text]).toEqual(["incomplete", { reason: "content_filter" }, "Sure, here is"]);
    const types: string[] = [];
    const stream = client("sdk-cf-completion").responses.stream({ model: "gpt-4o", input: "Hello" });
    stream.on("event", (e) => types.push(e.type));
    const final = await stream.finalResponse();
    expect([final.status, final.incomplete_details, final.output_text, types.at(-1)]).toEqual(["incomplete", { reason: "content_filter" }, "Sure, here is", "response.incomplete"]);
  });
});

describe("@anthropic-ai/sdk", () => {
  const client = (scenario: string) => new Anthropic({ apiKey: "sk-ant-test", baseURL: base(scenario), maxRetries: 0 });
  const params = { model: "claude-sonnet-4-6", max_tokens: 1024, messages: user };

  it("a blocked prompt is stop_reason refusal with no content and stop_details, JSON and stream", async () => {
    const res = await client("sdk-cf-prompt").messages.create(params);
    expect([res.stop_reason, res.content, res.stop_details]).toEqual(["refusal", [], { type: "refusal", category: "general_harms", explanation: REFUSAL }]);
    const final = await client("sdk-cf-prompt").messages.stream(params).finalMessage();
    expect([final.stop_reason, final.content, final.stop_details?.explanation]).toEqual(["refusal", [], REFUSAL]);
  });

  it("a stopped answer keeps the text so far and ends with stop_reason refusal, JSON and stream", async () => {
    const res = await client("sdk-cf-completion").messages.create(params);
    expect([res.stop_reason, res.content.map((b) => (b.type === "text" ? b.text : b.type))]).toEqual(["refusal", ["Sure, here is"]]);
    const texts: string[] = [];
    const stream = client("sdk-cf-completion")
      .messages.stream(params)
      .on("text", (t) => texts.push(t));
    const final = await stream.finalMessage();
    expect([final.stop_reason, texts.join(""), final.stop_details?.category]).toEqual(["refusal", "Sure, here is", "general_harms"]);
  });
});

describe("@google/genai", () => {
  const client = (scenario: string) => new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: base(scenario) } });
  const params = { model: "gemini-2.5-flash", contents: "Hello" };

  it("a blocked prompt has promptFeedback.blockReason SAFETY and no candidates, JSON and stream", async () => {
    const res = await client("sdk-cf-prompt").models.generateContent(params);
    expect([res.promptFeedback?.blockReason, res.promptFeedback?.blockReasonMessage, res.candidates, res.text]).toEqual([BlockedReason.SAFETY, REFUSAL, undefined, undefined]);
    expect(res.promptFeedback?.safetyRatings?.filter((r) => r.blocked)).toEqual([{ category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "HIGH", blocked: true }]);
    const chunks = [];
    for await (const c of await client("sdk-cf-prompt").models.generateContentStream(params)) chunks.push(c);
    expect(chunks.map((c) => [c.promptFeedback?.blockReason, c.candidates])).toEqual([[BlockedReason.SAFETY, undefined]]);
  });

  it("a stopped answer ends with finishReason SAFETY and the category's rating blocked, JSON and stream", async () => {
    const res = await client("sdk-cf-completion").models.generateContent(params);
    expect([res.text, res.candidates?.[0]?.finishReason]).toEqual(["Sure, here is", FinishReason.SAFETY]);
    expect(res.candidates?.[0]?.safetyRatings?.filter((r) => r.blocked).map((r) => r.category)).toEqual(["HARM_CATEGORY_HATE_SPEECH"]);
    let text = "";
    let finish: string | undefined;
    for await (const c of await client("sdk-cf-completion").models.generateContentStream(params)) {
      text += c.text ?? "";
      finish = c.candidates?.[0]?.finishReason ?? finish;
    }
    expect([text, finish]).toEqual(["Sure, here is", FinishReason.SAFETY]);
  });
});

describe("@aws-sdk/client-bedrock-runtime", () => {
  const client = (scenario: string) =>
    new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: base(scenario),
      credentials: { accessKeyId: "AKIDMOCKLLMEXAMPLE", secretAccessKey: "mockllm-fake-secret" },
      maxAttempts: 1,
      ...(RUNTIME === "workers" ? { requestHandler: new NodeHttpHandler() } : {}),
    });
  const input = {
    modelId: "amazon.nova-lite-v1:0",
    messages: [{ role: "user" as const, content: [{ text: "Hello" }] }],
    guardrailConfig: { guardrailIdentifier: "gr-abc123", guardrailVersion: "1", trace: "enabled" as const },
  };

  it("a blocked prompt is stopReason guardrail_intervened with the blocked message and an input assessment", async () => {
    const res = await client("sdk-cf-prompt").send(new ConverseCommand(input));
    expect([res.stopReason, res.output?.message?.content]).toEqual(["guardrail_intervened", [{ text: REFUSAL }]]);
    expect(res.trace?.guardrail?.inputAssessment?.["gr-abc123"]?.contentPolicy?.filters).toEqual([{ type: "VIOLENCE", confidence: "HIGH", filterStrength: "HIGH", action: "BLOCKED", detected: true }]);
  });

  it("a stopped stream ends with messageStop guardrail_intervened and the trace on metadata", async () => {
    const res = await client("sdk-cf-completion").send(new ConverseStreamCommand(input));
    let text = "";
    let stop: string | undefined;
    let types: (string | undefined)[] = [];
    for await (const e of res.stream!) {
      if (e.contentBlockDelta?.delta?.text) text += e.contentBlockDelta.delta.text;
      if (e.messageStop) stop = e.messageStop.stopReason;
      if (e.metadata) types = e.metadata.trace?.guardrail?.outputAssessments?.["gr-abc123"]?.[0]?.contentPolicy?.filters?.map((f) => f.type) ?? [];
    }
    expect([text, stop, types]).toEqual(["Sure, here is", "guardrail_intervened", ["HATE"]]);
  });
});
