/**
 * Gemini's Interactions API (`POST /v1beta/interactions`) through both clients that call it: `@google/genai`'s
 * `ai.interactions` (JSON, streams, `previous_interaction_id`, get/delete, retries) and `@ai-sdk/google`'s
 * `google.interactions()` (which validates every event and body with its own schemas).
 */
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { GoogleGenAI } from "@google/genai";
import { generateText, jsonSchema, Output, stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const MODEL = "gemini-3-flash-preview";
const AGENT = "deep-research-pro-preview-12-2025";
const weatherParams = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

const SCENARIOS = [
  {
    name: "gi-text",
    steps: [
      {
        match: { provider: "gemini", endpoint: "interactions", model: MODEL, stream: false },
        expect: { systemPromptMustInclude: ["Be brief."], temperature: 0.3, maxTokens: 99 },
        respond: { text: "Hello from interactions.", usage: { inputTokens: 7, outputTokens: 4 } },
      },
    ],
  },
  {
    name: "gi-stream",
    steps: [
      {
        match: { stream: true },
        respond: { reasoning: "Counting words.", text: "one two three four", usage: { inputTokens: 3, outputTokens: 9, reasoningTokens: 5 }, stream: { chunkWords: 2 } },
      },
    ],
  },
  {
    name: "gi-tools",
    steps: [
      { id: "ask", match: { turn: 1, tools: ["get_weather"] }, respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] } },
      { id: "answer", match: { turn: 2, toolResult: { name: "get_weather", content: { contains: "sunny" } } }, respond: { text: "Sunny in Paris." } },
    ],
  },
  {
    name: "gg-content",
    steps: [
      { id: "ask", match: { endpoint: "generateContent", turn: 1 }, respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }] } },
      { id: "answer", match: { endpoint: "generateContent", turn: 2, toolResult: { name: "get_weather" } }, respond: { text: "Cold in Oslo.", usage: { inputTokens: 20, outputTokens: 4 } } },
    ],
  },
  { name: "gi-rate", steps: [{ failures: [{ kind: "rate_limit", retryAfterMs: 10 }], respond: { text: "after the 429" } }] },
  {
    name: "gi-agent",
    steps: [
      { id: "research", consume: false, match: { model: "deep-research-pro-preview-12-2025" }, respond: { text: "The metre was defined in 1793.", usage: { inputTokens: 12, outputTokens: 6 } } },
    ],
  },
  { name: "gi-slow", async: { processingMs: 600_000 }, steps: [{ consume: false, respond: { text: "Done thinking." } }] },
  { name: "gi-cut", steps: [{ failures: [{ kind: "stream_error", afterChunks: 3 }], respond: { text: "alpha beta gamma delta", stream: { chunkWords: 1 } } }] },
];

function genai(scenario: string, session: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: `${h.url}/s/${scenario}/${session}`, retryOptions: { attempts: 3, initialDelay: 0.01 } } as never });
}

const google = (scenario: string, session: string) => createGoogleGenerativeAI({ apiKey: "k", baseURL: `${h.url}/s/${scenario}/${session}/v1beta` });

async function events(stream: AsyncIterable<unknown>): Promise<Record<string, any>[]> {
  const out: Record<string, any>[] = [];
  for await (const e of stream) out.push(e as Record<string, any>);
  return out;
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("@google/genai ai.interactions", () => {
  it("create: the output steps (a Gemini 3 thought signature, then the text), usage and the SDK's output_text", async () => {
    const res = await genai("gi-text", "s1").interactions.create({
      model: MODEL,
      input: "Hi",
      system_instruction: "Be brief.",
      generation_config: { temperature: 0.3, max_output_tokens: 99 },
    });
    expect(res.id).toMatch(/^v1_[0-9A-Za-z]{40}$/);
    expect(res).toMatchObject({ status: "completed", object: "interaction", model: MODEL });
    expect(res.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(res.steps).toEqual([
      { type: "thought", signature: expect.stringMatching(/^CkI[0-9A-Za-z]{89}$/) },
      { type: "model_output", content: [{ type: "text", text: "Hello from interactions." }] },
    ]);
    expect(res.output_text).toBe("Hello from interactions.");
    // `initial_input_tokens` is the SDK's own (it merges the usage of continued hops), not on the wire.
    expect(res.usage).toEqual({
      initial_input_tokens: 7,
      total_input_tokens: 7,
      total_output_tokens: 4,
      total_tokens: 11,
      input_tokens_by_modality: [{ modality: "text", tokens: 7 }],
      output_tokens_by_modality: [{ modality: "text", tokens: 4 }],
    });
    const [entry] = await h.journal("gi-text", "s1");
    expect(entry).toMatchObject({ provider: "gemini", endpoint: "interactions", stream: false, turn: 1, outcome: "response" });
  });

  it("stream: created, status, each step's start, deltas and stop, the final status, completed with usage, in that order", async () => {
    const got = await events(await genai("gi-stream", "s1").interactions.create({ model: MODEL, input: "Count", stream: true }));
    expect(got.map((e) => (e.event_type === "step.delta" ? `delta:${e.delta.type}` : e.event_type))).toEqual([
      "interaction.created",
      "interaction.status_update",
      "step.start",
      "delta:thought_summary",
      "delta:thought_signature",
      "step.stop",
      "step.start",
      "delta:text",
      "delta:text",
      "step.stop",
      "interaction.status_update",
      "interaction.completed",
    ]);
    expect(got[0]!.interaction).toEqual({ id: expect.stringMatching(/^v1_/), status: "in_progress", object: "interaction", model: MODEL });
    expect(got.filter((e) => e.delta?.type === "text").map((e) => e.delta.text)).toEqual(["one two", " three four"]);
    expect(got.filter((e) => e.delta?.type === "thought_summary").map((e) => e.delta.content.text)).toEqual(["Counting words."]);
    expect(got.at(-1)!.interaction).toMatchObject({ status: "completed", usage: { total_input_tokens: 3, total_output_tokens: 4, total_thought_tokens: 5, total_tokens: 12 } });
  });

  it("image output: response_modalities / response_format ask an image model for a PNG after the text (JSON and stream)", async () => {
    const ai = new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: h.url } });
    const res = await ai.interactions.create({ model: "gemini-2.5-flash-image", input: "Draw a red square", response_modalities: ["image"] } as never);
    const out = res.steps!.find((s) => s.type === "model_output") as { content: Record<string, string>[] };
    expect(out.content.map((b) => b.type)).toEqual(["image"]);
    const png = Buffer.from(out.content[0]!.data!, "base64");
    expect(out.content[0]!.mime_type).toBe("image/png");
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
    expect(res.usage?.output_tokens_by_modality).toEqual([{ modality: "image", tokens: 1290 }]);
    // response_format's image entry picks the ratio; text comes first when asked for too.
    const wide = await ai.interactions.create({
      model: "gemini-2.5-flash-image",
      input: "Draw",
      response_format: [{ type: "text" }, { type: "image", aspect_ratio: "16:9" }],
    } as never);
    const blocks = (wide.steps!.find((s) => s.type === "model_output") as { content: Record<string, string>[] }).content;
    expect(blocks.map((b) => b.type)).toEqual(["text", "image"]);
    const widePng = Buffer.from(blocks[1]!.data!, "base64");
    expect([widePng.readUInt32BE(16), widePng.readUInt32BE(20)]).toEqual([1344, 768]);
    const streamed = await events((await ai.interactions.create({ model: "gemini-2.5-flash-image", input: "Draw a red square", response_modalities: ["image"], stream: true } as never)) as never);
    const imageDeltas = streamed.filter((e) => e.delta?.type === "image");
    expect(imageDeltas).toHaveLength(1);
    expect(imageDeltas[0]!.delta).toEqual({ data: out.content[0]!.data, mime_type: "image/png", type: "image" });
  });

  it("speech output from a TTS model; modalities the model lacks are refused", async () => {
    const ai = new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: h.url } });
    const res = await ai.interactions.create({ model: "gemini-2.5-flash-preview-tts", input: "one two three four five", response_modalities: ["audio"] } as never);
    const block = (res.steps!.find((s) => s.type === "model_output") as { content: Record<string, string>[] }).content[0]!;
    expect(block.type).toBe("audio");
    expect(block.mime_type).toBe("audio/L16;codec=pcm;rate=24000");
    expect(Buffer.from(block.data!, "base64").length).toBe(2 * 24000 * 2); // five words at 2.5 a second: 2 s of 16-bit samples
    expect(res.usage?.output_tokens_by_modality).toEqual([{ modality: "audio", tokens: 64 }]);
    await expect(ai.interactions.create({ model: MODEL, input: "x", response_modalities: ["image"] } as never)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("Model does not support the requested response modalities: image"),
    });
    await expect(ai.interactions.create({ model: MODEL, input: "x", response_modalities: ["smell"] } as never)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("Invalid value at 'response_modalities[0]'"),
    });
  });

  it("a function call (requires_action), its result with previous_interaction_id, then get with the input step, delete and a 404", async () => {
    const ai = genai("gi-tools", "s1");
    const tools = [{ type: "function" as const, name: "get_weather", description: "weather", parameters: weatherParams }];
    const first = await ai.interactions.create({ model: MODEL, input: "Weather in Paris?", tools });
    expect(first.status).toBe("requires_action");
    const call = first.steps!.find((s) => s.type === "function_call") as { id: string; name: string; arguments: unknown };
    expect(call).toEqual({ type: "function_call", id: expect.stringMatching(/^[0-9A-Za-z]{8}$/), name: "get_weather", arguments: { city: "Paris" } });
    const second = await ai.interactions.create({
      model: MODEL,
      previous_interaction_id: first.id,
      input: [{ type: "function_result", call_id: call.id, name: "get_weather", result: "sunny, 24C" }],
      tools,
    });
    expect(second).toMatchObject({ status: "completed", previous_interaction_id: first.id, output_text: "Sunny in Paris." });
    expect((await h.journal("gi-tools", "s1")).map((e) => [e.step, e.turn])).toEqual([
      ["ask", 1],
      ["answer", 2],
    ]);

    const stored = await ai.interactions.get(second.id);
    expect(stored.steps!.map((s) => s.type)).toEqual(["function_result", "thought", "model_output"]);
    expect(stored.output_text).toBe("Sunny in Paris.");
    const raw = (query: string) => fetch(`${h.url}/v1beta/interactions/${second.id}?${query}`, { headers: { "x-goog-api-key": "k" } });
    expect(((await (await raw("include_input=false")).json()) as { steps: { type: string }[] }).steps.map((s) => s.type)).toEqual(["thought", "model_output"]);
    const replayed = await (await raw("stream=true")).text();
    expect([...replayed.matchAll(/^event: (.+)$/gm)].map((m) => m[1])).toEqual([
      "interaction.created",
      "interaction.status_update",
      "step.start",
      "step.delta",
      "step.stop",
      "step.start",
      "step.delta",
      "step.stop",
      "interaction.status_update",
      "interaction.completed",
      "done",
    ]);
    expect(replayed).toContain('"delta":{"text":"Sunny in Paris.","type":"text"}');
    await ai.interactions.delete(second.id);
    await expect(ai.interactions.get(second.id)).rejects.toMatchObject({ status: 404 });
    await expect(ai.interactions.create({ model: MODEL, previous_interaction_id: second.id, input: "again" })).rejects.toMatchObject({ status: 404 });
  });

  it("a 429 is retried by the SDK and the second attempt answers; model and agent together are refused with 400", async () => {
    const res = await genai("gi-rate", "s1").interactions.create({ model: MODEL, input: "Hi" });
    expect(res.output_text).toBe("after the 429");
    expect((await h.journal("gi-rate", "s1")).map((e) => [e.outcome, e.status])).toEqual([
      ["failure", 429],
      ["response", 200],
    ]);
    await expect(genai("gi-rate", "s2").interactions.create({ model: MODEL, agent: "deep-research-pro-preview-12-2025", input: "Hi" } as never)).rejects.toMatchObject({
      status: 400,
      error: { error: { code: 400, message: "Only one of 'model' or 'agent' may be set.", status: "INVALID_ARGUMENT" } },
    });
  });

  it("background: answered in_progress with no steps, done when polled after async.processingMs; an agent scripted by its name", async () => {
    const ai = genai("gi-agent", "s1");
    const created = await ai.interactions.create({ agent: AGENT, input: "Research the history of the metre.", background: true } as never);
    expect([created.status, created.agent, created.model, created.steps, created.usage]).toEqual(["in_progress", AGENT, undefined, [], undefined]);
    const done = await ai.interactions.get(created.id);
    expect([done.status, done.agent, done.output_text]).toEqual(["completed", AGENT, "The metre was defined in 1793."]);
    expect(done.steps!.map((s) => s.type)).toEqual(["user_input", "model_output"]);
    expect(done.usage).toMatchObject({ total_input_tokens: 12, total_output_tokens: 6 });
    const [entry] = await h.journal("gi-agent", "s1");
    expect([entry!.endpoint, entry!.step, entry!.canonical.model]).toEqual(["interactions", "research", AGENT]);
  });

  it("background: in progress until async.processingMs, GET streams where it stands, cancel ends it for good; a finished one refuses cancel", async () => {
    const ai = genai("gi-slow", "s1");
    const created = await ai.interactions.create({ model: MODEL, input: "Think long.", background: true } as never);
    const polled = await ai.interactions.get(created.id);
    expect([polled.status, polled.steps!.map((s) => s.type), polled.usage]).toEqual(["in_progress", ["user_input"], undefined]);
    const stream = await fetch(`${h.url}/v1beta/interactions/${created.id}?stream=true`, { headers: { "x-goog-api-key": "k" } }).then((r) => r.text());
    expect([...stream.matchAll(/^event: (.+)$/gm)].map((m) => m[1])).toEqual(["interaction.created", "interaction.status_update", "done"]);
    expect(stream).toContain('"status":"in_progress"');
    const cancelled = await ai.interactions.cancel(created.id);
    expect([cancelled.id, cancelled.status, cancelled.steps]).toEqual([created.id, "cancelled", []]);
    expect((await ai.interactions.get(created.id)).status).toBe("cancelled");
    await expect(ai.interactions.cancel(created.id)).rejects.toMatchObject({ status: 400 });
    // A foreground interaction is finished when answered: nothing to cancel.
    const foreground = await genai("gi-agent", "s2").interactions.create({ agent: AGENT, input: "Research the metre." } as never);
    expect(foreground.status).toBe("completed");
    await expect(genai("gi-agent", "s2").interactions.cancel(foreground.id)).rejects.toMatchObject({ status: 400 });
    // Deleted with its run.
    await ai.interactions.delete(created.id);
    await expect(ai.interactions.get(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it("a stream_error ends the stream with an error event after the events sent", async () => {
    const got = await events(await genai("gi-cut", "s1").interactions.create({ model: MODEL, input: "Go", stream: true }));
    expect(got.map((e) => e.event_type)).toEqual(["interaction.created", "interaction.status_update", "step.start", "error"]);
    expect(got.at(-1)!.error).toEqual({ code: "UNAVAILABLE", message: "The model is overloaded. Please try again later." });
  });

  it("without a script, a JSON schema in response_format gets JSON that fits it", async () => {
    const ai = new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: h.url } });
    const schema = { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city", "days"], additionalProperties: false };
    const res = await ai.interactions.create({ model: MODEL, input: "Plan a trip", response_format: { type: "text", mime_type: "application/json", schema } } as never);
    const value = JSON.parse(res.output_text!);
    expect(Object.keys(value).sort()).toEqual(["city", "days"]);
    expect(typeof value.city).toBe("string");
    expect(Number.isInteger(value.days)).toBe(true);
  });
});

describe("@ai-sdk/google google.interactions()", () => {
  const weather = tool({ description: "weather", inputSchema: jsonSchema<{ city: string }>(weatherParams as never), execute: async ({ city }) => `sunny in ${city}` });

  it("generateText runs the tool loop: the call, the result sent back, the answer; usage and finish reasons", async () => {
    const res = await generateText({ model: google("gi-tools", "ai1").interactions(MODEL), prompt: "Weather in Paris?", tools: { get_weather: weather }, stopWhen: stepCountIs(3), maxRetries: 0 });
    expect(res.text).toBe("Sunny in Paris.");
    expect(res.steps.map((s) => s.finishReason)).toEqual(["tool-calls", "stop"]);
    expect(res.steps[0]!.toolCalls).toMatchObject([{ toolName: "get_weather", input: { city: "Paris" } }]);
    expect((await h.journal("gi-tools", "ai1")).map((e) => e.step)).toEqual(["ask", "answer"]);
  });

  it("streamText: reasoning and text with no error parts; usage counts thinking as output", async () => {
    const res = streamText({ model: google("gi-stream", "ai1").interactions(MODEL), prompt: "Count", maxRetries: 0 });
    for await (const part of res.fullStream) if (part.type === "error") throw part.error;
    expect(await res.text).toBe("one two three four");
    expect(await res.reasoningText).toBe("Counting words.");
    expect(await res.finishReason).toBe("stop");
    expect(await res.usage).toMatchObject({ inputTokens: 3, outputTokens: 9 });
  });

  it("google(model) on generateContent: the same tool loop, through the surface beside it", async () => {
    const res = await generateText({ model: google("gg-content", "ai1")(MODEL), prompt: "Weather in Oslo?", tools: { get_weather: weather }, stopWhen: stepCountIs(3), maxRetries: 0 });
    expect(res.text).toBe("Cold in Oslo.");
    expect(res.steps.map((s) => s.finishReason)).toEqual(["tool-calls", "stop"]);
    expect(res.steps[1]!.usage).toMatchObject({ inputTokens: 20, outputTokens: 4 });
    expect((await h.journal("gg-content", "ai1")).map((e) => [e.endpoint, e.step])).toEqual([
      ["generateContent", "ask"],
      ["generateContent", "answer"],
    ]);
  });

  it.each(["interactions", "generateContent"])("Output.object without a script (%s): the default responder fills the schema", async (surface) => {
    const provider = createGoogleGenerativeAI({ apiKey: "k", baseURL: `${h.url}/v1beta` });
    const res = await generateText({
      model: surface === "interactions" ? provider.interactions(MODEL) : provider(MODEL),
      prompt: "A city",
      output: Output.object({
        schema: jsonSchema<{ name: string; population: number }>({
          type: "object",
          properties: { name: { type: "string" }, population: { type: "integer" } },
          required: ["name", "population"],
          additionalProperties: false,
        }),
      }),
      maxRetries: 0,
    });
    expect(typeof res.output.name).toBe("string");
    expect(Number.isInteger(res.output.population)).toBe(true);
  });
});
