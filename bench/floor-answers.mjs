// What the floors answer (bench/servers/bare.mjs for Node, bench/probe-worker for the Worker): a fixed Chat
// Completions body, and for a stream request a fixed 200-word SSE transcript in the events mockllm's bench scenario
// sends (3 words an event: role, 67 content events, finish, [DONE]), so each floor's client reads about as much as
// mockllm's does on the same row (~13 KB against ~22 KB: mockllm's chunks carry more fields). No Node imports: the
// probe Worker loads it too.
import { JSON_TEXT, WORDS_200 } from "./workload.mjs";

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

/** Whether a request body asks for a stream (the floors do not parse it). */
export const STREAM_MARK = '"stream":true';
