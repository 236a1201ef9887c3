/**
 * What the stand-in upstream answers in the record-and-replay tests: each provider's real stream shape, with gaps.
 */
import { sse, type Script } from "./standin";

const chunk = (id: string, delta: Record<string, unknown>, finish: string | null = null) =>
  sse({ id, object: "chat.completion.chunk", created: 1_700_000_000, model: "gpt-up", choices: [{ index: 0, delta, finish_reason: finish }] });

/** OpenAI Chat, streamed, usage included. */
export const CHAT_STREAM: Script = {
  headers: {
    "content-type": "text/event-stream; charset=utf-8",
    "x-request-id": "req_up_chat_1",
    "x-ratelimit-remaining-requests": "99",
    "openai-processing-ms": "12",
    "set-cookie": "session=upstream-cookie",
  },
  frames: [
    { data: chunk("chatcmpl-up-1", { role: "assistant", content: "" }) },
    { gap: 20, data: chunk("chatcmpl-up-1", { content: "Hello" }) },
    { gap: 30, data: chunk("chatcmpl-up-1", { content: " from upstream" }) },
    { data: chunk("chatcmpl-up-1", {}, "stop") },
    {
      data: sse({
        id: "chatcmpl-up-1",
        object: "chat.completion.chunk",
        created: 1_700_000_000,
        model: "gpt-up",
        choices: [],
        usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15, completion_tokens_details: { reasoning_tokens: 2 } },
      }),
    },
    { data: sse("[DONE]") },
  ],
};

/** OpenAI Chat, JSON, a tool call. */
export const CHAT_JSON_TOOL: Script = {
  headers: { "content-type": "application/json", "x-request-id": "req_up_chat_2" },
  frames: [
    {
      data: JSON.stringify({
        id: "chatcmpl-up-2",
        object: "chat.completion",
        created: 1_700_000_000,
        model: "gpt-up",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "call_up_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
            },
            finish_reason: "tool_calls",
          },
        ],
        usage: { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 },
      }),
    },
  ],
};

/** OpenAI rate limit, as the real API sends it. */
export const OPENAI_429: Script = {
  status: 429,
  headers: {
    "content-type": "application/json; charset=utf-8",
    "x-request-id": "req_up_429",
    "x-ratelimit-limit-requests": "60",
    "x-ratelimit-remaining-requests": "0",
    "x-ratelimit-reset-requests": "1s",
    "retry-after": "1",
    "retry-after-ms": "20",
    "x-should-retry": "false",
  },
  frames: [{ data: JSON.stringify({ error: { message: "Rate limit reached for requests", type: "requests", param: null, code: "rate_limit_exceeded" } }) }],
};

const response = (status: string, output: unknown[], usage: unknown) => ({
  id: "resp_up_1",
  object: "response",
  created_at: 1_700_000_000,
  status,
  model: "gpt-up",
  output,
  usage,
  error: null,
  incomplete_details: null,
  instructions: null,
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});
const message = (status: string, text: string) => ({
  id: "msg_up_1",
  type: "message",
  status,
  role: "assistant",
  content: text === "" && status === "in_progress" ? [] : [{ type: "output_text", text, annotations: [] }],
});
const rsp = (type: string, seq: number, rest: Record<string, unknown>) => sse({ type, sequence_number: seq, ...rest }, type);

/** OpenAI Responses, streamed. */
export const RESPONSES_STREAM: Script = {
  headers: { "content-type": "text/event-stream; charset=utf-8", "x-request-id": "req_up_resp_1" },
  frames: [
    { data: rsp("response.created", 0, { response: response("in_progress", [], null) }) },
    { data: rsp("response.output_item.added", 1, { output_index: 0, item: message("in_progress", "") }) },
    {
      data: rsp("response.content_part.added", 2, {
        item_id: "msg_up_1",
        output_index: 0,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      }),
    },
    { gap: 20, data: rsp("response.output_text.delta", 3, { item_id: "msg_up_1", output_index: 0, content_index: 0, delta: "Hi " }) },
    { gap: 20, data: rsp("response.output_text.delta", 4, { item_id: "msg_up_1", output_index: 0, content_index: 0, delta: "there" }) },
    { data: rsp("response.output_text.done", 5, { item_id: "msg_up_1", output_index: 0, content_index: 0, text: "Hi there" }) },
    {
      data: rsp("response.content_part.done", 6, {
        item_id: "msg_up_1",
        output_index: 0,
        content_index: 0,
        part: { type: "output_text", text: "Hi there", annotations: [] },
      }),
    },
    { data: rsp("response.output_item.done", 7, { output_index: 0, item: message("completed", "Hi there") }) },
    {
      data: rsp("response.completed", 8, {
        response: response("completed", [message("completed", "Hi there")], {
          input_tokens: 5,
          output_tokens: 2,
          total_tokens: 7,
          input_tokens_details: { cached_tokens: 1, cache_write_tokens: 2 },
          output_tokens_details: { reasoning_tokens: 0 },
        }),
      }),
    },
  ],
};

const ant = (type: string, rest: Record<string, unknown> = {}) => sse({ type, ...rest }, type);

/** Anthropic Messages, streamed: thinking (signed), text, a tool call, a ping. */
export const ANTHROPIC_STREAM: Script = {
  headers: {
    "content-type": "text/event-stream; charset=utf-8",
    "request-id": "req_up_ant_1",
    "anthropic-ratelimit-requests-remaining": "49",
  },
  frames: [
    {
      data: ant("message_start", {
        message: {
          id: "msg_up_1",
          type: "message",
          role: "assistant",
          model: "claude-up",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 25, output_tokens: 1 },
        },
      }),
    },
    { data: ant("content_block_start", { index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }) },
    { data: ant("ping") },
    { gap: 25, data: ant("content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: "Let me think." } }) },
    { data: ant("content_block_delta", { index: 0, delta: { type: "signature_delta", signature: "sig-up-1" } }) },
    { data: ant("content_block_stop", { index: 0 }) },
    { data: ant("content_block_start", { index: 1, content_block: { type: "text", text: "" } }) },
    { gap: 25, data: ant("content_block_delta", { index: 1, delta: { type: "text_delta", text: "Checking." } }) },
    { data: ant("content_block_stop", { index: 1 }) },
    { data: ant("content_block_start", { index: 2, content_block: { type: "tool_use", id: "toolu_up_1", name: "get_weather", input: {} } }) },
    { data: ant("content_block_delta", { index: 2, delta: { type: "input_json_delta", partial_json: '{"city": ' } }) },
    { data: ant("content_block_delta", { index: 2, delta: { type: "input_json_delta", partial_json: '"Paris"}' } }) },
    { data: ant("content_block_stop", { index: 2 }) },
    { data: ant("message_delta", { delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 30 } }) },
    { data: ant("message_stop") },
  ],
};

/** Anthropic overloaded (529), before any byte of the stream. */
export const ANTHROPIC_529: Script = {
  status: 529,
  headers: { "content-type": "application/json", "request-id": "req_up_529", "retry-after": "3", "x-should-retry": "false" },
  frames: [{ data: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" }, request_id: "req_up_529" }) }],
};

/** Anthropic: an `error` event mid-stream. */
export const ANTHROPIC_MIDSTREAM_ERROR: Script = {
  headers: { "content-type": "text/event-stream; charset=utf-8", "request-id": "req_up_mid" },
  frames: [
    { data: ANTHROPIC_STREAM.frames[0]!.data },
    { data: ant("content_block_start", { index: 0, content_block: { type: "text", text: "" } }) },
    { data: ant("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Par" } }) },
    { gap: 20, data: sse({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, "error") },
  ],
};

/** Gemini, streamed over SSE with CRLF event ends (as Google sends them). */
const gem = (parts: unknown[], extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({
    candidates: [{ content: { parts, role: "model" }, index: 0, ...extra }],
    usageMetadata: { promptTokenCount: 6, candidatesTokenCount: 4, totalTokenCount: 14, thoughtsTokenCount: 4 },
    modelVersion: "gemini-2.5-flash",
    responseId: "up-gem-1",
  })}\r\n\r\n`;
export const GEMINI_STREAM: Script = {
  headers: { "content-type": "text/event-stream", "x-goog-request-id": "gem-req-1" },
  frames: [{ data: gem([{ text: "Thinking about it.", thought: true }]) }, { gap: 20, data: gem([{ text: "Bonjour" }]) }, { gap: 20, data: gem([{ text: " le monde" }], { finishReason: "STOP" }) }],
};

/** Ollama chat, NDJSON. */
const line = (message: Record<string, unknown>, done = false, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ model: "llama-up", created_at: "2025-01-01T00:00:00Z", message: { role: "assistant", ...message }, done, ...extra })}\n`;
export const OLLAMA_STREAM: Script = {
  headers: { "content-type": "application/x-ndjson" },
  frames: [
    { data: line({ content: "", thinking: "Hmm." }) },
    { gap: 20, data: line({ content: "Hal" }) },
    { gap: 20, data: line({ content: "lo" }) },
    { data: line({ content: "" }, true, { done_reason: "stop", total_duration: 1000, prompt_eval_count: 8, eval_count: 3 }) },
  ],
};

/** Cohere Chat v2, streamed: a thinking item, a tool plan and a tool call in fragments, `message-end`, `[DONE]`. */
const co = (type: string, fields: Record<string, unknown>) => sse({ type, ...fields }, type);
export const COHERE_STREAM: Script = {
  headers: { "content-type": "text/event-stream", "x-debug-trace-id": "0f1e2d3c4b5a69788796a5b4c3d2e1f0" },
  frames: [
    {
      data: sse(
        { id: "5c1f9a2e-0d3b-4c8e-9f7a-1b2c3d4e5f60", type: "message-start", delta: { message: { role: "assistant", content: [], tool_plan: "", tool_calls: [], citations: [] } } },
        "message-start",
      ),
    },
    { data: co("content-start", { index: 0, delta: { message: { content: { type: "thinking", thinking: "" } } } }) },
    { gap: 20, data: co("content-delta", { index: 0, delta: { message: { content: { thinking: "Need the" } } } }) },
    { data: co("content-delta", { index: 0, delta: { message: { content: { thinking: " weather." } } } }) },
    { data: co("content-end", { index: 0 }) },
    { gap: 20, data: co("tool-plan-delta", { delta: { message: { tool_plan: "I will check" } } }) },
    { data: co("tool-plan-delta", { delta: { message: { tool_plan: " Paris." } } }) },
    { data: co("tool-call-start", { index: 0, delta: { message: { tool_calls: { id: "get_weather_up1abc2def3g", type: "function", function: { name: "get_weather", arguments: "" } } } } }) },
    { gap: 20, data: co("tool-call-delta", { index: 0, delta: { message: { tool_calls: { function: { arguments: '{"city":' } } } } }) },
    { data: co("tool-call-delta", { index: 0, delta: { message: { tool_calls: { function: { arguments: '"Paris"}' } } } } }) },
    { data: co("tool-call-end", { index: 0 }) },
    {
      data: co("message-end", {
        delta: { finish_reason: "TOOL_CALL", usage: { billed_units: { input_tokens: 9, output_tokens: 12 }, tokens: { input_tokens: 180, output_tokens: 12 }, cached_tokens: 160 } },
      }),
    },
    { data: sse("[DONE]") },
  ],
};

/** Cohere's v1 Chat, streamed: JSON lines (`application/stream+json`), the whole answer in `stream-end`. */
const v1 = (fields: Record<string, unknown>) => `${JSON.stringify(fields)}\n`;
export const COHERE_V1_STREAM: Script = {
  headers: { "content-type": "application/stream+json" },
  frames: [
    { data: v1({ is_finished: false, event_type: "stream-start", generation_id: "79644b13-2cc8-462e-93be-f03cc16aed9a" }) },
    { gap: 20, data: v1({ is_finished: false, event_type: "text-generation", text: "Ar" }) },
    { data: v1({ is_finished: false, event_type: "text-generation", text: "gh!" }) },
    {
      data: v1({
        is_finished: true,
        event_type: "stream-end",
        response: {
          response_id: "7fdfb159-de9d-4cef-856b-cb2b801668db",
          text: "Argh!",
          generation_id: "79644b13-2cc8-462e-93be-f03cc16aed9a",
          chat_history: [
            { role: "USER", message: "cohere-v1" },
            { role: "CHATBOT", message: "Argh!" },
          ],
          finish_reason: "COMPLETE",
          meta: { api_version: { version: "1" }, billed_units: { input_tokens: 31, output_tokens: 2 }, tokens: { input_tokens: 49, output_tokens: 2 } },
        },
        finish_reason: "COMPLETE",
      }),
    },
  ],
};

/** A reasoning-style stream: a long wait before the first byte and between bursts of many small deltas. */
export function longThinking(bursts: number, perBurst: number, gapMs: number): Script {
  const frames: Script["frames"] = [];
  for (let b = 0; b < bursts; b++) {
    for (let i = 0; i < perBurst; i++) {
      frames.push({ ...(i === 0 ? { gap: gapMs } : {}), data: chunk("chatcmpl-long", { reasoning_content: `b${b}t${i} ` }) });
    }
  }
  frames.push({ data: chunk("chatcmpl-long", { content: "Done." }, "stop") }, { data: sse("[DONE]") });
  return { headers: { "content-type": "text/event-stream" }, frames };
}

/** A stream for one of many concurrent sessions: its number in every frame. */
export function numbered(n: string): Script {
  return {
    headers: { "content-type": "text/event-stream", "x-request-id": `req_concurrent_${n}` },
    frames: [
      { data: chunk(`chatcmpl-c${n}`, { content: `session ${n} ` }) },
      { gap: 15, data: chunk(`chatcmpl-c${n}`, { content: `still ${n}` }) },
      { gap: 15, data: chunk(`chatcmpl-c${n}`, {}, "stop") },
      { data: sse("[DONE]") },
    ],
  };
}
