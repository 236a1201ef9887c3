// What the floors answer (bench/servers/bare.mjs for Node, bench/probe-worker for the Worker): a fixed Chat
// Completions body, and for a stream request a fixed 200-word SSE transcript in the events mockllm's bench scenario
// sends (3 words an event: role, 67 content events, finish, [DONE]), so each floor's client reads about as much as
// mockllm's does on the same row (~13 KB against ~22 KB: mockllm's chunks carry more fields). No Node imports: the
// probe Worker loads it too.
import { BURST_PACING, JSON_TEXT, WORDS_100, WORDS_200 } from "./workload.mjs";

export const FLOOR_JSON = JSON.stringify({
  id: "chatcmpl-floor",
  object: "chat.completion",
  created: 1735689600,
  model: "gpt-4o",
  choices: [{ index: 0, message: { role: "assistant", content: JSON_TEXT, refusal: null }, finish_reason: "stop", logprobs: null }],
  usage: { prompt_tokens: 64, completion_tokens: 32, total_tokens: 96 },
});

const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: "chatcmpl-floor", object: "chat.completion.chunk", created: 1735689600, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

const words = WORDS_200.split(" ");
const pieces = Array.from({ length: Math.ceil(words.length / 3) }, (_, i) => `${i === 0 ? "" : " "}${words.slice(i * 3, i * 3 + 3).join(" ")}`);
export const FLOOR_SSE = [chunk({ role: "assistant", content: "" }), ...pieces.map((p) => chunk({ content: p })), chunk({}, "stop"), "data: [DONE]\n\n"].join("");

/**
 * The first answer of the SDK conversation (bench/sdk-conversations.mjs): the tool call its client needs before it
 * sends the tool's result, which FLOOR_JSON answers — so the floor serves the SDK row too (bench/sdk-rounds.mjs).
 */
export const FLOOR_TOOL_CALL = JSON.stringify({
  id: "chatcmpl-floor",
  object: "chat.completion",
  created: 1735689600,
  model: "gpt-4o",
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: null, refusal: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
      finish_reason: "tool_calls",
      logprobs: null,
    },
  ],
  usage: { prompt_tokens: 64, completion_tokens: 32, total_tokens: 96 },
});
const TOOLS_MARK = '"tools":';
const RESULT_MARK = '"tool_call_id":';

/**
 * The floors' answer to a JSON (non-stream) request body, a string or a Buffer (neither is parsed): the tool call to a
 * request that offers tools and carries no tool result yet (the SDK conversation's first), else FLOOR_JSON.
 * @example floorJsonAnswer(body) // FLOOR_TOOL_CALL for the SDK conversation's first request
 */
export function floorJsonAnswer(body) {
  return body.includes(TOOLS_MARK) && !body.includes(RESULT_MARK) ? FLOOR_TOOL_CALL : FLOOR_JSON;
}

/** Whether a request body asks for a stream (the floors do not parse it). */
export const STREAM_MARK = '"stream":true';

/**
 * The same answers in the shape the real API sends and mockllm therefore sends (what the probe answers with
 * PROBE_MODE "wire"): the Chat Completions body with its usage details, `service_tier`, `system_fingerprint` and
 * `annotations`; each stream chunk with `service_tier`, `system_fingerprint`, `logprobs` and an `obfuscation` padding
 * (mockllm's is 2–10 characters; a fixed 5 here) — within a few bytes of mockllm's bench answers (603 and 22,293
 * bytes, 70 events).
 */
const WIRE_HEAD = { id: "chatcmpl-floor00000000000000000000000", created: 1735689600, model: "gpt-4o-2024-08-06" };
export const FLOOR_JSON_WIRE = JSON.stringify({
  ...WIRE_HEAD,
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content: JSON_TEXT, refusal: null, annotations: [] }, logprobs: null, finish_reason: "stop" }],
  usage: {
    prompt_tokens: 64,
    completion_tokens: 32,
    total_tokens: 96,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  },
  service_tier: "default",
  system_fingerprint: "fp_mockllm",
});

const wireChunk = (delta, finish = null) =>
  `data: ${JSON.stringify({
    id: WIRE_HEAD.id,
    object: "chat.completion.chunk",
    created: WIRE_HEAD.created,
    model: WIRE_HEAD.model,
    service_tier: "default",
    system_fingerprint: "fp_mockllm",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    obfuscation: "floor",
  })}\n\n`;
export const FLOOR_SSE_WIRE = [wireChunk({ role: "assistant", content: "", refusal: null }), ...pieces.map((p) => wireChunk({ content: p })), wireChunk({}, "stop"), "data: [DONE]\n\n"].join("");

/** Whether a request is the burst's paced stream (bench/workload.mjs BURST_BODY's user message). */
export const BURST_MARK = "bench burst";

/**
 * The burst's paced stream as the probe Worker answers it (bench/worker-cpu.mjs --probe --load paced): the events
 * mockllm's bench-burst scenario sends — role, 100 one-word content events, finish, [DONE] — in the real API's shape,
 * each with the offset (ms) it is due at on mockllm's schedule: the role at once, word n at ttft + n × 20 ms, the
 * finish and [DONE] with the last word.
 */
const burstWords = WORDS_100.split(" ");
const wordMs = 1000 / BURST_PACING.wordsPerSecond;
const lastMs = BURST_PACING.ttftMs + burstWords.length * wordMs;
export const FLOOR_BURST_EVENTS = [
  { at: 0, text: wireChunk({ role: "assistant", content: "", refusal: null }) },
  ...burstWords.map((w, i) => ({ at: BURST_PACING.ttftMs + (i + 1) * wordMs, text: wireChunk({ content: i === 0 ? w : ` ${w}` }) })),
  { at: lastMs, text: wireChunk({}, "stop") },
  { at: lastMs, text: "data: [DONE]\n\n" },
];
