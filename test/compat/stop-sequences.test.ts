/**
 * Stop sequences on every surface (issue 51 point 11), through the official SDKs on both runtimes: OpenAI Chat
 * `stop` (string or array; Azure's deployment route too), Anthropic `stop_sequences` (and Claude on Bedrock
 * InvokeModel), Gemini `generationConfig.stopSequences`, Bedrock Converse `inferenceConfig.stopSequences`, Ollama
 * `options.stop`. The text — scripted or the default responder's — ends before the first stop sequence (not
 * included), the same in JSON and in the stream (cut inside a chunk), with each provider's finish fields; a step
 * with `stopSequences: "ignore"` keeps its text whole.
 */
import Anthropic from "@anthropic-ai/sdk";
import AnthropicBedrock from "@anthropic-ai/bedrock-sdk";
import AnthropicVertex from "@anthropic-ai/vertex-sdk";
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { GoogleGenAI } from "@google/genai";
import { Ollama } from "ollama";
import OpenAI, { AzureOpenAI } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIME, startHarness, type Harness } from "./harness";

let h: Harness;

/** A ReAct-style answer: the model must stop before writing the observation itself. */
const SCRIPTED = "Thought: I should search.\nAction: search[weather]\nObservation: sunny\nThought: done";
/** Cut inside the chunk `Observation:` (the stream sends one word per chunk). */
const STOP = "Obs";
const CUT = "Thought: I should search.\nAction: search[weather]\n";

beforeAll(async () => {
  h = await startHarness({ DEFAULT_WORDS_PER_SECOND: "0" });
  await h.upload({
    name: "stops",
    steps: [
      { match: { lastUserMessage: { contains: "whole" } }, consume: false, respond: { text: SCRIPTED, stopSequences: "ignore", stream: { chunkWords: 1 } } },
      { consume: false, respond: { text: SCRIPTED, stream: { chunkWords: 1 } } },
    ],
  });
}, 120_000);
afterAll(() => h?.stop());

let n = 0;
const base = () => `${h.url}/s/stops/st${++n}`;
const words = (text: string) => text.match(/\S+/g)?.length ?? 0;
const QUESTION = "What is the weather like in Paris today?";

describe("openai: Chat Completions `stop`", () => {
  const client = (baseURL = base()) => new OpenAI({ baseURL, apiKey: "sk-test", maxRetries: 0 });
  const messages = [{ role: "user" as const, content: QUESTION }];

  it("scripted text: cut before the first stop sequence, JSON and stream alike (array and string)", async () => {
    const json = await client().chat.completions.create({ model: "gpt-4o-mini", messages, stop: ["never-there", STOP] });
    expect([json.choices[0]!.message.content, json.choices[0]!.finish_reason]).toEqual([CUT, "stop"]);
    const stream = await client().chat.completions.create({ model: "gpt-4o-mini", messages, stop: STOP, stream: true, stream_options: { include_usage: true } });
    let text = "";
    const finishes: (string | null)[] = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
    }
    expect([text, finishes]).toEqual([CUT, ["stop"]]);
  });

  it("the sequence that is complete first wins; an absent one changes nothing", async () => {
    const json = await client().chat.completions.create({ model: "gpt-4o-mini", messages, stop: ["search[weather]", "search"] });
    expect(json.choices[0]!.message.content).toBe("Thought: I should ");
    const whole = await client().chat.completions.create({ model: "gpt-4o-mini", messages, stop: ["nowhere"] });
    expect([whole.choices[0]!.message.content, whole.choices[0]!.finish_reason]).toEqual([SCRIPTED, "stop"]);
  });

  it('a step with stopSequences: "ignore" keeps its text whole', async () => {
    const json = await client().chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "the whole text" }], stop: [STOP] });
    expect(json.choices[0]!.message.content).toBe(SCRIPTED);
  });

  it("the default responder: its lorem text cut, usage counting the words sent, JSON and stream", async () => {
    const plain = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: "sk-test", maxRetries: 0 });
    const full = (await plain.chat.completions.create({ model: "gpt-4o-mini", messages })).choices[0]!.message.content!;
    const stop = full.split(" ")[3]!;
    const expected = full.slice(0, full.indexOf(stop));
    const json = await plain.chat.completions.create({ model: "gpt-4o-mini", messages, stop: [stop] });
    expect([json.choices[0]!.message.content, json.choices[0]!.finish_reason, json.usage?.completion_tokens]).toEqual([expected, "stop", words(expected)]);
    const stream = await plain.chat.completions.create({ model: "gpt-4o-mini", messages, stop: [stop], stream: true, stream_options: { include_usage: true } });
    let text = "";
    let usage: number | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      if (chunk.usage) usage = chunk.usage.completion_tokens;
    }
    expect([text, usage]).toEqual([expected, words(expected)]);
  });

  it("Azure's deployment route: the same cut", async () => {
    const az = new AzureOpenAI({ endpoint: base(), apiKey: "azure-key", apiVersion: "2024-10-21", deployment: "prod-4o" });
    const json = await az.chat.completions.create({ model: "prod-4o", messages, stop: [STOP] });
    expect([json.choices[0]!.message.content, json.choices[0]!.finish_reason]).toEqual([CUT, "stop"]);
  });
});

describe("@anthropic-ai/sdk: stop_sequences", () => {
  const client = () => new Anthropic({ baseURL: base(), apiKey: "sk-ant-test", maxRetries: 0 });
  const params = { model: "claude-haiku-4-5", max_tokens: 1024, messages: [{ role: "user" as const, content: QUESTION }], stop_sequences: ["nowhere", STOP] };

  it('JSON: stop_reason "stop_sequence" and the sequence named', async () => {
    const msg = await client().messages.create(params);
    expect([msg.content, msg.stop_reason, msg.stop_sequence]).toEqual([[{ type: "text", text: CUT }], "stop_sequence", STOP]);
  });

  it("stream: the same text, and message_delta names the sequence", async () => {
    const stream = client().messages.stream(params);
    const deltas: unknown[] = [];
    stream.on("streamEvent", (e) => {
      if (e.type === "message_delta") deltas.push(e.delta);
    });
    const msg = await stream.finalMessage();
    expect([msg.content.map((b) => (b.type === "text" ? b.text : b.type)), msg.stop_reason, msg.stop_sequence]).toEqual([[CUT], "stop_sequence", STOP]);
    expect(deltas).toEqual([{ stop_reason: "stop_sequence", stop_sequence: STOP, stop_details: null }]);
  });

  it("no sequence in the text: end_turn, stop_sequence null", async () => {
    const msg = await client().messages.create({ ...params, stop_sequences: ["nowhere"] });
    expect([msg.stop_reason, msg.stop_sequence]).toEqual(["end_turn", null]);
  });

  it("the default responder: the lorem text cut, output_tokens counting the words sent", async () => {
    const plain = new Anthropic({ baseURL: h.url, apiKey: "sk-ant-test", maxRetries: 0 });
    const first = (await plain.messages.create({ ...params, stop_sequences: [] })).content[0];
    const full = first?.type === "text" ? first.text : "";
    const stop = full.split(" ")[2]!;
    const expected = full.slice(0, full.indexOf(stop));
    const msg = await plain.messages.create({ ...params, stop_sequences: [stop] });
    expect([msg.content.map((b) => (b.type === "text" ? b.text : b.type)), msg.stop_reason, msg.stop_sequence, msg.usage.output_tokens]).toEqual([[expected], "stop_sequence", stop, words(expected)]);
  });

  it("Claude on Bedrock InvokeModel (@anthropic-ai/bedrock-sdk), JSON and stream", async () => {
    const bedrock = new AnthropicBedrock({ baseURL: base(), awsRegion: "us-east-1", awsAccessKey: "AKIDMOCKLLMEXAMPLE", awsSecretKey: "mockllm-fake-secret", maxRetries: 0 });
    const model = "anthropic.claude-3-5-haiku-20241022-v1:0";
    const msg = await bedrock.messages.create({ ...params, model });
    expect([msg.content.map((b) => (b.type === "text" ? b.text : b.type)), msg.stop_reason, msg.stop_sequence]).toEqual([[CUT], "stop_sequence", STOP]);
    const streamed = await bedrock.messages.stream({ ...params, model }).finalMessage();
    expect([streamed.content.map((b) => (b.type === "text" ? b.text : b.type)), streamed.stop_reason, streamed.stop_sequence]).toEqual([[CUT], "stop_sequence", STOP]);
  });
});

describe("@google/genai: generationConfig.stopSequences", () => {
  const client = () => new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: base() } });
  const request = { model: "gemini-2.5-flash", contents: QUESTION, config: { stopSequences: [STOP] } };

  it('JSON and stream: the cut text, finishReason "STOP"', async () => {
    const json = await client().models.generateContent(request);
    expect([json.text, json.candidates?.[0]?.finishReason]).toEqual([CUT, "STOP"]);
    let text = "";
    const finishes: unknown[] = [];
    for await (const chunk of await client().models.generateContentStream(request)) {
      text += chunk.text ?? "";
      if (chunk.candidates?.[0]?.finishReason) finishes.push(chunk.candidates[0].finishReason);
    }
    expect([text, finishes]).toEqual([CUT, ["STOP"]]);
  });
});

describe("Google Vertex AI: Gemini and Claude", () => {
  const stubAuth = { projectId: "mock-project", getRequestHeaders: async () => new Headers({ authorization: "Bearer ya29.mockllm-fake" }) };

  it("@google/genai with vertexai: true, JSON and stream", async () => {
    const client = new GoogleGenAI({ vertexai: true, project: "mock-project", location: "us-central1", googleAuthOptions: { authClient: stubAuth as never }, httpOptions: { baseUrl: base() } });
    const request = { model: "gemini-2.5-flash", contents: QUESTION, config: { stopSequences: [STOP] } };
    const json = await client.models.generateContent(request);
    expect([json.text, json.candidates?.[0]?.finishReason]).toEqual([CUT, "STOP"]);
    let text = "";
    for await (const chunk of await client.models.generateContentStream(request)) text += chunk.text ?? "";
    expect(text).toBe(CUT);
  });

  it("@anthropic-ai/vertex-sdk rawPredict and streamRawPredict", async () => {
    const client = new AnthropicVertex({ baseURL: `${base()}/v1`, region: "us-east5", projectId: "mock-project", authClient: stubAuth as never, maxRetries: 0 });
    const params = { model: "claude-sonnet-4@20250514", max_tokens: 1024, messages: [{ role: "user" as const, content: QUESTION }], stop_sequences: [STOP] };
    const msg = await client.messages.create(params);
    expect([msg.content.map((b) => (b.type === "text" ? b.text : b.type)), msg.stop_reason, msg.stop_sequence]).toEqual([[CUT], "stop_sequence", STOP]);
    const streamed = await client.messages.stream(params).finalMessage();
    expect([streamed.content.map((b) => (b.type === "text" ? b.text : b.type)), streamed.stop_reason, streamed.stop_sequence]).toEqual([[CUT], "stop_sequence", STOP]);
  });
});

describe("@aws-sdk/client-bedrock-runtime: inferenceConfig.stopSequences", () => {
  const client = () =>
    new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: base(),
      credentials: { accessKeyId: "AKIDMOCKLLMEXAMPLE", secretAccessKey: "mockllm-fake-secret" },
      ...(RUNTIME === "workers" ? { requestHandler: new NodeHttpHandler() } : {}),
    });
  const input = { modelId: "anthropic.claude-3-5-haiku-20241022-v1:0", messages: [{ role: "user" as const, content: [{ text: QUESTION }] }], inferenceConfig: { stopSequences: [STOP] } };

  it('Converse: stopReason "stop_sequence"', async () => {
    const out = await client().send(new ConverseCommand(input));
    expect([out.output?.message?.content, out.stopReason]).toEqual([[{ text: CUT }], "stop_sequence"]);
  });

  it("ConverseStream: the same text; messageStop names the reason (and Claude's stop_sequence)", async () => {
    const out = await client().send(new ConverseStreamCommand(input));
    let text = "";
    const stops: unknown[] = [];
    for await (const e of out.stream!) {
      text += e.contentBlockDelta?.delta?.text ?? "";
      if (e.messageStop) stops.push(e.messageStop);
    }
    expect([text, stops]).toEqual([CUT, [{ stopReason: "stop_sequence", additionalModelResponseFields: { delta: { stop_sequence: STOP } } }]]);
  });
});

describe("ollama: options.stop", () => {
  const client = () => new Ollama({ host: base() });
  const request = { model: "llama3.2", messages: [{ role: "user", content: QUESTION }], options: { stop: [STOP] } };

  it('chat JSON and stream, generate: the cut text, done_reason "stop"', async () => {
    const json = await client().chat({ ...request, stream: false });
    expect([json.message.content, json.done_reason]).toEqual([CUT, "stop"]);
    let text = "";
    let reason: string | undefined;
    for await (const part of await client().chat({ ...request, stream: true })) {
      text += part.message.content;
      if (part.done) reason = part.done_reason;
    }
    expect([text, reason]).toEqual([CUT, "stop"]);
    const generated = await client().generate({ model: "llama3.2", prompt: QUESTION, options: { stop: [STOP] }, stream: false });
    expect([generated.response, generated.done_reason]).toEqual([CUT, "stop"]);
  });
});
