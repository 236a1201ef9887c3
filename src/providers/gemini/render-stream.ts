/**
 * Canonical reply → the `streamGenerateContent?alt=sse` transcript: `data: {GenerateContentResponse}` events,
 * no `event:` lines and no terminator. Each chunk carries only new parts: text and thoughts in pieces of
 * `chunkWords` words, each function call whole in its own chunk (the first one with the `thoughtSignature`);
 * a signature that belongs after text comes on a trailing `{ text: "", thoughtSignature }` part, as recorded.
 * Every chunk carries `usageMetadata` with the running `candidatesTokenCount`; the last one also carries
 * `finishReason` (and `finishMessage` after function calls) and the final counts.
 */
import type { Reply } from "../../canonical/outcome";
import { wordPieces } from "../../util/text";
import type { Failure } from "../../scenario/schema";
import type { RenderContext, SseEvent } from "../types";
import { GEMINI_FAILURE_MESSAGES, STATUS_CODES } from "./errors";
import { finishReason, isVertex, replyParts, responseObject, usageMetadata, type OutPart } from "./render-json";
import type { GeminiWire } from "./wire";
import { mediaPieceRanges, replyMedia, type InlineMedia } from "./media-output";

interface Piece {
  part: OutPart;
  words: number;
}

function pieces(part: OutPart, chunk: number): Piece[] {
  if (part.kind === "call" || part.kind === "code") return [{ part, words: 1 }];
  // An image is sent whole, after the text, speech a second at a time; they count no words (their tokens are their own).
  if (part.kind === "media") return mediaPieces(part);
  const texts = wordPieces(part.text, chunk).map((p): Piece => ({ part: { kind: part.kind, text: p.text }, words: p.words }));
  if (part.kind === "text" && part.signature !== undefined) {
    texts.push({ part: { kind: "text", text: "", signature: part.signature }, words: 0 });
  }
  return texts;
}

/** A media part's chunks: an image whole; speech a second of audio a chunk, each with its share of the tokens. */
function mediaPieces(part: Extract<OutPart, { kind: "media" }>): Piece[] {
  const { media } = part;
  const ranges = mediaPieceRanges(media.modality, media.data.length);
  if (ranges.length === 1) return [{ part, words: 0 }];
  const out: Piece[] = [];
  const total = media.data.length;
  for (const [at, end] of ranges) {
    const tokens = Math.round((media.tokens * end) / total) - Math.round((media.tokens * at) / total);
    const piece: Extract<OutPart, { kind: "media" }> = { kind: "media", media: { ...media, data: media.data.slice(at, end), tokens } };
    if (at === 0 && part.signature !== undefined) piece.signature = part.signature;
    out.push({ part: piece, words: 0 });
  }
  return out;
}

/**
 * The chunks as response objects, with their word counts; never empty. A generated image (`replyMedia`) is one chunk,
 * whole; speech a chunk a second.
 */
export function streamChunks(reply: Reply, vertex = false, media?: InlineMedia): { object: Record<string, unknown>; words: number }[] {
  // A blocked prompt is one chunk: `promptFeedback`, no candidates.
  if (reply.safety?.on === "prompt") return [{ object: responseObject(reply, [], usageMetadata(reply), undefined, vertex), words: 0 }];
  const all = replyParts(reply, media).flatMap((p) => pieces(p, reply.pacing.chunkWords));
  // An empty reply still ends with one chunk, holding an empty text part.
  if (all.length === 0) all.push({ part: { kind: "text", text: "" }, words: 0 });
  // Running candidate count: the share of answer words (thoughts are counted apart) sent so far.
  const answerWords = all.reduce((n, p) => n + (p.part.kind === "thought" ? 0 : p.words), 0);
  let sent = 0;
  let mediaTokens = 0;
  return all.map((p, i) => {
    const last = i === all.length - 1;
    if (p.part.kind !== "thought") sent += p.words;
    if (p.part.kind === "media") mediaTokens += p.part.media.tokens;
    const usage = usageMetadata(reply, last || answerWords === 0 ? 1 : sent / answerWords, media && { modality: media.modality, tokens: mediaTokens });
    return { object: responseObject(reply, [p.part], usage, last ? finishReason(reply) : undefined, vertex), words: p.words };
  });
}

/**
 * The whole transcript, the finishing chunk last.
 * @example renderGenerateContentEvents(reply, ctx).map((e) => JSON.parse(e.data).candidates[0].content.parts)
 */
export function renderGenerateContentEvents(reply: Reply, ctx: RenderContext<GeminiWire>): SseEvent[] {
  return streamChunks(reply, isVertex(ctx), replyMedia(reply, ctx)).map((c) => ({ data: JSON.stringify(c.object), ...(c.words > 0 ? { words: c.words } : {}) }));
}

/**
 * `data: {"error":{code,message,status}}` after the 200 status line; js-genai throws an ApiError with that
 * code when a stream event holds an `error` object. `errorType` picks the google.rpc status (default
 * `UNAVAILABLE`, 503, the real API's overload).
 */
export function renderGenerateContentStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  const status = failure.errorType ?? "UNAVAILABLE";
  const code = STATUS_CODES[status] ?? 500;
  const message = failure.message ?? (status === "UNAVAILABLE" ? GEMINI_FAILURE_MESSAGES.overloaded : GEMINI_FAILURE_MESSAGES.model_error);
  return { data: JSON.stringify({ error: { code, message, status } }) };
}
