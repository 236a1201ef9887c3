/**
 * The journal's LLM-level view of one request: what the engine saw (tools offered, tool results received, model,
 * stream) and what it answered (text, tool calls with the ids the client saw, usage), provider-neutral. Long strings
 * are cut so the journal stays bounded.
 */
import { replyChoices, type Outcome, type Reply, type ReplyUsage } from "../canonical/outcome";
import { filteredReply } from "../canonical/safety";
import { lastUserMessage, pendingToolResults, type CanonicalRequest, type Endpoint, type ProviderName } from "../canonical/request";
import { REPLY_KIND_LOOPS as KINDS, type KindViews } from "../scenario/reply-kinds";

/**
 * The ids a client sees for a reply's tool calls, one per call in order over the reply and its `extraChoices` (null
 * where the wire carries none). The session layer knows no provider: whatever hosts sessions hands it the
 * providers' own (`wireToolCallIds`, src/providers/tool-call-ids.ts), so the journal never drifts from the wire.
 */
export type ToolCallIds = (provider: ProviderName, reply: Reply, endpoint?: Endpoint) => (string | null)[];

/** Longest string kept per field (tool result content, answered text, arguments, last user message). */
export const CANONICAL_TEXT_LIMIT = 4000;

export interface CanonicalToolCallView {
  /** The id the client saw; null where the wire carries none (Gemini without a scripted id). */
  id: string | null;
  name: string;
  /** JSON text, as sent. */
  arguments: string;
}

export interface CanonicalView {
  /** Names of the tools the client offered. */
  tools: string[];
  /** Tool results sent after the last assistant turn. */
  toolResults: { name: string | null; toolCallId: string; content: string }[];
  /** The request's last user message, if any. */
  lastUserMessage: string | null;
  /**
   * What the client was answered; null when nothing was (a mismatch error, a scripted failure other than
   * `content_filter`, whose refusal or text so far is what was answered).
   */
  answered: ({ text: string | null; toolCalls: CanonicalToolCallView[] } & KindViews) | null;
  model: string;
  stream: boolean;
  /** Usage reported with the answer; null when nothing was answered. */
  usage: ReplyUsage | null;
  /** The compaction the request carried back (present only then). */
  compaction?: { summary: string };
  /** The request asked for a compaction (`/v1/responses/compact`, a `compaction_trigger`; present only then). */
  compactionRequested?: true;
  /** The structured output the request asked for (present only then): its kind, name and strictness, not the schema. */
  outputSchema?: { kind: "json_schema" | "json_object"; name?: string; strict?: boolean };
  /** Server-side tools the request offers (`web_search`, `mcp`, …; present only then). */
  serverTools?: string[];
}

/**
 * `s` cut to `limit` characters, with a marker saying how many went.
 * @example cutText("abcdef", 2) // "ab…[mockllm: truncated 4 characters]"
 */
export function cutText(s: string, limit: number): string {
  return s.length <= limit ? s : `${s.slice(0, limit)}…[mockllm: truncated ${s.length - limit} characters]`;
}

function cut(s: string): string {
  return cutText(s, CANONICAL_TEXT_LIMIT);
}

/** Every choice's tool calls in order (the reply's own, then its `extraChoices'`). */
function allToolCalls(reply: Reply): Reply["toolCalls"] {
  if (reply.extraChoices === undefined || reply.extraChoices.length === 0) return reply.toolCalls;
  return replyChoices(reply).flatMap((c) => c.toolCalls);
}

function toolCalls(request: CanonicalRequest, reply: Reply, toolCallIds: ToolCallIds): CanonicalToolCallView[] {
  const calls = allToolCalls(reply);
  if (calls.length === 0) return [];
  const ids = toolCallIds(request.provider, reply, request.endpoint);
  return calls.map((call, i) => ({ id: ids[i] ?? null, name: call.name, arguments: cut(call.arguments) }));
}

/** The answered text: every choice's text and refusal that is not empty, joined; null when there is none. */
function answeredText(reply: Reply): string | null {
  let text: string | null = null;
  const add = (t: string | undefined) => {
    if (t !== undefined && t !== "") text = text === null ? t : `${text}\n\n${t}`;
  };
  add(reply.text);
  add(reply.refusal);
  for (const c of reply.extraChoices ?? []) {
    add(c.text);
    add(c.refusal);
  }
  return text === null ? null : cut(text);
}

/**
 * Runs on every journaled request: plain loops, and the tool-call ids worked out only when there are calls.
 * @example canonicalView(request, { kind: "reply", reply }, wireToolCallIds).answered?.toolCalls[0]?.id // "call_…"
 */
export function canonicalView(request: CanonicalRequest, outcome: Outcome, toolCallIds: ToolCallIds): CanonicalView {
  const reply = outcome.kind === "reply" ? outcome.reply : outcome.kind === "failure" && outcome.failure.kind === "content_filter" ? filteredReply(outcome.failure, outcome.reply) : undefined;
  const last = lastUserMessage(request);
  const pending = pendingToolResults(request);
  const toolResults: CanonicalView["toolResults"] = [];
  for (const r of pending) toolResults.push({ name: r.name ?? null, toolCallId: r.toolCallId, content: cut(r.content) });
  const view: CanonicalView = {
    tools: request.tools,
    toolResults,
    lastUserMessage: last === undefined ? null : cut(last),
    answered: reply ? answered(request, reply, toolCallIds) : null,
    model: request.model,
    stream: request.stream,
    usage: reply ? reply.usage : null,
  };
  if (request.compaction !== undefined) view.compaction = { summary: cut(request.compaction.summary) };
  if (request.compactionRequested) view.compactionRequested = true;
  if (request.outputSchema !== undefined) {
    const { kind, name, strict } = request.outputSchema;
    view.outputSchema = { kind, ...(name !== undefined ? { name } : {}), ...(strict !== undefined ? { strict } : {}) };
  }
  if (request.serverTools !== undefined) view.serverTools = request.serverTools;
  return view;
}

/**
 * An endpoint a reply kind alone answers (an image, audio, categories, a ranking, a transcript: src/scenario/reply-kinds.ts)
 * records that kind's text or none, the reply's text and calls unused; a chat answer records its text, calls and what
 * each kind's `view` adds (`compaction`, `serverTools`).
 */
function answered(request: CanonicalRequest, reply: Reply, toolCallIds: ToolCallIds): NonNullable<CanonicalView["answered"]> {
  const by = KINDS.answeredBy.get(request.endpoint);
  if (by !== undefined) return { text: by.text === undefined ? null : cut(by.text(reply)), toolCalls: [] };
  const out: NonNullable<CanonicalView["answered"]> = { text: answeredText(reply), toolCalls: toolCalls(request, reply, toolCallIds) };
  for (const [name, view] of KINDS.views) {
    const value = view(reply, request, cut);
    if (value !== undefined) (out as unknown as Record<string, unknown>)[name] = value;
  }
  return out;
}
