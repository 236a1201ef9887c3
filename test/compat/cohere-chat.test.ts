/**
 * Cohere Chat v2 through the official `cohere-ai` client (`CohereClientV2.chat` and `chatStream`, pointed at the mock
 * with `environment`): the default responder, scripted text, tool calls and their results, structured output, thinking,
 * stop sequences and the token limit, a 429 and a refused body as the client's errors, a failure mid-stream, and the
 * journal's tool-call ids against the wire's.
 */
import { Cohere, CohereClient, CohereClientV2, type CohereError } from "cohere-ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const client = (prefix = "") => new CohereClientV2({ token: "co-test", environment: `${h.url}${prefix}`, maxRetries: 0 });
const MODEL = "command-a-03-2025";

const weatherTool: Cohere.ToolV2 = {
  type: "function",
  function: { name: "get_weather", description: "Current weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};

const SCENARIOS = [
  {
    name: "co-text",
    steps: [
      { match: { provider: "cohere", endpoint: "chat" }, consume: false, respond: { text: "Paris is the capital of France.", usage: { inputTokens: 12, outputTokens: 7 }, stream: { chunkWords: 2 } } },
    ],
  },
  {
    name: "co-tools",
    steps: [
      {
        id: "ask",
        match: { turn: 1, tools: ["get_weather"] },
        respond: { text: "I will look up the weather in Paris.", toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] },
      },
      { id: "answer", match: { toolResult: { name: "get_weather", content: { contains: "sunny" } } }, respond: { text: "It is sunny in Paris." } },
    ],
  },
  {
    name: "co-think",
    steps: [{ expect: { reasoning: "enabled", maxTokens: 64 }, consume: false, respond: { reasoning: "Two plus two is four.", text: "4", stream: { chunkWords: 3 } } }],
  },
  { name: "co-length", steps: [{ consume: false, respond: { text: "one two three four five six seven eight" } }] },
  { name: "co-blocked", steps: [{ failures: [{ kind: "content_filter", on: "prompt", message: "I can't help with that." }], respond: { text: "never sent" } }] },
  { name: "co-filtered", steps: [{ failures: [{ kind: "content_filter", on: "completion", afterChunks: 2 }], respond: { text: "one two three four", stream: { chunkWords: 1 } } }] },
  {
    name: "co-rag",
    steps: [{ consume: false, respond: { text: "The Eiffel Tower is 330 metres tall. It was finished in 1889.", stream: { chunkWords: 4 } } }],
  },
  {
    name: "co-models",
    steps: [
      { match: { model: "command-a-03-2025" }, respond: { text: "x", model: "command-a-03-2025" } },
      { match: { model: "embed-v4.0" }, respond: { embeddings: [[1]], model: "embed-v4.0" } },
    ],
  },
  { name: "co-rate", steps: [{ failures: [{ kind: "rate_limit", retryAfterMs: 1000 }], respond: { text: "ok" } }] },
  {
    name: "co-stream-error",
    steps: [{ failures: [{ kind: "stream_error", afterChunks: 3, message: "generation failed" }], respond: { text: "a b c d e f", stream: { chunkWords: 1 } } }],
  },
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

async function events(stream: AsyncIterable<Cohere.V2ChatStreamResponse>): Promise<Cohere.V2ChatStreamResponse[]> {
  const out: Cohere.V2ChatStreamResponse[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

describe("cohere-ai CohereClientV2.chat", () => {
  it("the default responder answers a text turn in Cohere's shape", async () => {
    const res = await client().chat({
      model: MODEL,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hello there" },
      ],
    });
    expect(res.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.finishReason).toBe("COMPLETE");
    expect(res.message.role).toBe("assistant");
    expect(res.message.content).toHaveLength(1);
    const item = res.message.content![0]!;
    expect(item.type).toBe("text");
    expect((item as Cohere.AssistantMessageResponseContentItem.Text).text.length).toBeGreaterThan(0);
    expect(res.message.toolCalls).toBeUndefined();
    expect(res.usage?.billedUnits?.inputTokens).toBeGreaterThan(0);
    expect(res.usage?.tokens).toEqual({ inputTokens: res.usage?.billedUnits?.inputTokens, outputTokens: res.usage?.billedUnits?.outputTokens });
  });

  it("a scripted text: JSON, and the stream's events in Cohere's order ending with [DONE]", async () => {
    const co = client("/s/co-text/run-1");
    const res = await co.chat({ model: MODEL, messages: [{ role: "user", content: [{ type: "text", text: "Capital of France?" }] }] });
    expect(res.message.content).toEqual([{ type: "text", text: "Paris is the capital of France." }]);
    expect(res.usage).toEqual({ billedUnits: { inputTokens: 12, outputTokens: 7 }, tokens: { inputTokens: 12, outputTokens: 7 } });

    const raw = await fetch(`${h.url}/s/co-text/run-1/v2/chat`, {
      method: "POST",
      headers: { authorization: "Bearer co-test", "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: "user", content: "Capital of France?" }] }),
    });
    expect(raw.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const text = await raw.text();
    const frames = text.trimEnd().split("\n\n");
    expect(frames[0]).toMatch(
      /^event: message-start\ndata: \{"id":"[0-9a-f-]{36}","type":"message-start","delta":\{"message":\{"role":"assistant","content":\[\],"tool_plan":"","tool_calls":\[\],"citations":\[\]\}\}\}$/,
    );
    expect(frames[1]).toBe('event: content-start\ndata: {"type":"content-start","index":0,"delta":{"message":{"content":{"type":"text","text":""}}}}');
    expect(frames[2]).toBe('event: content-delta\ndata: {"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"Paris is"}}}}');
    expect(frames.at(-3)).toBe('event: content-end\ndata: {"type":"content-end","index":0}');
    expect(frames.at(-2)).toBe(
      'event: message-end\ndata: {"type":"message-end","delta":{"finish_reason":"COMPLETE","usage":{"billed_units":{"input_tokens":12,"output_tokens":7},"tokens":{"input_tokens":12,"output_tokens":7}}}}',
    );
    expect(frames.at(-1)).toBe("data: [DONE]");

    const stream = await events(await co.chatStream({ model: MODEL, messages: [{ role: "user", content: "Capital of France?" }] }));
    expect(stream.map((e) => e.type)).toEqual(["message-start", "content-start", "content-delta", "content-delta", "content-delta", "content-end", "message-end"]);
    const deltas = stream.flatMap((e) => (e.type === "content-delta" ? [e.delta?.message?.content?.text ?? ""] : []));
    expect(deltas).toEqual(["Paris is", " the capital", " of France."]);
    const end = stream.at(-1) as Cohere.V2ChatStreamResponse.MessageEnd;
    expect(end.delta?.finishReason).toBe("COMPLETE");
  });

  it("a tool call (JSON) and its result: tool_plan, Cohere's ids, TOOL_CALL; the journal holds the wire's id", async () => {
    const co = client("/s/co-tools/run-1");
    const ask: Cohere.ChatMessageV2[] = [{ role: "user", content: "Weather in Paris?" }];
    const first = await co.chat({ model: MODEL, messages: ask, tools: [weatherTool] });
    expect(first.finishReason).toBe("TOOL_CALL");
    expect(first.message.content).toBeUndefined();
    expect(first.message.toolPlan).toBe("I will look up the weather in Paris.");
    expect(first.message.toolCalls).toHaveLength(1);
    const call = first.message.toolCalls![0]!;
    expect(call.id).toMatch(/^get_weather_[a-z0-9]{12}$/);
    expect(call.type).toBe("function");
    expect(call.function).toEqual({ name: "get_weather", arguments: '{"city":"Paris"}' });

    const second = await co.chat({
      model: MODEL,
      tools: [weatherTool],
      messages: [
        ...ask,
        { role: "assistant", toolPlan: first.message.toolPlan, toolCalls: first.message.toolCalls },
        { role: "tool", toolCallId: call.id, content: [{ type: "document", document: { data: { forecast: "sunny", celsius: 24 } } }] },
      ],
    });
    expect(second.finishReason).toBe("COMPLETE");
    expect(second.message.content).toEqual([{ type: "text", text: "It is sunny in Paris." }]);
    const journal = await h.journal("co-tools", "run-1");
    expect(journal.map((e) => [e.provider, e.endpoint, e.step, e.outcome, e.status])).toEqual([
      ["cohere", "chat", "ask", "response", 200],
      ["cohere", "chat", "answer", "response", 200],
    ]);
    expect(journal[0]!.canonical.answered.toolCalls).toEqual([{ id: call.id, name: "get_weather", arguments: '{"city":"Paris"}' }]);
    expect(journal[1]!.canonical.toolResults).toEqual([{ name: "get_weather", toolCallId: call.id, content: '{"data":{"forecast":"sunny","celsius":24}}' }]);
  });

  it("a tool call streamed: tool-plan-delta, then tool-call-start/delta/end with the arguments in fragments", async () => {
    const stream = await events(await client("/s/co-tools/run-2").chatStream({ model: MODEL, messages: [{ role: "user", content: "Weather in Paris?" }], tools: [weatherTool] }));
    const types = stream.map((e) => e.type);
    expect(types[0]).toBe("message-start");
    expect(types.slice(1, types.indexOf("tool-call-start")).every((t) => t === "tool-plan-delta")).toBe(true);
    const plan = stream.flatMap((e) => (e.type === "tool-plan-delta" ? [e.delta?.message?.toolPlan ?? ""] : [])).join("");
    expect(plan).toBe("I will look up the weather in Paris.");
    const start = stream.find((e) => e.type === "tool-call-start") as Cohere.V2ChatStreamResponse.ToolCallStart;
    expect(start.index).toBe(0);
    expect(start.delta?.message?.toolCalls?.id).toMatch(/^get_weather_[a-z0-9]{12}$/);
    expect(start.delta?.message?.toolCalls?.function).toEqual({ name: "get_weather", arguments: "" });
    const args = stream.flatMap((e) => (e.type === "tool-call-delta" ? [e.delta?.message?.toolCalls?.function?.arguments ?? ""] : [])).join("");
    expect(args).toBe('{"city":"Paris"}');
    expect(types.slice(-2)).toEqual(["tool-call-end", "message-end"]);
    expect((stream.at(-1) as Cohere.V2ChatStreamResponse.MessageEnd).delta?.finishReason).toBe("TOOL_CALL");
  });

  it("structured output: response_format json_object with a schema gets JSON that fits it from the default responder", async () => {
    const res = await client().chat({
      model: MODEL,
      messages: [{ role: "user", content: "Extract the invoice." }],
      responseFormat: {
        type: "json_object",
        jsonSchema: { type: "object", properties: { total: { type: "number" }, currency: { type: "string" } }, required: ["total", "currency"] },
      },
    });
    const text = (res.message.content![0] as Cohere.AssistantMessageResponseContentItem.Text).text;
    const value = JSON.parse(text);
    expect(Object.keys(value).sort()).toEqual(["currency", "total"]);
    expect(typeof value.total).toBe("number");
    expect(typeof value.currency).toBe("string");
  });

  it("tool_choice REQUIRED: the default responder calls the tool with arguments that fit its schema", async () => {
    const res = await client().chat({ model: MODEL, messages: [{ role: "user", content: "Weather in Paris?" }], tools: [weatherTool], toolChoice: "REQUIRED" });
    expect(res.finishReason).toBe("TOOL_CALL");
    expect(res.message.toolCalls).toHaveLength(1);
    expect(res.message.toolCalls![0]!.function?.name).toBe("get_weather");
    expect(typeof JSON.parse(res.message.toolCalls![0]!.function!.arguments!).city).toBe("string");
  });

  it("thinking: a thinking item before the text, in JSON and streamed", async () => {
    const co = client("/s/co-think/run-1");
    const req = { model: "command-a-reasoning-08-2025", messages: [{ role: "user" as const, content: "2+2?" }], thinking: { type: "enabled" as const }, maxTokens: 64 };
    const res = await co.chat(req);
    expect(res.message.content).toEqual([
      { type: "thinking", thinking: "Two plus two is four." },
      { type: "text", text: "4" },
    ]);
    const stream = await events(await co.chatStream(req));
    expect(stream.map((e) => [e.type, (e as { index?: number }).index])).toEqual([
      ["message-start", undefined],
      ["content-start", 0],
      ["content-delta", 0],
      ["content-delta", 0],
      ["content-end", 0],
      ["content-start", 1],
      ["content-delta", 1],
      ["content-end", 1],
      ["message-end", undefined],
    ]);
    expect((stream[1] as Cohere.V2ChatStreamResponse.ContentStart).delta?.message?.content).toEqual({ type: "thinking", thinking: "" });
    expect((stream[2] as Cohere.V2ChatStreamResponse.ContentDelta).delta?.message?.content?.thinking).toBe("Two plus two");
  });

  it("max_tokens cuts the text (MAX_TOKENS); a stop sequence ends it (STOP_SEQUENCE)", async () => {
    const co = client("/s/co-length/run-1");
    const cut = await co.chat({ model: MODEL, messages: [{ role: "user", content: "Count." }], maxTokens: 3 });
    expect(cut.finishReason).toBe("MAX_TOKENS");
    expect(cut.message.content).toEqual([{ type: "text", text: "one two three" }]);
    const stopped = await co.chat({ model: MODEL, messages: [{ role: "user", content: "Count." }], stopSequences: [" five"] });
    expect(stopped.finishReason).toBe("STOP_SEQUENCE");
    expect(stopped.message.content).toEqual([{ type: "text", text: "one two three four" }]);
  });

  it("content_filter: on the prompt a refusal as the text; on the completion the text cut and ERROR", async () => {
    const blocked = await client("/s/co-blocked/run-1").chat({ model: MODEL, messages: [{ role: "user", content: "something bad" }] });
    expect(blocked.finishReason).toBe("COMPLETE");
    expect(blocked.message.content).toEqual([{ type: "text", text: "I can't help with that." }]);
    const cut = await client("/s/co-filtered/run-1").chat({ model: MODEL, messages: [{ role: "user", content: "count" }] });
    expect(cut.finishReason).toBe("ERROR");
    expect(cut.message.content).toEqual([{ type: "text", text: "one two" }]);
  });

  it("documents (RAG): each sentence that quotes a document cites it, in JSON and as citation events", async () => {
    const co = client("/s/co-rag/run-1");
    const documents = [
      { id: "tower", data: { title: "tower.txt", text: "The Eiffel Tower is 330 metres tall and stands in Paris." } },
      { data: { title: "history.txt", text: "Construction was finished in 1889 for the World's Fair." } },
    ];
    const req = { model: MODEL, messages: [{ role: "user" as const, content: "Tell me about the Eiffel Tower." }], documents };
    const res = await co.chat(req);
    const tower = { type: "document", id: "tower", document: { id: "tower", title: "tower.txt", text: documents[0]!.data.text } };
    const history = { type: "document", id: "doc:1", document: { id: "doc:1", title: "history.txt", text: documents[1]!.data.text } };
    expect(res.message.citations).toEqual([
      { start: 0, end: 36, text: "The Eiffel Tower is 330 metres tall.", sources: [tower], type: "TEXT_CONTENT" },
      { start: 37, end: 61, text: "It was finished in 1889.", sources: [history], type: "TEXT_CONTENT" },
    ]);
    const stream = await events(await co.chatStream(req));
    expect(stream.map((e) => e.type).slice(-6)).toEqual(["content-end", "citation-start", "citation-end", "citation-start", "citation-end", "message-end"]);
    const starts = stream.filter((e) => e.type === "citation-start") as Cohere.V2ChatStreamResponse.CitationStart[];
    expect(starts.map((e) => e.delta?.message?.citations)).toEqual(res.message.citations);
    const off = await co.chat({ ...req, citationOptions: { mode: "OFF" } });
    expect(off.message.citations).toBeUndefined();
  });

  it("models.list and models.get answer Cohere's SDK in Cohere's shape; the same path without it stays OpenAI's", async () => {
    const co = new CohereClient({ token: "co-test", environment: h.url, maxRetries: 0 });
    const all = await co.models.list();
    const names = all.models.map((m) => m.name);
    expect(names).toContain("command-a-03-2025");
    expect(names).toContain("embed-v4.0");
    expect(all.models.find((m) => m.name === "embed-v4.0")).toMatchObject({ endpoints: ["embed"], finetuned: false, contextLength: 512 });
    const embed = await co.models.list({ endpoint: "embed" });
    expect(embed.models.map((m) => m.name)).toEqual(["embed-v4.0"]);
    const first = await co.models.list({ pageSize: 1 });
    expect(first.models).toHaveLength(1);
    expect(first.nextPageToken).toBe("1");
    const one = await co.models.get("command-a-03-2025");
    expect(one).toMatchObject({ name: "command-a-03-2025", endpoints: ["chat"], contextLength: 256000 });
    const openai = (await (await fetch(`${h.url}/v1/models`, { headers: { authorization: "Bearer sk-test" } })).json()) as { object: string };
    expect(openai.object).toBe("list");
  });

  it("a scripted 429 is TooManyRequestsError with Cohere's message and Retry-After", async () => {
    const co = client("/s/co-rate/run-1");
    const err = await co.chat({ model: MODEL, messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Cohere.TooManyRequestsError);
    expect((err as CohereError).body).toEqual({ message: "You are past the per minute request limit, please wait and try again later." });
    expect((err as CohereError).rawResponse?.headers.get("retry-after")).toBe("1");
    const ok = await co.chat({ model: MODEL, messages: [{ role: "user", content: "hi" }] });
    expect(ok.message.content).toEqual([{ type: "text", text: "ok" }]);
  });

  it("a refused body is BadRequestError in Cohere's words, and nothing is journaled", async () => {
    const co = client("/s/co-text/run-bad");
    const tooMany = await co.chat({ model: MODEL, messages: [{ role: "user", content: "hi" }], stopSequences: ["a", "b", "c", "d", "e", "f"] }).catch((e: unknown) => e);
    expect(tooMany).toBeInstanceOf(Cohere.BadRequestError);
    expect((tooMany as CohereError).body).toEqual({ message: "invalid request: stop_sequences must contain at most 5 strings" });
    const noTools = await co.chat({ model: MODEL, messages: [{ role: "user", content: "hi" }], toolChoice: "REQUIRED" }).catch((e: unknown) => e);
    expect((noTools as CohereError).body).toEqual({ message: "invalid request: tool_choice REQUIRED requires tools to be specified" });
    const empty = await co.chat({ model: MODEL, messages: [] }).catch((e: unknown) => e);
    expect((empty as CohereError).body).toEqual({ message: "invalid request: messages must not be empty" });
    const p = await co.chat({ model: MODEL, messages: [{ role: "user", content: "hi" }], p: 1.5 }).catch((e: unknown) => e);
    expect((p as CohereError).body).toEqual({ message: "invalid request: p must be between 0 and 1" });
    expect(await h.journal("co-text", "run-bad")).toEqual({
      error: { code: "session_not_run", message: 'session "run-bad" of scenario "co-text" has not run: no request reached /s/co-text/run-bad' },
    });
  });

  it("a failure mid-stream ends with message-end ERROR and the error's text", async () => {
    const stream = await events(await client("/s/co-stream-error/run-1").chatStream({ model: MODEL, messages: [{ role: "user", content: "go" }] }));
    expect(stream.map((e) => e.type)).toEqual(["message-start", "content-start", "content-delta", "message-end"]);
    const end = stream.at(-1) as Cohere.V2ChatStreamResponse.MessageEnd;
    expect(end.delta).toEqual({ finishReason: "ERROR", error: "generation failed" });
  });
});
