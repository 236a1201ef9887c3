/**
 * What rendering one unpaced stream costs, renderer alone (no request, no session, no Response): CPU µs per whole
 * transcript — the events made, each encoded, joined into the one string an unpaced stream's body is — for the bench's
 * 200-word answer in 3-word chunks on Chat Completions (the stream row), Anthropic Messages and Responses. Not a test:
 * timings depend on the machine.
 *   npx tsx bench/render.ts [--transcripts 20000] [--rounds 3]
 */
import { parseArgs } from "node:util";
import { pacedStream } from "../src/http/sse";
import { renderMessageEvents } from "../src/providers/anthropic/render-stream";
import type { MessagesRequest } from "../src/providers/anthropic/wire";
import { renderChatEvents } from "../src/providers/openai/chat/render-stream";
import type { ChatRequest } from "../src/providers/openai/chat/wire";
import { renderResponseEvents } from "../src/providers/openai/responses/render-stream";
import type { ResponsesRequest } from "../src/providers/openai/responses/wire";
import type { RenderContext, SseEvent } from "../src/providers/types";
import type { CanonicalRequest } from "../src/canonical/request";
import { resolveReply } from "../src/scenario/engine";
import { WORDS_200 } from "./workload.mjs";

const { values } = parseArgs({ options: { transcripts: { type: "string", default: "20000" }, rounds: { type: "string", default: "3" } } });
const N = Number(values.transcripts);

function request(over: Partial<CanonicalRequest>): CanonicalRequest {
  return {
    provider: "openai",
    endpoint: "chat.completions",
    model: "gpt-4o",
    stream: true,
    system: "",
    messages: [{ role: "user", text: "bench stream" }],
    tools: [],
    reasoning: "disabled",
    headers: {},
    ...over,
  };
}

const respond = { text: WORDS_200, stream: { chunkWords: 3 } };
const seed = "bench-stream/b1/step-1/1";
const chatRequest = request({});
const chat: RenderContext<ChatRequest> = { wire: { model: "gpt-4o", stream: true, messages: [{ role: "user", content: "bench stream" }] }, request: chatRequest, requestId: "req_1", created: 1 };
const anthropicRequest = request({ provider: "anthropic", endpoint: "messages", model: "claude-sonnet-4-5" });
const anthropic: RenderContext<MessagesRequest> = {
  wire: { model: "claude-sonnet-4-5", max_tokens: 1024, stream: true, messages: [{ role: "user", content: "bench stream" }] },
  request: anthropicRequest,
  requestId: "req_1",
  created: 1,
};
const responsesRequest = request({ endpoint: "responses", model: "gpt-4.1" });
const responses: RenderContext<ResponsesRequest> = { wire: { body: { model: "gpt-4.1", stream: true }, items: [], history: [] }, request: responsesRequest, requestId: "req_1", created: 1 };
const UNPACED = { ttftMs: 0, tokensPerSecond: 0, chunkDelayMs: 0, chunkWords: 3, jitterMs: 0, seed: 0 };

// Each reply resolved once: the renderers only read it.
const chatReply = resolveReply(undefined, { respond }, chatRequest, seed);
const anthropicReply = resolveReply(undefined, { respond }, anthropicRequest, seed);
const responsesReply = resolveReply(undefined, { respond }, responsesRequest, seed);
const cases: [string, () => SseEvent[]][] = [
  ["Chat Completions", () => renderChatEvents(chatReply, chat)],
  ["Anthropic Messages", () => renderMessageEvents(anthropicReply, anthropic)],
  ["Responses", () => renderResponseEvents(responsesReply, responses)],
];

/** CPU µs per transcript rendered and joined. */
function cpu(render: () => SseEvent[]): number {
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) pacedStream({ events: render(), pacing: UNPACED, end: { kind: "close" }, waitUntil: () => {} });
  return process.cpuUsage(c0).user / N;
}

for (let round = 0; round < Number(values.rounds); round++) {
  const row: string[] = [];
  for (const [label, render] of cases) {
    const bytes = (pacedStream({ events: render(), pacing: UNPACED, end: { kind: "close" }, waitUntil: () => {} }) as string).length;
    row.push(`${label} (${render().length} events, ${(bytes / 1024).toFixed(1)} KB) ${cpu(render).toFixed(1)} µs`);
  }
  console.log(`round ${round + 1}: ${row.join("; ")}`);
}
