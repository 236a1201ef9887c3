/**
 * Canonical reply → Cohere's v1 Chat answers, in the shapes captured from the API (langtrace's and Discourse's
 * recordings; docs/providers/fidelity.md "Cohere Chat v1"):
 *  - JSON: `{ response_id, text, generation_id, chat_history, finish_reason, meta, tool_calls?, citations?,
 *    documents? }` — `chat_history` is the request's history with this turn appended (its tool results, its message,
 *    the chatbot's answer); a turn that calls tools has its plan as `text` and `tool_calls: [{ name, parameters }]`.
 *  - Stream (`application/stream+json`, one JSON object a line, each with `is_finished` and `event_type`):
 *    `stream-start`, `text-generation`s, a `citation-generation`; or, calling tools, `tool-calls-chunk`s (the plan's
 *    text, each call's name, its parameters in fragments) and one `tool-calls-generation`; then `stream-end` carrying
 *    the whole answer and the `finish_reason`.
 */
import type { Reply } from "../../canonical/outcome";
import { argumentsObject } from "../../http/json";
import { streamFragments, wordPieces } from "../../util/text";
import type { Failure } from "../../scenario/schema";
import type { RenderContext, SseEvent } from "../types";
import { answerCitations } from "./chat-citations";
import { ARGUMENT_FRAGMENT, cohereTurn, cohereUsage, type CohereTurn } from "./chat-render";
import type { CohereChatV1Request } from "./chat-v1-parse";
import { COHERE_FAILURE_MESSAGES } from "./errors";
import { rerankId } from "./render";

/** v1's finish reasons: a filtered answer is `ERROR_TOXIC`; a turn that calls tools is `COMPLETE`. */
function finishReason(reply: Reply): string {
  if (reply.stopSequence !== undefined) return "STOP_SEQUENCE";
  if (reply.finishReason === "length") return "MAX_TOKENS";
  if (reply.finishReason === "content_filter") return "ERROR_TOXIC";
  return "COMPLETE";
}

function v1ToolCalls(turn: CohereTurn) {
  return turn.toolCalls.map((c) => ({ name: c.function.name, parameters: argumentsObject(c.function.arguments) }));
}

/**
 * The citations (`document_ids`) of the request's `documents` (flat records, id `doc_{i}` unless they have one) and
 * the documents cited; none with `citation_quality` `OFF` or `DISABLED`.
 */
function citationsOf(turn: CohereTurn, ctx: RenderContext<CohereChatV1Request>) {
  const { documents, citation_quality } = ctx.wire.body;
  const wrapped = documents?.map((d, i) => ({ id: typeof d.id === "string" && d.id !== "" ? d.id : `doc_${i}`, data: d }));
  const found = answerCitations(turn.text, turn.toolCalls.length > 0, wrapped, citation_quality);
  if (found.length === 0) return undefined;
  const cited = new Map(found.map((c) => [c.sources[0]!.id, c.sources[0]!.document]));
  return { citations: found.map((c) => ({ start: c.start, end: c.end, text: c.text, document_ids: [c.sources[0]!.id] })), documents: [...cited.values()] };
}

/** The whole answer: the JSON body, and what `stream-end` carries. */
function response(reply: Reply, turn: CohereTurn, ctx: RenderContext<CohereChatV1Request>): Record<string, unknown> {
  const { body } = ctx.wire;
  const calls = v1ToolCalls(turn);
  const usage = cohereUsage(reply);
  const history = [
    ...(body.chat_history ?? []),
    ...(body.tool_results?.length ? [{ role: "TOOL", tool_results: body.tool_results }] : []),
    ...(body.message !== "" ? [{ role: "USER", message: body.message }] : []),
    { role: "CHATBOT", message: turn.text, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
  ];
  return {
    response_id: rerankId(`response|${reply.idSeed}`),
    text: turn.text,
    generation_id: rerankId(reply.idSeed),
    chat_history: history,
    finish_reason: finishReason(reply),
    meta: { api_version: { version: "1" }, ...usage },
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
    ...citationsOf(turn, ctx),
  };
}

export function renderCohereChatV1Json(reply: Reply, ctx: RenderContext<CohereChatV1Request>): unknown {
  return response(reply, cohereTurn(reply), ctx);
}

function line(eventType: string, fields: Record<string, unknown>, words = 0, finished = false): SseEvent {
  return { data: JSON.stringify({ is_finished: finished, event_type: eventType, ...fields }), oneLine: true, ...(words > 0 ? { words } : {}) };
}

/**
 * The stream's lines.
 * @example renderCohereChatV1Events(reply, ctx).map((e) => JSON.parse(e.data).event_type) // ["stream-start", "text-generation", …, "stream-end"]
 */
export function renderCohereChatV1Events(reply: Reply, ctx: RenderContext<CohereChatV1Request>): SseEvent[] {
  const turn = cohereTurn(reply);
  const whole = response(reply, turn, ctx);
  const n = reply.pacing.chunkWords;
  const out = [line("stream-start", { generation_id: whole.generation_id })];
  if (turn.toolCalls.length === 0) {
    for (const p of wordPieces(turn.text, n)) out.push(line("text-generation", { text: p.text }, p.words));
    if (whole.citations !== undefined) out.push(line("citation-generation", { citations: whole.citations }));
  } else {
    for (const p of wordPieces(turn.text, n)) out.push(line("tool-calls-chunk", { text: p.text }, p.words));
    turn.toolCalls.forEach((call, index) => {
      out.push(line("tool-calls-chunk", { tool_call_delta: { index, name: call.function.name } }, 1));
      for (const parameters of streamFragments(JSON.stringify(argumentsObject(call.function.arguments)), ARGUMENT_FRAGMENT)) {
        out.push(line("tool-calls-chunk", { tool_call_delta: { index, parameters } }, 1));
      }
    });
    out.push(line("tool-calls-generation", { ...(turn.text !== "" ? { text: turn.text } : {}), tool_calls: whole.tool_calls }));
  }
  out.push(line("stream-end", { response: whole, finish_reason: whole.finish_reason }, 0, true));
  return out;
}

/**
 * A failure mid-stream: `stream-end` with `finish_reason: "ERROR"`, the answer so far (empty), and the message in
 * `error` (v1's answer has no field for it; the client passes unknown fields through).
 */
export function renderCohereChatV1StreamError(failure: Extract<Failure, { kind: "stream_error" }>, _ctx: RenderContext<CohereChatV1Request>, reply: Reply): SseEvent {
  const message = failure.message ?? COHERE_FAILURE_MESSAGES.model_error;
  const response = { response_id: rerankId(`response|${reply.idSeed}`), text: "", generation_id: rerankId(reply.idSeed), finish_reason: "ERROR", meta: { api_version: { version: "1" } } };
  return line("stream-end", { response, finish_reason: "ERROR", error: message }, 0, true);
}
