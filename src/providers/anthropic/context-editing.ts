/**
 * Anthropic's context editing (beta `context-management-2025-06-27`): the `clear_tool_uses_20250919` and
 * `clear_thinking_20251015` edits of `context_management`, checked when the request is read and applied when it is
 * answered — which of the conversation's tool uses and thinking turns the API would clear before the model saw the
 * prompt, reported as `context_management.applied_edits` (and by `count_tokens` as the count after clearing beside
 * `original_input_tokens`). The client keeps its whole history; nothing sent is changed, and the reply is the
 * script's. Tokens cleared are counted as `count_tokens` counts (⌈characters / 4⌉).
 */
import type { CanonicalRequest } from "../../canonical/request";
import { apiError, type ApiError } from "../../http/errors";
import { isRecord } from "../../http/json";
import type { MessagesRequest } from "./wire";

export const CLEAR_TOOL_USES = "clear_tool_uses_20250919";
export const CLEAR_THINKING = "clear_thinking_20251015";

/** The defaults the API documents: clear once the input reaches 100,000 tokens, keeping the 3 latest tool uses; thinking of the last turn kept. */
const DEFAULT_TRIGGER = 100_000;
const DEFAULT_KEEP_TOOL_USES = 3;
const DEFAULT_KEEP_THINKING_TURNS = 1;

type Threshold = { type: "input_tokens" | "tool_uses"; value: number };

export type ClearingEdit =
  | { type: typeof CLEAR_TOOL_USES; trigger: Threshold; keep: number; clearAtLeast: number; exclude: string[]; clearInputs: boolean | string[] }
  | { type: typeof CLEAR_THINKING; keep: number | "all" };

export type AppliedEdit =
  | { type: typeof CLEAR_TOOL_USES; cleared_tool_uses: number; cleared_input_tokens: number }
  | { type: typeof CLEAR_THINKING; cleared_thinking_turns: number; cleared_input_tokens: number };

const NONE: readonly ClearingEdit[] = Object.freeze([]);
const invalid = (message: string): ApiError => apiError("invalid_request", message);
const tokens = (text: string): number => Math.ceil(text.length / 4);

/** `{ type, value }` with `type` one of `types` and an integer `value` ≥ `min`, or the error at `path`. */
function threshold(raw: unknown, path: string, types: readonly string[], min: number): { type: string; value: number } | ApiError {
  if (!isRecord(raw)) return invalid(`${path}: Input should be a valid dictionary or object to extract fields from`);
  if (typeof raw.type !== "string" || !types.includes(raw.type)) {
    return invalid(`${path}.type: Input should be ${types.map((t) => `'${t}'`).join(" or ")}`);
  }
  const value = raw.value;
  if (typeof value !== "number" || !Number.isInteger(value)) return invalid(`${path}.value: Input should be a valid integer`);
  if (value < min) return invalid(`${path}.value: Input should be greater than or equal to ${min}`);
  return { type: raw.type, value };
}

const failed = (x: unknown): x is ApiError => isRecord(x) && typeof x.code === "string" && typeof x.message === "string";

function toolUsesEdit(edit: Record<string, unknown>, path: string): ClearingEdit | ApiError {
  const trigger = edit.trigger == null ? { type: "input_tokens", value: DEFAULT_TRIGGER } : threshold(edit.trigger, `${path}.trigger`, ["input_tokens", "tool_uses"], 1);
  if (failed(trigger)) return trigger;
  const keep = edit.keep == null ? { value: DEFAULT_KEEP_TOOL_USES } : threshold(edit.keep, `${path}.keep`, ["tool_uses"], 0);
  if (failed(keep)) return keep;
  const atLeast = edit.clear_at_least == null ? { value: 0 } : threshold(edit.clear_at_least, `${path}.clear_at_least`, ["input_tokens"], 0);
  if (failed(atLeast)) return atLeast;
  const names = (raw: unknown, at: string): string[] | ApiError => (Array.isArray(raw) && raw.every((n) => typeof n === "string") ? raw : invalid(`${at}: Input should be a valid list of strings`));
  const exclude = edit.exclude_tools == null ? [] : names(edit.exclude_tools, `${path}.exclude_tools`);
  if (failed(exclude)) return exclude;
  const inputs = edit.clear_tool_inputs;
  const clearInputs = inputs == null ? false : typeof inputs === "boolean" ? inputs : names(inputs, `${path}.clear_tool_inputs`);
  if (failed(clearInputs)) return clearInputs;
  return { type: CLEAR_TOOL_USES, trigger: trigger as Threshold, keep: keep.value, clearAtLeast: atLeast.value, exclude, clearInputs };
}

function thinkingEdit(edit: Record<string, unknown>, path: string): ClearingEdit | ApiError {
  const keep = edit.keep;
  if (keep == null) return { type: CLEAR_THINKING, keep: DEFAULT_KEEP_THINKING_TURNS };
  if (keep === "all" || (isRecord(keep) && keep.type === "all")) return { type: CLEAR_THINKING, keep: "all" };
  const turns = threshold(keep, `${path}.keep`, ["thinking_turns"], 1);
  return failed(turns) ? turns : { type: CLEAR_THINKING, keep: turns.value };
}

/**
 * The request's clearing edits, in order, or the error in the API's wording for a malformed one; other edit types
 * (compaction's, compaction.ts) are left to their readers.
 * @example clearingEdits({ context_management: { edits: [{ type: "clear_tool_uses_20250919" }] } }) // [{ type, trigger: { type: "input_tokens", value: 100000 }, keep: 3, … }]
 */
export function clearingEdits(wire: Pick<MessagesRequest, "context_management">): readonly ClearingEdit[] | ApiError {
  const edits = wire.context_management?.edits;
  if (edits === undefined || edits.length === 0) return NONE;
  const out: ClearingEdit[] = [];
  for (const [i, edit] of edits.entries()) {
    const path = `context_management.edits.${i}`;
    const read = edit.type === CLEAR_TOOL_USES ? toolUsesEdit(edit, path) : edit.type === CLEAR_THINKING ? thinkingEdit(edit, path) : undefined;
    if (read === undefined) continue;
    if (failed(read)) return read;
    out.push(read);
  }
  const thinking = out.findIndex((e) => e.type === CLEAR_THINKING);
  if (thinking > 0 && out.slice(0, thinking).some((e) => e.type === CLEAR_TOOL_USES)) {
    return invalid(`context_management.edits: '${CLEAR_THINKING}' must come before '${CLEAR_TOOL_USES}' when both are given`);
  }
  return out;
}

/** The error of the request's clearing edits, if any (what parsing checks). */
export function clearingEditsError(wire: Pick<MessagesRequest, "context_management">): ApiError | undefined {
  const edits = clearingEdits(wire);
  return failed(edits) ? edits : undefined;
}

/** What clearing `edit` takes out of the conversation, or undefined when it does not apply (not triggered, nothing to clear, less than `clear_at_least`). */
function apply(edit: ClearingEdit, request: CanonicalRequest, inputTokens: number): AppliedEdit | undefined {
  if (edit.type === CLEAR_THINKING) {
    if (edit.keep === "all") return undefined;
    const turns = request.messages.filter((m) => m.role === "assistant" && m.reasoning.length > 0);
    const cleared = turns.slice(0, Math.max(0, turns.length - edit.keep));
    if (cleared.length === 0) return undefined;
    let n = 0;
    for (const t of cleared) if (t.role === "assistant") for (const r of t.reasoning) n += tokens(r.text) + tokens(r.redacted ?? "");
    return { type: CLEAR_THINKING, cleared_thinking_turns: cleared.length, cleared_input_tokens: n };
  }
  const results = new Map<string, string>();
  for (const m of request.messages) if (m.role === "tool") results.set(m.toolCallId, m.content);
  const uses = request.messages.flatMap((m) => (m.role === "assistant" ? m.toolCalls.filter((c) => results.has(c.id)) : []));
  const reached = edit.trigger.type === "tool_uses" ? uses.length >= edit.trigger.value : inputTokens >= edit.trigger.value;
  if (!reached) return undefined;
  const candidates = uses.filter((c) => !edit.exclude.includes(c.name));
  const cleared = candidates.slice(0, Math.max(0, candidates.length - edit.keep));
  if (cleared.length === 0) return undefined;
  let n = 0;
  for (const c of cleared) {
    n += tokens(results.get(c.id) ?? "");
    if (edit.clearInputs === true || (Array.isArray(edit.clearInputs) && edit.clearInputs.includes(c.name))) n += tokens(c.arguments);
  }
  if (n < edit.clearAtLeast) return undefined;
  return { type: CLEAR_TOOL_USES, cleared_tool_uses: cleared.length, cleared_input_tokens: n };
}

/**
 * The clearing edits that applied to a request whose input counts `inputTokens` (the reply's, or `count_tokens`'
 * estimate), in the request's order; none when they are malformed (parsing refused such a request).
 * @example appliedClearing(wire, request, 120_000) // [{ type: "clear_tool_uses_20250919", cleared_tool_uses: 5, cleared_input_tokens: 4210 }]
 */
export function appliedClearing(wire: Pick<MessagesRequest, "context_management">, request: CanonicalRequest, inputTokens: number): AppliedEdit[] {
  const edits = clearingEdits(wire);
  if (failed(edits)) return [];
  const out: AppliedEdit[] = [];
  for (const e of edits) {
    const applied = apply(e, request, inputTokens);
    if (applied !== undefined) out.push(applied);
  }
  return out;
}
