/**
 * Canonical reply → one `GenerateContentResponse`: `candidates[0].content.parts`, `finishReason`,
 * `usageMetadata`, `modelVersion`, `responseId`. Shared by the JSON and SSE renderers.
 *
 * Part order: thoughts (`{ text, thought: true }`), then text (then the refusal text), then a generated image or
 * speech (`inlineData`, media-output.ts), then `functionCall`s.
 * Further assistant messages (`extraChoices`) append their parts, as Anthropic appends blocks: Gemini clients
 * read `candidates[0]` only. Redacted reasoning has no Gemini form and is left out.
 *
 * A scripted reasoning `signature` is the message's `thoughtSignature`, placed where the real API puts it: on the
 * first `functionCall` part, else on the last text part (streams send it on a trailing `{ text: "" }` part), never
 * on a `thought: true` part. A Gemini 3 answer always carries one there: unless scripted, a deterministic one
 * (signatures.ts).
 */
import { replyChoices, type Reply } from "../../canonical/outcome";
import { makeId } from "../../http/ids";
import type { RawBody, RenderContext } from "../types";
import type { GeminiWire } from "./wire";
import { signsThoughts, thoughtSignatureFor } from "./signatures";
import { candidateSafety, promptBlocked } from "./safety";
import { argumentsObject } from "../../http/json";
import { candidateMetadata, codeParts } from "./server-tools";
import { replyMedia, speechBase64Length, speechLength, speechMedia, speechPieces, type InlineMedia } from "./media-output";
import { WHOLE_BODY_LIMIT } from "../../http/byte-source";

/** A part of the reply, tagged; `wirePart` gives its wire form. */
export type OutPart =
  | { kind: "thought"; text: string }
  | { kind: "text"; text: string; signature?: string }
  | { kind: "call"; id?: string; name: string; args: Record<string, unknown>; signature?: string }
  /** A server-side code run's part (`executableCode`, `codeExecutionResult`), sent as is (server-tools.ts). */
  | { kind: "code"; part: Record<string, unknown> }
  /** A generated image or speech (media-output.ts): `inlineData`. */
  | { kind: "media"; media: InlineMedia; signature?: string };

/** The wire form of a part: `{ text, thought: true }`, `{ text, thoughtSignature? }` or `{ functionCall, thoughtSignature? }`. */
export function wirePart(p: OutPart): Record<string, unknown> {
  switch (p.kind) {
    case "thought":
      return { text: p.text, thought: true };
    case "text":
      return { text: p.text, ...(p.signature !== undefined ? { thoughtSignature: p.signature } : {}) };
    case "call":
      // Gemini calls carry no id unless one is scripted; clients answer by function name.
      return {
        functionCall: { ...(p.id !== undefined ? { id: p.id } : {}), name: p.name, args: p.args },
        ...(p.signature !== undefined ? { thoughtSignature: p.signature } : {}),
      };
    case "code":
      return p.part;
    case "media":
      return { inlineData: { mimeType: p.media.mimeType, data: p.media.data }, ...(p.signature !== undefined ? { thoughtSignature: p.signature } : {}) };
  }
}

/** Finish message of a candidate that ends in function calls, as the real API words it. */
export const FUNCTION_CALL_FINISH_MESSAGE = "Model generated function call(s).";

export type GeminiFinishReason = "STOP" | "MAX_TOKENS" | "SAFETY";

/** `responseId`: 22 base62 characters, deterministic from the reply's id seed. */
export function responseId(reply: Reply): string {
  return makeId("", `gemini|${reply.idSeed}`, 22);
}

/**
 * The message's thought signature: its first scripted reasoning signature; else, when `model` is a Gemini 3 model,
 * one derived from the message's id seed.
 */
export function thoughtSignature(reply: Reply, model: string): string | undefined {
  for (const r of reply.reasoning) if (r.type === "thinking" && r.signature !== undefined) return r.signature;
  return signsThoughts(model) ? thoughtSignatureFor(reply.idSeed) : undefined;
}

/**
 * One message's parts; `model` is the answering model (an appended message's own `model` is not read). An image or
 * speech comes after the text (an empty text is left out beside it) and carries the signature when no call or text does.
 */
function messageParts(reply: Reply, model: string, media?: InlineMedia): OutPart[] {
  const parts: OutPart[] = reply.reasoning.flatMap((r): OutPart[] => (r.type === "thinking" ? [{ kind: "thought", text: r.text }] : []));
  const texts: { kind: "text"; text: string; signature?: string }[] = [];
  if (reply.text !== undefined && (reply.text !== "" || media === undefined)) texts.push({ kind: "text", text: reply.text });
  if (reply.refusal !== undefined) texts.push({ kind: "text", text: reply.refusal });
  const inline: { kind: "media"; media: InlineMedia; signature?: string }[] = media === undefined ? [] : [{ kind: "media", media }];
  const calls: OutPart[] = reply.toolCalls.map((c) => ({
    kind: "call",
    ...(c.id !== undefined ? { id: c.id } : {}),
    name: c.name,
    // Streams send the same object: Gemini never splits a function call.
    args: argumentsObject(c.arguments),
  }));
  const signature = thoughtSignature(reply, model);
  if (signature !== undefined) {
    const first = calls[0];
    const last = texts[texts.length - 1];
    if (first?.kind === "call") first.signature = signature;
    else if (last) last.signature = signature;
    else if (inline[0]) inline[0].signature = signature;
    else texts.push({ kind: "text", text: "", signature });
  }
  const code: OutPart[] = codeParts(reply).map((part) => ({ kind: "code", part }));
  return [...parts, ...code, ...texts, ...inline, ...calls];
}

/** The reply's parts (its image or speech, `replyMedia`, with the first message's), then those of its `extraChoices`, in order. */
export function replyParts(reply: Reply, media?: InlineMedia): OutPart[] {
  return replyChoices(reply).flatMap((c, i) => messageParts(c, reply.model, i === 0 ? media : undefined));
}

/**
 * stop→STOP, length→MAX_TOKENS, content_filter→SAFETY; tool calls end with STOP, as the real API does
 * (it has no tool-call finish reason). A scripted refusal is plain model text and ends with STOP too.
 */
export function finishReason(reply: Reply): GeminiFinishReason {
  switch (reply.finishReason) {
    case "length":
      return "MAX_TOKENS";
    case "content_filter":
      return "SAFETY";
    default:
      return "STOP";
  }
}

/**
 * `usageMetadata` as the real API sends it: `candidatesTokenCount` excludes thinking, which is
 * `thoughtsTokenCount`; the total is prompt + candidates + thoughts. Zero counts of optional fields are
 * omitted, as proto JSON omits them. `share` (0..1) gives a stream chunk's running count: candidates so far. An image
 * or speech answer's tokens (`media`, media-output.ts; a stream counts them as its chunks go) count on top of the
 * reply's text, broken down by modality (`candidatesTokensDetails`); beside media, a reply with no text, refusal or
 * call counts no text tokens (the figure a script's default usage gives is its text's).
 */
export function usageMetadata(reply: Reply, share = 1, media?: { modality: string; tokens: number }): Record<string, unknown> {
  const u = reply.usage;
  const thoughts = Math.min(u.reasoningTokens, u.outputTokens);
  const textless = media !== undefined && !reply.text && reply.refusal === undefined && reply.toolCalls.length === 0;
  const text = textless ? 0 : Math.round((u.outputTokens - thoughts) * share);
  const inline = media?.tokens ?? 0;
  const candidates = text + inline;
  return {
    promptTokenCount: u.inputTokens,
    ...(candidates > 0 || share === 1 ? { candidatesTokenCount: candidates } : {}),
    totalTokenCount: u.inputTokens + candidates + thoughts,
    ...(u.cacheReadTokens > 0 ? { cachedContentTokenCount: u.cacheReadTokens } : {}),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: u.inputTokens }],
    ...(u.cacheReadTokens > 0 ? { cacheTokensDetails: [{ modality: "TEXT", tokenCount: u.cacheReadTokens }] } : {}),
    ...(inline > 0 ? { candidatesTokensDetails: [{ modality: media!.modality, tokenCount: inline }, ...(text > 0 ? [{ modality: "TEXT", tokenCount: text }] : [])] } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}

/** Whether the reply (or an appended message) ends in function calls: its finish then carries `finishMessage`. */
export function endsInCalls(reply: Reply): boolean {
  return finishReason(reply) === "STOP" && replyChoices(reply).some((c) => c.toolCalls.length > 0);
}

/**
 * One response object: the given parts in `candidates[0]`, the finish reason (and `finishMessage` after a
 * function call) when `finish` is given, and `usage` — real streams send `usageMetadata` on every chunk.
 */
export function responseObject(reply: Reply, parts: OutPart[], usage: Record<string, unknown>, finish?: GeminiFinishReason, vertex = false): Record<string, unknown> {
  if (reply.safety?.on === "prompt") return promptBlocked(reply, reply.safety, responseId(reply), vertex);
  const candidate: Record<string, unknown> = { content: { parts: parts.map(wirePart), role: "model" } };
  if (finish) candidate.finishReason = finish;
  candidate.index = 0;
  if (finish && endsInCalls(reply)) candidate.finishMessage = FUNCTION_CALL_FINISH_MESSAGE;
  if (finish) Object.assign(candidate, candidateSafety(reply, vertex));
  if (finish && reply.serverTools !== undefined) Object.assign(candidate, candidateMetadata(reply));
  return {
    candidates: [candidate],
    usageMetadata: usage,
    modelVersion: reply.model,
    responseId: responseId(reply),
  };
}

/** Whether `ctx` is a Vertex AI request (its safety ratings carry scores). */
export function isVertex(ctx: RenderContext<GeminiWire> | undefined): boolean {
  return ctx?.request.provider === "vertex";
}

/**
 * The non-streaming body (a blocked prompt: `promptFeedback` and no candidates, src/providers/gemini/safety.ts);
 * `media` is the reply's image or speech (`replyMedia`; a body sent as it is made passes one with a mark for its data).
 * @example renderGenerateContentJson(reply, ctx) // { candidates: [{ content: { parts: [{ text: "Hi" }], role: "model" }, finishReason: "STOP", index: 0 }], … }
 */
export function renderGenerateContentJson(reply: Reply, ctx?: RenderContext<GeminiWire>, media = replyMedia(reply, ctx)): Record<string, unknown> {
  return responseObject(reply, replyParts(reply, media), usageMetadata(reply, 1, media), finishReason(reply), isVertex(ctx));
}

/**
 * Stands for a speech answer's base64 in its body's JSON until the pieces take its place. Found as the value of a
 * `"data"` key: a text holding the same characters has its quotes escaped, and the only parts before the audio's are
 * thoughts, code runs and texts (calls, whose arguments could hold such a key, come after it).
 */
const SPEECH_MARK = "\u0000mockllm:speech\u0000";

/**
 * A speech answer past WHOLE_BODY_LIMIT as pieces made as they are sent (the audio a second at a time), byte for byte
 * the JSON `renderGenerateContentJson` makes; undefined for any other answer.
 */
export function renderSpeechRaw(reply: Reply, ctx: RenderContext<GeminiWire>): RawBody | undefined {
  if (reply.image !== undefined || reply.speech === undefined || ctx.wire.method !== "generateContent") return undefined;
  const length = speechLength(reply, ctx);
  if (speechBase64Length(length) <= WHOLE_BODY_LIMIT) return undefined;
  const text = JSON.stringify(renderGenerateContentJson(reply, ctx, speechMedia(length, SPEECH_MARK)));
  const marked = `"data":${JSON.stringify(SPEECH_MARK)}`;
  const at = text.indexOf(marked);
  if (at < 0) return undefined;
  function* pieces(): Generator<string> {
    yield text.slice(0, at + '"data":"'.length);
    yield* speechPieces(length);
    yield text.slice(at + marked.length - 1);
  }
  return { body: { pieces }, contentType: "application/json" };
}
