/**
 * Cohere's v1 Chat through the official `cohere-ai` client (`CohereClient.chat` and `chatStream`, what LangChain's
 * `ChatCohere` calls): a scripted text and its `chat_history`, a tool call and its result sent back, the stream's
 * lines, citations of `documents`, JSON output, and a failure mid-stream.
 */
import { Cohere, CohereClient } from "cohere-ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const client = (prefix = "") => new CohereClient({ token: "co-test", environment: `${h.url}${prefix}`, maxRetries: 0 });

const weather: Cohere.Tool = { name: "get_weather", description: "Current weather", parameterDefinitions: { city: { type: "str", description: "City", required: true } } };

const SCENARIOS = [
  {
    name: "v1-text",
    steps: [
      { match: { provider: "cohere", endpoint: "chat" }, consume: false, respond: { text: "Paris is the capital of France.", usage: { inputTokens: 9, outputTokens: 7 }, stream: { chunkWords: 2 } } },
    ],
  },
  {
    name: "v1-tools",
    steps: [
      { id: "ask", match: { turn: 1, tools: ["get_weather"] }, respond: { text: "I will check the weather.", toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] } },
      { id: "answer", match: { toolResult: { name: "get_weather", content: { contains: "sunny" } } }, respond: { text: "It is sunny in Paris." } },
    ],
  },
  { name: "v1-broken", steps: [{ failures: [{ kind: "stream_error", afterChunks: 2, message: "generation failed" }], respond: { text: "a b c d", stream: { chunkWords: 1 } } }] },
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

async function lines(stream: AsyncIterable<Cohere.StreamedChatResponse>): Promise<Cohere.StreamedChatResponse[]> {
  const out: Cohere.StreamedChatResponse[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

describe("cohere-ai CohereClient.chat (v1)", () => {
  it("a scripted text: the answer, its chat_history with this turn appended, meta; the stream's lines", async () => {
    const co = client("/s/v1-text/run-1");
    const req = {
      message: "Capital of France?",
      preamble: "Be brief.",
      chatHistory: [
        { role: "USER" as const, message: "Hi" },
        { role: "CHATBOT" as const, message: "Hello!" },
      ],
    };
    const res = await co.chat(req);
    expect(res.text).toBe("Paris is the capital of France.");
    expect(res.generationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.responseId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.finishReason).toBe("COMPLETE");
    expect(res.chatHistory).toEqual([
      { role: "USER", message: "Hi" },
      { role: "CHATBOT", message: "Hello!" },
      { role: "USER", message: "Capital of France?" },
      { role: "CHATBOT", message: "Paris is the capital of France." },
    ]);
    expect(res.meta).toEqual({ apiVersion: { version: "1" }, billedUnits: { inputTokens: 9, outputTokens: 7 }, tokens: { inputTokens: 9, outputTokens: 7 } });

    const raw = await fetch(`${h.url}/s/v1-text/run-1/v1/chat`, {
      method: "POST",
      headers: { authorization: "Bearer co-test", "content-type": "application/json" },
      body: JSON.stringify({ message: "Capital of France?", stream: true }),
    });
    expect(raw.headers.get("content-type")).toBe("application/stream+json");
    const text = await raw.text();
    const first = text.split("\n")[0]!;
    expect(first).toMatch(/^\{"is_finished":false,"event_type":"stream-start","generation_id":"[0-9a-f-]{36}"\}$/);
    expect(text.split("\n")[1]).toBe('{"is_finished":false,"event_type":"text-generation","text":"Paris is"}');

    const events = await lines(await co.chatStream(req));
    expect(events.map((e) => e.eventType)).toEqual(["stream-start", "text-generation", "text-generation", "text-generation", "stream-end"]);
    expect(events.flatMap((e) => (e.eventType === "text-generation" ? [e.text] : [])).join("")).toBe("Paris is the capital of France.");
    const end = events.at(-1) as Cohere.StreamedChatResponse.StreamEnd;
    expect(end.finishReason).toBe("COMPLETE");
    expect(end.response.text).toBe("Paris is the capital of France.");
    expect(end.response.generationId).toBe((events[0] as Cohere.StreamedChatResponse.StreamStart).generationId);
  });

  it("a tool call (its plan as the text, parameters an object) and its result sent back as tool_results", async () => {
    const co = client("/s/v1-tools/run-1");
    const first = await co.chat({ message: "Weather in Paris?", tools: [weather] });
    expect(first.text).toBe("I will check the weather.");
    expect(first.toolCalls).toEqual([{ name: "get_weather", parameters: { city: "Paris" } }]);
    expect(first.finishReason).toBe("COMPLETE");
    const second = await co.chat({
      message: "",
      tools: [weather],
      chatHistory: first.chatHistory,
      toolResults: [{ call: first.toolCalls![0]!, outputs: [{ forecast: "sunny", celsius: 24 }] }],
    });
    expect(second.text).toBe("It is sunny in Paris.");
    const journal = await h.journal("v1-tools", "run-1");
    expect(journal.map((e) => [e.endpoint, e.step, e.status])).toEqual([
      ["chat", "ask", 200],
      ["chat", "answer", 200],
    ]);
    expect(journal[1]!.canonical.toolResults).toEqual([{ name: "get_weather", toolCallId: "get_weather_1_0", content: '[{"forecast":"sunny","celsius":24}]' }]);
  });

  it("a tool call streamed: the plan's chunks, the call's name and parameters in chunks, tool-calls-generation", async () => {
    const events = await lines(await client("/s/v1-tools/run-2").chatStream({ message: "Weather in Paris?", tools: [weather] }));
    const types = events.map((e) => e.eventType);
    expect(types[0]).toBe("stream-start");
    expect(types.slice(-2)).toEqual(["tool-calls-generation", "stream-end"]);
    const chunks = events.filter((e) => e.eventType === "tool-calls-chunk") as Cohere.StreamedChatResponse.ToolCallsChunk[];
    expect(chunks.flatMap((c) => (c.text !== undefined ? [c.text] : [])).join("")).toBe("I will check the weather.");
    expect(chunks.find((c) => c.toolCallDelta?.name !== undefined)?.toolCallDelta).toEqual({ index: 0, name: "get_weather" });
    expect(chunks.flatMap((c) => (c.toolCallDelta?.parameters !== undefined ? [c.toolCallDelta.parameters] : [])).join("")).toBe('{"city":"Paris"}');
    const generation = events.at(-2) as Cohere.StreamedChatResponse.ToolCallsGeneration;
    expect(generation.toolCalls).toEqual([{ name: "get_weather", parameters: { city: "Paris" } }]);
    expect(generation.text).toBe("I will check the weather.");
  });

  it("documents: citations with document_ids, the cited documents; JSON output from the default responder", async () => {
    const co = client("/s/v1-text/run-rag");
    const res = await co.chat({
      message: "Capital?",
      documents: [
        { title: "france.txt", snippet: "Paris is the capital of France." },
        { title: "spain.txt", snippet: "Madrid is in Spain." },
      ],
    });
    expect(res.citations).toEqual([{ start: 0, end: 31, text: "Paris is the capital of France.", documentIds: ["doc_0"] }]);
    expect(res.documents).toEqual([{ id: "doc_0", title: "france.txt", snippet: "Paris is the capital of France." }]);
    const json = await client().chat({ message: "A person.", responseFormat: { type: "json_object", schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } } });
    expect(typeof JSON.parse(json.text).name).toBe("string");
  });

  it("a failure mid-stream ends with stream-end ERROR; an empty message without tool results, or one beside them, is Cohere's 400", async () => {
    const events = await lines(await client("/s/v1-broken/run-1").chatStream({ message: "go" }));
    expect(events.map((e) => e.eventType)).toEqual(["stream-start", "text-generation", "stream-end"]);
    expect((events.at(-1) as Cohere.StreamedChatResponse.StreamEnd).finishReason).toBe("ERROR");
    const err = await client()
      .chat({ message: "" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Cohere.BadRequestError);
    expect((err as Cohere.BadRequestError).body).toEqual({ message: "invalid request: message must be at least 1 token long or tool results must be specified." });
    const both = await client()
      .chat({ message: "and now?", toolResults: [{ call: { name: "get_weather", parameters: { city: "Paris" } }, outputs: [{ forecast: "sunny" }] }] })
      .catch((e: unknown) => e);
    expect((both as Cohere.BadRequestError).body).toEqual({ message: "invalid request: cannot specify both message and tool_results in multistep mode" });
  });
});
