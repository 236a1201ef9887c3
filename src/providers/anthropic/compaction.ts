/**
 * Anthropic threshold compaction (beta `compact-2026-01-12`, protocols.md 10.2.1): the `compact_20260112` edit of
 * `context_management`, the `compaction` block an answer starts with when the input reaches its trigger (or a step
 * scripts one), and the usage `iterations` such an answer reports.
 */
import { replyCompaction } from "../../canonical/compaction";
import type { Reply } from "../../canonical/outcome";
import type { CanonicalRequest } from "../../canonical/request";
import { apiError, type ApiError } from "../../http/errors";
import { wordCount } from "../../util/text";
import type { RenderContext } from "../types";
import type { MessagesRequest } from "./wire";
import { isRecord } from "../../http/json";
import { appliedClearing, type AppliedEdit } from "./context-editing";

export const COMPACT_EDIT = "compact_20260112";
/** The trigger when the edit gives none, and the least one the API takes. */
export const DEFAULT_TRIGGER = 150_000;
export const MIN_TRIGGER = 50_000;

interface CompactEdit {
  trigger: number;
  pause: boolean;
}

/** The request's `compact_20260112` edit, or an error in the API's wording for a bad trigger. */
export function compactEdit(wire: Pick<MessagesRequest, "context_management">): CompactEdit | ApiError | undefined {
  const edits = wire.context_management?.edits ?? [];
  const at = edits.findIndex((e) => e.type === COMPACT_EDIT);
  if (at < 0) return undefined;
  const edit = edits[at]!;
  const path = `context_management.edits.${at}`;
  let trigger = DEFAULT_TRIGGER;
  if (edit.trigger !== undefined && edit.trigger !== null) {
    const value = isRecord(edit.trigger) ? edit.trigger.value : undefined;
    if (!isRecord(edit.trigger) || edit.trigger.type !== "input_tokens") {
      return apiError("invalid_request", `${path}.trigger.type: Input should be 'input_tokens'`);
    }
    if (typeof value !== "number" || !Number.isInteger(value)) return apiError("invalid_request", `${path}.trigger.value: Input should be a valid integer`);
    if (value < MIN_TRIGGER) return apiError("invalid_request", `${path}.trigger.value: Input should be greater than or equal to ${MIN_TRIGGER}`);
    trigger = value;
  }
  return { trigger, pause: edit.pause_after_compaction === true };
}

/** The canonical fields the edit and the blocks sent back set: `compactThreshold`. */
export function withCompactThreshold(request: CanonicalRequest, edit: CompactEdit | undefined): CanonicalRequest {
  return edit ? { ...request, compactThreshold: edit.trigger } : request;
}

/** The compaction an answer starts with, and whether the answer stops after it (`stop_reason: "compaction"`). */
export interface AnswerCompaction {
  summary: string;
  pause: boolean;
}

/**
 * Whether the answer to `ctx` starts with a compaction block: a scripted compaction, or the input reaching the edit's
 * trigger. It pauses with `pause_after_compaction`, or when the reply has nothing else to say.
 */
export function answerCompaction(reply: Reply, ctx: RenderContext<MessagesRequest>): AnswerCompaction | undefined {
  const compaction = replyCompaction(reply, ctx.request);
  if (!compaction) return undefined;
  const edit = compactEdit(ctx.wire);
  const pause = (edit !== undefined && !("code" in edit) && edit.pause) || (reply.text === undefined && reply.refusal === undefined && reply.toolCalls.length === 0 && reply.reasoning.length === 0);
  return { summary: compaction.summary, pause };
}

/** `usage.iterations` of a compacted answer: the compaction pass, then the message (whose figures the top level has). */
export function iterations(reply: Reply, compaction: AnswerCompaction) {
  const u = reply.usage;
  const pass = {
    type: "compaction",
    input_tokens: u.inputTokens,
    output_tokens: Math.max(1, wordCount(compaction.summary)),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: null,
  };
  if (compaction.pause) return [pass];
  const message = {
    type: "message",
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_creation_input_tokens: u.cacheWriteTokens,
    cache_read_input_tokens: u.cacheReadTokens,
    cache_creation: null,
    model: reply.model,
  };
  return [pass, message];
}

/**
 * `context_management` of the answer, when the request had one: the clearing edits that applied (context-editing.ts),
 * measured against the reply's input tokens as the compaction trigger is.
 */
export function appliedEdits(reply: Reply, ctx: RenderContext<MessagesRequest>): { context_management?: { applied_edits: AppliedEdit[] } } {
  if (!ctx.wire.context_management) return {};
  return { context_management: { applied_edits: appliedClearing(ctx.wire, ctx.request, reply.usage.inputTokens) } };
}
