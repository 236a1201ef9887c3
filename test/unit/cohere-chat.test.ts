/**
 * Cohere Chat v2's pure parts: the canonical request a `/v2/chat` body becomes (content forms, tool plans, tool
 * results, structured output, tool choice, thinking), the bounds refused, the answer's JSON and events, and a recorded
 * answer decoded for editing.
 */
import { describe, expect, it } from "vitest";
import type { Reply } from "../../src/canonical/outcome";
import { cohereCitations, cohereDocuments } from "../../src/providers/cohere/chat-citations";
import { parseCohereChat } from "../../src/providers/cohere/chat-parse";
import { multistepError, parseCohereChatV1 } from "../../src/providers/cohere/chat-v1-parse";
import { renderCohereChatV1Events, renderCohereChatV1Json } from "../../src/providers/cohere/chat-v1-render";
import { cohereFinishReason, cohereToolCallId, cohereToolCallIds, renderCohereChatEvents, renderCohereChatJson, renderCohereChatStreamError } from "../../src/providers/cohere/chat-render";
import type { CohereChatRequest } from "../../src/providers/cohere/chat-wire";
import type { RenderContext } from "../../src/providers/types";
import { decodeFrames } from "../../src/record/decode";

const headers = new Headers({ authorization: "Bearer co-test" });

function parsed(body: Record<string, unknown>) {
  const result = parseCohereChat({ model: "command-a-03-2025", ...body }, headers);
  if (!result.ok) throw new Error(result.error.message);
  return result;
}

function refused(body: Record<string, unknown>): string {
  const result = parseCohereChat({ model: "command-a-03-2025", messages: [{ role: "user", content: "hi" }], ...body }, headers);
  if (result.ok) throw new Error("accepted");
  expect(result.error.code).toBe("invalid_request");
  return result.error.message;
}

function reply(over: Partial<Reply> = {}): Reply {
  return {
    text: "lorem ipsum dolor",
    reasoning: [],
    reasoningField: "reasoning",
    toolCalls: [],
    finishReason: "stop",
    usage: { inputTokens: 3, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    model: "command-a-03-2025",
    latencyMs: 0,
    pacing: { ttftMs: 0, tokensPerSecond: 0, chunkDelayMs: 0, chunkWords: 1, jitterMs: 0, seed: 0 },
    headers: {},
    idSeed: "co/run/1",
    ...over,
  };
}

const ctx = (body: Record<string, unknown> = {}): RenderContext<CohereChatRequest> => {
  const { wire, request } = parsed({ messages: [{ role: "user", content: "hi" }], ...body });
  return { wire, request, requestId: "t", created: 0 };
};

describe("parseCohereChat", () => {
  it("content as a string or text items; system messages join; images and unknown items are not text", () => {
    const { request } = parsed({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "system", content: [{ type: "text", text: "Answer in French." }] },
        {
          role: "user",
          content: [
            { type: "text", text: "What is" },
            { type: "image_url", image_url: { url: "data:image/png;base64,AA==" } },
            { type: "text", text: "this?" },
          ],
        },
      ],
    });
    expect(request).toMatchObject({ provider: "cohere", endpoint: "chat", model: "command-a-03-2025", stream: false, reasoning: "disabled", tools: [] });
    expect(request.system).toBe("Be brief.\n\nAnswer in French.");
    expect(request.messages).toEqual([{ role: "user", text: "What is\nthis?" }]);
  });

  it("an assistant's tool plan is its text when it has no content; thinking items are reasoning; a tool result is named by its call", () => {
    const { request } = parsed({
      stream: true,
      tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
      messages: [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: [{ type: "thinking", thinking: "Use the tool." }],
          tool_plan: "I will check.",
          tool_calls: [{ id: "get_weather_abc", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
        },
        {
          role: "tool",
          tool_call_id: "get_weather_abc",
          content: [
            { type: "document", document: { data: { sky: "sunny" } } },
            { type: "text", text: "24C" },
          ],
        },
      ],
    });
    expect(request.stream).toBe(true);
    expect(request.tools).toEqual(["get_weather"]);
    expect(request.messages).toEqual([
      { role: "user", text: "Weather?" },
      { role: "assistant", text: "I will check.", toolCalls: [{ id: "get_weather_abc", name: "get_weather", arguments: '{"city":"Paris"}' }], reasoning: [{ text: "Use the tool." }] },
      { role: "tool", toolCallId: "get_weather_abc", name: "get_weather", content: '{"data":{"sky":"sunny"}}\n24C', isError: false },
    ]);
  });

  it("response_format, strict_tools, tool_choice, thinking, sampling and stop sequences", () => {
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object", properties: { a: { type: "string" } } } } }];
    const schema = { type: "object", properties: { total: { type: "number" } } };
    const { request } = parsed({
      messages: [{ role: "user", content: "x" }],
      tools,
      strict_tools: true,
      tool_choice: "REQUIRED",
      response_format: { type: "json_object", json_schema: schema },
      thinking: { type: "enabled", token_budget: 100 },
      temperature: 0.3,
      p: 0.75,
      max_tokens: 50,
      stop_sequences: ["END", ""],
    });
    expect(request.outputSchema).toEqual({ kind: "json_schema", schema, strict: true });
    expect(request.strictTools).toEqual([{ name: "f", schema: tools[0]!.function.parameters }]);
    expect(request.toolChoice).toEqual({ kind: "required" });
    expect(request.toolSchemas).toEqual([{ name: "f", schema: tools[0]!.function.parameters }]);
    expect(request).toMatchObject({ reasoning: "enabled", temperature: 0.3, topP: 0.75, maxTokens: 50, stopSequences: ["END"] });
    expect(parsed({ messages: [{ role: "user", content: "x" }], response_format: { type: "json_object" } }).request.outputSchema).toEqual({ kind: "json_object" });
    expect(parsed({ messages: [{ role: "user", content: "x" }], response_format: { type: "text" }, tool_choice: "NONE" }).request).toMatchObject({ toolChoice: { kind: "none" } });
    expect(parsed({ messages: [{ role: "user", content: "x" }], response_format: { type: "text" } }).request.outputSchema).toBeUndefined();
    // A reasoning model thinks unless told not to; another model only when told to.
    expect(parsed({ model: "command-a-reasoning-08-2025", messages: [{ role: "user", content: "x" }] }).request.reasoning).toBe("enabled");
    expect(parsed({ model: "command-a-reasoning-08-2025", messages: [{ role: "user", content: "x" }], thinking: { type: "disabled" } }).request.reasoning).toBe("disabled");
    expect(parsed({ messages: [{ role: "user", content: "x" }] }).request.reasoning).toBe("disabled");
  });

  it("refuses what the API refuses, in Cohere's words", () => {
    expect(refused({ model: " " })).toBe("invalid request: model is required");
    expect(refused({ messages: [] })).toBe("invalid request: messages must not be empty");
    expect(refused({ temperature: -0.1 })).toBe("invalid request: temperature must be at least 0");
    expect(refused({ k: 501 })).toBe("invalid request: k must be between 0 and 500");
    expect(refused({ frequency_penalty: 1.5 })).toBe("invalid request: frequency_penalty must be between 0 and 1");
    expect(refused({ presence_penalty: -1 })).toBe("invalid request: presence_penalty must be between 0 and 1");
    expect(refused({ max_tokens: 0 })).toBe("invalid request: max_tokens must be greater than 0");
    expect(refused({ thinking: { type: "enabled", token_budget: 0 } })).toBe("invalid request: thinking.token_budget must be greater than 0");
    expect(
      refused({
        messages: [
          { role: "user", content: "x" },
          { role: "tool", content: "r" },
        ],
      }),
    ).toBe("invalid request: messages[1].tool_call_id is required");
    expect(refused({ messages: [{ role: "developer", content: "x" }] })).toMatch(/^invalid request: messages\[0\]\.role is invalid: /);
    expect(refused({ messages: undefined })).toBe("invalid request: messages is required");
    expect(refused({ tool_choice: "AUTO", tools: [] })).toMatch(/^invalid request: tool_choice is invalid: /);
  });
});

describe("the answer", () => {
  it("text: one text item, COMPLETE, usage in both forms; cached tokens when a cache was read", () => {
    const body = renderCohereChatJson(reply({ usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 8, cacheWriteTokens: 0, reasoningTokens: 0 } }), ctx()) as Record<string, any>;
    expect(Object.keys(body)).toEqual(["id", "message", "finish_reason", "usage"]);
    expect(body.message).toEqual({ role: "assistant", content: [{ type: "text", text: "lorem ipsum dolor" }] });
    expect(body.finish_reason).toBe("COMPLETE");
    expect(body.usage).toEqual({ billed_units: { input_tokens: 10, output_tokens: 2 }, tokens: { input_tokens: 10, output_tokens: 2 }, cached_tokens: 8 });
  });

  it("tool calls: the text as tool_plan, no content unless thinking; ids from the tool's name unless scripted", () => {
    const calls = reply({
      text: "Checking.",
      toolCalls: [
        { name: "get_weather", arguments: '{"city":"Paris"}' },
        { id: "mine_1", name: "f", arguments: "{}" },
      ],
      finishReason: "tool_calls",
    });
    const body = renderCohereChatJson(calls, ctx()) as Record<string, any>;
    const id = cohereToolCallId(calls, 0);
    expect(id).toMatch(/^get_weather_[a-z0-9]{12}$/);
    expect(cohereToolCallId(calls, 0)).toBe(id);
    expect(body.message).toEqual({
      role: "assistant",
      tool_plan: "Checking.",
      tool_calls: [
        { id, type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        { id: "mine_1", type: "function", function: { name: "f", arguments: "{}" } },
      ],
    });
    expect(body.finish_reason).toBe("TOOL_CALL");
    const thinking = renderCohereChatJson({ ...calls, text: undefined, reasoning: [{ type: "thinking", text: "hmm" }] }, ctx()) as Record<string, any>;
    expect(thinking.message.content).toEqual([{ type: "thinking", thinking: "hmm" }]);
    expect(thinking.message.tool_plan).toBeUndefined();
  });

  it("finish reasons: MAX_TOKENS, STOP_SEQUENCE, ERROR for a filtered answer, TOOL_CALL when it calls; a refusal is the text", () => {
    expect(cohereFinishReason(reply({ finishReason: "length" }))).toBe("MAX_TOKENS");
    expect(cohereFinishReason(reply({ stopSequence: "END" }))).toBe("STOP_SEQUENCE");
    expect(cohereFinishReason(reply({ finishReason: "content_filter" }))).toBe("ERROR");
    expect(cohereFinishReason(reply({ finishReason: "tool_calls" }))).toBe("COMPLETE");
    expect(cohereFinishReason(reply({ finishReason: "stop", toolCalls: [{ name: "f", arguments: "{}" }] }))).toBe("TOOL_CALL");
    const refusal = renderCohereChatJson(reply({ text: undefined, refusal: "I can't help with that." }), ctx()) as Record<string, any>;
    expect(refusal.message.content).toEqual([{ type: "text", text: "I can't help with that." }]);
  });

  it("further messages (the default responder's extraChoices) fold into the one message: texts, thinking, calls", () => {
    const second = reply({ text: "Second part.", reasoning: [{ type: "thinking", text: "More." }], toolCalls: [{ name: "g", arguments: "{}" }], idSeed: "co/run/1/choice-1" });
    const folded = reply({ text: "First part.", reasoning: [{ type: "thinking", text: "Hmm." }], extraChoices: [second] });
    const body = renderCohereChatJson(folded, ctx()) as Record<string, any>;
    expect(body.message).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Hmm." },
        { type: "thinking", thinking: "More." },
      ],
      tool_plan: "First part.\n\nSecond part.",
      tool_calls: [{ id: cohereToolCallId(second, 0), type: "function", function: { name: "g", arguments: "{}" } }],
    });
    expect(body.finish_reason).toBe("TOOL_CALL");
    expect(cohereToolCallIds(folded)).toEqual([cohereToolCallId(second, 0)]);
  });

  it("the stream of two tool calls: each call's start, argument fragments and end under its index; words paced", () => {
    const calls = reply({
      text: "",
      toolCalls: [
        { name: "a", arguments: '{"long":"abcdefghijklmnopqrstuvwxyz"}' },
        { name: "b", arguments: "{}" },
      ],
      finishReason: "tool_calls",
    });
    const events = renderCohereChatEvents(calls, ctx());
    expect(events.map((e) => e.event)).toEqual([
      "message-start",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call-end",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-end",
      "message-end",
      undefined,
    ]);
    const data = events.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(
      data
        .filter((d) => d.type === "tool-call-delta" && d.index === 0)
        .map((d) => d.delta.message.tool_calls.function.arguments)
        .join(""),
    ).toBe('{"long":"abcdefghijklmnopqrstuvwxyz"}');
    expect(data[6]).toEqual({ type: "tool-call-start", index: 1, delta: { message: { tool_calls: { id: cohereToolCallId(calls, 1), type: "function", function: { name: "b", arguments: "" } } } } });
    expect(events.at(-1)).toEqual({ data: "[DONE]" });
    expect(events.filter((e) => (e.words ?? 0) > 0).length).toBe(6);
  });

  it("a failure mid-stream is message-end with ERROR and the message (Cohere's own wording by default)", () => {
    expect(JSON.parse(renderCohereChatStreamError({ kind: "stream_error", afterChunks: 1, message: "boom" }).data)).toEqual({ type: "message-end", delta: { finish_reason: "ERROR", error: "boom" } });
    expect(JSON.parse(renderCohereChatStreamError({ kind: "stream_error", afterChunks: 1 }).data).delta.error).toBe("internal server error, this has been reported to our developers");
  });
});

describe("decodeFrames on Cohere Chat v2 (recordings)", () => {
  const at = (data: string) => ({ at: 0, data });
  it("a whole answer: thinking, the tool plan as the text, the calls, the token counts and cached tokens", () => {
    const body = {
      id: "f201af17-e24a-4396-8f6a-98e8bf9c3432",
      message: {
        role: "assistant",
        content: [{ type: "thinking", thinking: "Use the tool." }],
        tool_plan: "I will use the weather tool.",
        tool_calls: [{ id: "weather_dqgshstja6p9", type: "function", function: { name: "weather", arguments: '{"location":"San Francisco"}' } }],
      },
      finish_reason: "TOOL_CALL",
      usage: { billed_units: { input_tokens: 119, output_tokens: 52 }, tokens: { input_tokens: 1549, output_tokens: 103 }, cached_tokens: 992 },
    };
    expect(decodeFrames("chat", "whole", { status: 200, headers: {}, frames: [at(JSON.stringify(body))] })).toEqual({
      text: "I will use the weather tool.",
      reasoning: "Use the tool.",
      toolCalls: [{ id: "weather_dqgshstja6p9", name: "weather", arguments: { location: "San Francisco" } }],
      usage: { inputTokens: 1549, outputTokens: 103, cacheReadTokens: 992 },
    });
  });

  it("mockllm's own stream decodes back to the reply it was rendered from; a stream ending in ERROR decodes to nothing", () => {
    const r = reply({ text: "Checking.", reasoning: [{ type: "thinking", text: "First think." }], toolCalls: [{ name: "f", arguments: '{"a":1}' }], finishReason: "tool_calls" });
    const frames = renderCohereChatEvents(r, ctx()).map((e) => at(`${e.event !== undefined ? `event: ${e.event}\n` : ""}data: ${e.data}\n\n`));
    expect(decodeFrames("chat", "sse", { status: 200, headers: {}, frames })).toEqual({
      text: "Checking.",
      reasoning: "First think.",
      toolCalls: [{ id: cohereToolCallId(r, 0), name: "f", arguments: { a: 1 } }],
      usage: { inputTokens: 3, outputTokens: 5 },
    });
    const broken = [frames[0]!, at(`event: message-end\ndata: ${renderCohereChatStreamError({ kind: "stream_error", afterChunks: 1 }).data}\n\n`)];
    expect(decodeFrames("chat", "sse", { status: 200, headers: {}, frames: broken })).toEqual({});
  });

  it("Ollama's chat (NDJSON, or JSON with `done`) still decodes as Ollama's", () => {
    const line = JSON.stringify({ model: "llama3.2", message: { role: "assistant", content: "Hallo" }, done: true, prompt_eval_count: 8, eval_count: 3 });
    expect(decodeFrames("chat", "whole", { status: 200, headers: {}, frames: [at(line)] })).toEqual({ text: "Hallo", usage: { inputTokens: 8, outputTokens: 3 } });
  });
});

describe("citations of the request's documents", () => {
  const docs = cohereDocuments([
    "Paris is the capital and largest city of France.",
    { id: "berlin", data: { title: "germany.txt", text: "Berlin is the capital of Germany.", year: 2024 } },
    { data: "Bananas are a yellow fruit." },
    42,
    { data: [1, 2] },
  ]);

  it("documents: strings and { id?, data } objects, ids doc:{i} unless given; other values skipped", () => {
    expect(docs).toEqual([
      { id: "doc:0", text: "Paris is the capital and largest city of France.", document: { id: "doc:0", text: "Paris is the capital and largest city of France." } },
      { id: "berlin", text: "germany.txt\nBerlin is the capital of Germany.", document: { id: "berlin", title: "germany.txt", text: "Berlin is the capital of Germany.", year: 2024 } },
      { id: "doc:2", text: "Bananas are a yellow fruit.", document: { id: "doc:2", text: "Bananas are a yellow fruit." } },
    ]);
  });

  it("each sentence that shares enough with a document cites it, spanning the sentence; others cite nothing", () => {
    const text = "Paris is the capital of France. Berlin is the capital of Germany.\nI like trains.";
    expect(cohereCitations(text, docs)).toEqual([
      { start: 0, end: 31, text: "Paris is the capital of France.", sources: [{ type: "document", id: "doc:0", document: docs[0]!.document }], type: "TEXT_CONTENT" },
      { start: 32, end: 65, text: "Berlin is the capital of Germany.", sources: [{ type: "document", id: "berlin", document: docs[1]!.document }], type: "TEXT_CONTENT" },
    ]);
    expect(cohereCitations("lorem ipsum dolor sit amet.", docs)).toEqual([]);
    expect(cohereCitations("", docs)).toEqual([]);
  });

  it("in the answer: `citations` after the content, citation-start/-end after the text's content-end; off with mode OFF", () => {
    const documents = ["Paris is the capital and largest city of France."];
    const r = reply({ text: "Paris is the capital of France." });
    const json = renderCohereChatJson(r, ctx({ documents })) as Record<string, any>;
    expect(Object.keys(json.message)).toEqual(["role", "content", "citations"]);
    expect(json.message.citations).toEqual([
      { start: 0, end: 31, text: "Paris is the capital of France.", sources: [{ type: "document", id: "doc:0", document: { id: "doc:0", text: documents[0] } }], type: "TEXT_CONTENT" },
    ]);
    const events = renderCohereChatEvents(r, ctx({ documents }));
    expect(events.map((e) => e.event).slice(-5)).toEqual(["content-end", "citation-start", "citation-end", "message-end", undefined]);
    expect(JSON.parse(events.at(-4)!.data)).toEqual({ type: "citation-start", index: 0, delta: { message: { citations: json.message.citations[0] } } });
    expect((renderCohereChatJson(r, ctx({ documents, citation_options: { mode: "OFF" } })) as Record<string, any>).message.citations).toBeUndefined();
    expect((renderCohereChatJson(r, ctx()) as Record<string, any>).message.citations).toBeUndefined();
  });
});

it("the documents' text matched is bounded in all (1 MiB, an equal share each), the documents echoed whole", () => {
  const big = "word ".repeat(300_000);
  const docs = cohereDocuments([big, "Paris is the capital of France.", big, big]);
  expect(docs.map((d) => d.text.length)).toEqual([262_144, 31, 262_144, 262_144]);
  expect(docs[2]!.document.text).toBe(big);
  expect(cohereCitations("Paris is the capital of France.", docs)[0]?.sources[0]?.id).toBe("doc:1");
});

describe("v1 Chat (/v1/chat)", () => {
  const v1 = (body: Record<string, unknown>) => {
    const result = parseCohereChatV1(body, headers);
    if (!result.ok) throw new Error(result.error.message);
    return result;
  };

  it("history, preamble and message become the conversation; tool results pair with the calls by name and parameters", () => {
    const { request } = v1({
      message: "",
      preamble: "Be brief.",
      chat_history: [
        { role: "SYSTEM", message: "Answer in French." },
        { role: "USER", message: "Weather in Paris and Rome?" },
        {
          role: "CHATBOT",
          message: "Checking.",
          tool_calls: [
            { name: "w", parameters: { city: "Paris" } },
            { name: "w", parameters: { city: "Rome" } },
          ],
        },
      ],
      tool_results: [
        { call: { name: "w", parameters: { city: "Rome" } }, outputs: [{ sky: "rain" }] },
        { call: { name: "w", parameters: { city: "Paris" } }, outputs: [{ sky: "sun" }] },
      ],
    });
    expect(request.model).toBe("command-r-plus-08-2024");
    expect(request.system).toBe("Be brief.\n\nAnswer in French.");
    expect(request.messages).toEqual([
      { role: "user", text: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        text: "Checking.",
        toolCalls: [
          { id: "w_2_0", name: "w", arguments: '{"city":"Paris"}' },
          { id: "w_2_1", name: "w", arguments: '{"city":"Rome"}' },
        ],
        reasoning: [],
      },
      { role: "tool", toolCallId: "w_2_1", name: "w", content: '[{"sky":"rain"}]', isError: false },
      { role: "tool", toolCallId: "w_2_0", name: "w", content: '[{"sky":"sun"}]', isError: false },
    ]);
  });

  it("refuses an empty message without tool results, and bad bounds, in Cohere's words", () => {
    const refusedV1 = (body: Record<string, unknown>) => {
      const r = parseCohereChatV1(body, headers);
      return r.ok ? "accepted" : r.error.message;
    };
    expect(refusedV1({ message: " " })).toBe("invalid request: message must be at least 1 token long or tool results must be specified.");
    expect(refusedV1({ message: "x", p: 2 })).toBe("invalid request: p must be between 0 and 1");
    const result = { call: { name: "f", parameters: {} }, outputs: [{ ok: true }] };
    expect(multistepError(v1({ message: "and now?", tool_results: [result] }).wire)?.message).toBe("invalid request: cannot specify both message and tool_results in multistep mode");
    expect(multistepError(v1({ message: "and now?", tool_results: [result], force_single_step: true }).wire)).toBeUndefined();
    expect(multistepError(v1({ message: "", tool_results: [result] }).wire)).toBeUndefined();
    expect(refusedV1({ message: "x", chat_history: [{ role: "ASSISTANT", message: "x" }] })).toMatch(/^invalid request: chat_history\[0\]\.role is invalid: /);
  });

  it("the JSON answer: the chat history with this turn, v1's tool calls and finish reasons; a recording decodes back", () => {
    const { wire, request } = v1({ message: "Hi", chat_history: [{ role: "USER", message: "Earlier" }] });
    const c = { wire, request, requestId: "t", created: 0 };
    const body = renderCohereChatV1Json(reply({ text: "Go.", toolCalls: [{ name: "f", arguments: '{"a":1}' }], finishReason: "tool_calls" }), c) as Record<string, any>;
    expect(Object.keys(body)).toEqual(["response_id", "text", "generation_id", "chat_history", "finish_reason", "meta", "tool_calls"]);
    expect(body.chat_history).toEqual([
      { role: "USER", message: "Earlier" },
      { role: "USER", message: "Hi" },
      { role: "CHATBOT", message: "Go.", tool_calls: [{ name: "f", parameters: { a: 1 } }] },
    ]);
    expect(body.finish_reason).toBe("COMPLETE");
    expect((renderCohereChatV1Json(reply({ finishReason: "content_filter" }), c) as Record<string, any>).finish_reason).toBe("ERROR_TOXIC");
    const frames = renderCohereChatV1Events(reply({ text: "Go.", toolCalls: [{ name: "f", arguments: '{"a":1}' }], finishReason: "tool_calls" }), c).map((e) => ({ at: 0, data: `${e.data}\n` }));
    expect(decodeFrames("chat", "ndjson", { status: 200, headers: {}, frames })).toEqual({ text: "Go.", toolCalls: [{ name: "f", arguments: { a: 1 } }], usage: { inputTokens: 3, outputTokens: 5 } });
    expect(decodeFrames("chat", "whole", { status: 200, headers: {}, frames: [{ at: 0, data: JSON.stringify(body) }] })).toMatchObject({ text: "Go." });
  });
});
