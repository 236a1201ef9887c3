/**
 * Canonical reply → the Responses SSE transcript, in the real order: `response.created`, `response.in_progress`,
 * each output item (added → parts and deltas → done), then `response.completed` (or `response.incomplete`) carrying
 * the full response. Every event has `event:` equal to its `type` and a `sequence_number` counting from 0.
 */
import type { Reply } from "../../../canonical/outcome";
import { NO_OBFUSCATION, obfuscationAfter, obfuscationSeed } from "../../../http/ids";
import { jsonString, pieceScan } from "../../../http/json";
import { streamFragments, wordPieces } from "../../../util/text";
import type { Failure } from "../../../scenario/schema";
import type { RenderContext, SseEvent } from "../../types";
import { buildResponse, type MessagePart, type OutputItem, type ResponseObject } from "./render-json";
import type { ResponsesRequest } from "./wire";
import { addedServerToolItem, serverToolEvents } from "./server-tools";

/** Characters of function-call arguments per delta. */
const ARGUMENT_FRAGMENT = 16;

/**
 * One event before numbering: its type, its fields (or, for a delta, the same fields already as JSON: `,"key":…}`,
 * what follows `sequence_number`), and how many words of content it carries.
 */
export type Draft = { type: string; fields: Record<string, unknown>; words?: number } | { type: string; json: string; words?: number };

function emptyPart(part: MessagePart): MessagePart {
  return part.type === "output_text" ? { ...part, text: "", annotations: [] } : { type: "refusal", refusal: "" };
}

function addedItem(item: OutputItem): OutputItem | Record<string, unknown> {
  switch (item.type) {
    case "reasoning":
      return { ...item, summary: [] };
    case "message":
      return { id: item.id, type: "message", status: "in_progress", content: [], role: "assistant" };
    case "function_call":
      return { ...item, status: "in_progress", arguments: "" };
    case "compaction":
      return { ...item, encrypted_content: "" };
    default:
      return addedServerToolItem(item);
  }
}

/** The events one output item streams as, `output_item.added` to `output_item.done`. */
function itemDrafts(item: OutputItem, output_index: number, chunk: number, obfuscate: boolean): Draft[] {
  const at = { item_id: item.id, output_index };
  let deltas = 0;
  // `obfuscation` pads each delta to a 16-character bucket; deterministic from the item id and the delta's position.
  const seed = obfuscate ? obfuscationSeed(`${item.id}#`) : NO_OBFUSCATION;
  // A delta's fields as JSON: `before` (the fields up to `delta`, made once per part), the delta, `after`, the padding.
  const head = `,"item_id":${JSON.stringify(item.id)},"output_index":${output_index}`;
  const delta = (type: string, before: string, piece: string, after: string, words: number, points?: number, plain = false): Draft => {
    const pad = obfuscate ? `,"obfuscation":"${obfuscationAfter(seed, String(deltas++), piece, 16, points)}"` : "";
    return { type, json: `${before}${plain ? `"${piece}"` : jsonString(piece)}${after}${pad}}`, words };
  };
  const out: Draft[] = [{ type: "response.output_item.added", fields: { output_index, item: addedItem(item) } }];
  // A text's deltas, `chunk` words each; one scan of the text for what each piece needs (escaping, its code points).
  const textDeltas = (type: string, before: string, text: string, after: string) => {
    const { plain, counted } = pieceScan(text);
    for (const p of wordPieces(text, chunk)) out.push(delta(type, before, p.text, after, p.words, counted ? p.text.length : undefined, plain));
  };
  switch (item.type) {
    case "reasoning":
      item.summary.forEach((part, summary_index) => {
        const s = { ...at, summary_index };
        out.push({ type: "response.reasoning_summary_part.added", fields: { ...s, part: { type: "summary_text", text: "" } } });
        const before = `${head},"summary_index":${summary_index},"delta":`;
        textDeltas("response.reasoning_summary_text.delta", before, part.text, "");
        out.push({ type: "response.reasoning_summary_text.done", fields: { ...s, text: part.text } });
        out.push({ type: "response.reasoning_summary_part.done", fields: { ...s, part } });
      });
      break;
    case "message":
      item.content.forEach((part, content_index) => {
        const c = { ...at, content_index };
        const before = `${head},"content_index":${content_index},"delta":`;
        out.push({ type: "response.content_part.added", fields: { ...c, part: emptyPart(part) } });
        if (part.type === "output_text") {
          textDeltas("response.output_text.delta", before, part.text, `,"logprobs":[]`);
          // Citations (url_citation, file_citation) arrive after the text, each in its own event, as the API sends them.
          part.annotations.forEach((annotation, annotation_index) => out.push({ type: "response.output_text.annotation.added", fields: { ...c, annotation_index, annotation } }));
          out.push({ type: "response.output_text.done", fields: { ...c, text: part.text, logprobs: [] } });
        } else {
          textDeltas("response.refusal.delta", before, part.refusal, "");
          out.push({ type: "response.refusal.done", fields: { ...c, refusal: part.refusal } });
        }
        out.push({ type: "response.content_part.done", fields: { ...c, part } });
      });
      break;
    case "function_call":
      for (const fragment of streamFragments(item.arguments, ARGUMENT_FRAGMENT)) out.push(delta("response.function_call_arguments.delta", `${head},"delta":`, fragment, "", 1));
      // Recordings carry no `name` here (the item has it).
      out.push({ type: "response.function_call_arguments.done", fields: { ...at, arguments: item.arguments } });
      break;
    case "compaction":
      // `output_item.added` then `done`, nothing between (the SDK's optional `response.compaction.compacting` is not sent).
      break;
    default:
      for (const e of serverToolEvents(item)) out.push({ type: e.type, fields: { ...at, ...e.fields } });
  }
  out.push({ type: "response.output_item.done", fields: { output_index, item } });
  return out;
}

/**
 * Every event of a finished response, unnumbered.
 * @example responseDrafts(final, 1).map((d) => d.type)[0] // "response.created"
 */
export function responseDrafts(final: ResponseObject, chunk: number, obfuscate = true): Draft[] {
  const start: ResponseObject = {
    ...final,
    status: "in_progress",
    completed_at: null,
    incomplete_details: null,
    output: [],
    service_tier: final.service_tier === "default" ? "auto" : final.service_tier,
    usage: null,
  };
  const terminal = final.status === "incomplete" ? "response.incomplete" : "response.completed";
  // `created` and `in_progress` carry the same response: serialised once.
  const started = `,"response":${JSON.stringify(start)}}`;
  // Background mode: `created` and `queued` show it queued, then it starts (a resumed stream numbers events the same).
  const queued = final.background === true ? `,"response":${JSON.stringify({ ...start, status: "queued" })}}` : undefined;
  return [
    ...(queued !== undefined
      ? [
          { type: "response.created", json: queued },
          { type: "response.queued", json: queued },
        ]
      : [{ type: "response.created", json: started }]),
    { type: "response.in_progress", json: started },
    ...final.output.flatMap((item, i) => itemDrafts(item, i, chunk, obfuscate)),
    { type: terminal, fields: { response: final } },
  ];
}

/**
 * An event of the transcript, numbered: its `data` is written from its draft each time it is read (once, when it is
 * sent), never kept, so a long answer's events hold their drafts and no second copy of their JSON (a 10 MB text's
 * done events alone are 40 MB of it).
 */
class DraftEvent implements SseEvent {
  readonly oneLine = true;
  readonly event: string;
  readonly words: number | undefined;
  readonly #draft: Draft;
  readonly #sequence: number;

  constructor(draft: Draft, sequence: number) {
    this.event = draft.type;
    this.words = draft.words;
    this.#draft = draft;
    this.#sequence = sequence;
  }

  get data(): string {
    const d = this.#draft;
    return "json" in d ? `{"type":${JSON.stringify(d.type)},"sequence_number":${this.#sequence}${d.json}` : JSON.stringify({ type: d.type, sequence_number: this.#sequence, ...d.fields });
  }
}

/**
 * Numbers drafts from `first` as events with `event:` lines equal to their `type`. Every `data` is JSON text, so one
 * line (`oneLine`: the encoder does not look for newlines to split).
 */
export function toSse(drafts: Draft[], first = 0): SseEvent[] {
  return drafts.map((d, i) => new DraftEvent(d, first + i));
}

export function renderResponseEvents(reply: Reply, ctx: RenderContext<ResponsesRequest>): SseEvent[] {
  const obfuscate = ctx.wire.body.stream_options?.include_obfuscation !== false;
  return toSse(responseDrafts(buildResponse(reply, ctx), reply.pacing.chunkWords, obfuscate));
}

/**
 * A mid-stream failure: an `error` event, then `response.failed` carrying the items finished before the break and
 * `error: { code, message }` (the AI SDK reports one error part for both). The live API nests the `error` event's
 * fields under `error` (the API reference shows them flat): openai-node 5+ throws on a top-level `error` key, and
 * `@ai-sdk/openai` 2 parses only the nested shape, so a flat event goes unnoticed by both.
 */
export function renderResponseStreamError(failure: Extract<Failure, { kind: "stream_error" }>, ctx: RenderContext<ResponsesRequest>, reply: Reply, sent: SseEvent[]): SseEvent[] {
  const code = failure.errorType ?? "server_error";
  const message =
    failure.message ??
    `An error occurred while processing your request. You can retry your request, or contact us through our help center at help.openai.com if the error persists. Please include the request ID ${ctx.requestId} in your message.`;
  const final = buildResponse(reply, ctx);
  const done = responseDrafts(final, reply.pacing.chunkWords)
    .slice(0, sent.length)
    .flatMap((d) => (d.type === "response.output_item.done" && "fields" in d ? [d.fields.item] : []));
  const failed = {
    ...final,
    status: "failed",
    completed_at: null,
    error: { code, message },
    incomplete_details: null,
    output: done,
    service_tier: final.service_tier === "default" ? "auto" : final.service_tier,
    usage: null,
  };
  return toSse(
    [
      { type: "error", fields: { error: { type: code, code, message, param: null } } },
      { type: "response.failed", fields: { response: failed } },
    ],
    sent.length,
  );
}
