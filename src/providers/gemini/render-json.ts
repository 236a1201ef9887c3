/**
 * Canonical reply → one `GenerateContentResponse`: `candidates[0].content.parts`, `finishReason`,
 * `usageMetadata`, `modelVersion`, `responseId`. Shared by the JSON and SSE renderers.
 *
 * Part order: thoughts (`{ text, thought: true }`), then text (then the refusal text), then `functionCall`s.
 * Further assistant messages (`extraChoices`) append their parts, as Anthropic appends blocks: Gemini clients
 * read `candidates[0]` only. Redacted reasoning has no Gemini form and is left out.
 */
import { replyChoices, type Reply } from "../../canonical/outcome";
import { makeId } from "../../http/ids";
import type { RenderContext } from "../types";
import type { GeminiWire } from "./wire";
import { parseJsonBounded } from "../../http/json-depth";

/** A part of the reply, tagged; `wirePart` gives its wire form. */
export type OutPart =
  | { kind: "thought"; text: string; signature?: string }
  | { kind: "text"; text: string }
  | { kind: "call"; id?: string; name: string; args: Record<string, unknown> };

/** The wire form of a part: `{ text, thought: true, thoughtSignature? }`, `{ text }` or `{ functionCall }`. */
export function wirePart(p: OutPart): Record<string, unknown> {
  switch (p.kind) {
    case "thought":
      return { text: p.text, thought: true, ...(p.signature !== undefined ? { thoughtSignature: p.signature } : {}) };
    case "text":
      return { text: p.text };
    case "call":
      // Gemini calls carry no id unless one is scripted; clients answer by function name.
      return { functionCall: { ...(p.id !== undefined ? { id: p.id } : {}), name: p.name, args: p.args } };
  }
}

export type GeminiFinishReason = "STOP" | "MAX_TOKENS" | "SAFETY";

/** `responseId`: 22 base62 characters, deterministic from the reply's id seed. */
export function responseId(reply: Reply): string {
  return makeId("", `gemini|${reply.idSeed}`, 22);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The `args` object for scripted arguments. Arguments that are not a JSON object (invalid JSON, an array, a
 * scalar) cannot be `args`, so the raw text is wrapped as `{ "INVALID_JSON": "<text>" }`, as on the Anthropic
 * surface; streams send the same object (Gemini never splits a function call).
 */
export function functionArgs(args: string): Record<string, unknown> {
  try {
    const v = parseJsonBounded(args);
    if (isObject(v)) return v;
  } catch {
    // fall through
  }
  return { INVALID_JSON: args };
}

function messageParts(reply: Reply): OutPart[] {
  const parts: OutPart[] = reply.reasoning.flatMap((r): OutPart[] =>
    r.type === "thinking" ? [{ kind: "thought", text: r.text, ...(r.signature !== undefined ? { signature: r.signature } : {}) }] : [],
  );
  if (reply.text !== undefined) parts.push({ kind: "text", text: reply.text });
  if (reply.refusal !== undefined) parts.push({ kind: "text", text: reply.refusal });
  for (const c of reply.toolCalls) {
    parts.push({ kind: "call", ...(c.id !== undefined ? { id: c.id } : {}), name: c.name, args: functionArgs(c.arguments) });
  }
  return parts;
}

/** The reply's parts, then those of its `extraChoices`, in order. */
export function replyParts(reply: Reply): OutPart[] {
  return replyChoices(reply).flatMap(messageParts);
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
 * omitted, as proto JSON omits them.
 */
export function usageMetadata(reply: Reply): Record<string, unknown> {
  const u = reply.usage;
  const thoughts = Math.min(u.reasoningTokens, u.outputTokens);
  return {
    promptTokenCount: u.inputTokens,
    candidatesTokenCount: u.outputTokens - thoughts,
    totalTokenCount: u.inputTokens + u.outputTokens,
    ...(u.cacheReadTokens > 0 ? { cachedContentTokenCount: u.cacheReadTokens } : {}),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: u.inputTokens }],
    ...(u.cacheReadTokens > 0 ? { cacheTokensDetails: [{ modality: "TEXT", tokenCount: u.cacheReadTokens }] } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}

/** One response object: the given parts in `candidates[0]`, with the finish reason and usage when given. */
export function responseObject(
  reply: Reply,
  parts: OutPart[],
  end?: { finishReason: GeminiFinishReason; usage: Record<string, unknown> },
): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { parts: parts.map(wirePart), role: "model" } };
  if (end) candidate.finishReason = end.finishReason;
  candidate.index = 0;
  return {
    candidates: [candidate],
    ...(end ? { usageMetadata: end.usage } : {}),
    modelVersion: reply.model,
    responseId: responseId(reply),
  };
}

/**
 * The non-streaming body.
 * @example renderGenerateContentJson(reply, ctx) // { candidates: [{ content: { parts: [{ text: "Hi" }], role: "model" }, finishReason: "STOP", index: 0 }], … }
 */
export function renderGenerateContentJson(reply: Reply, _ctx?: RenderContext<GeminiWire>): Record<string, unknown> {
  return responseObject(reply, replyParts(reply), { finishReason: finishReason(reply), usage: usageMetadata(reply) });
}
