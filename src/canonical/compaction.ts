/**
 * Compaction (contract section 10), provider-neutral: the summary a compaction carries, and the deterministic one a
 * compaction gets when no step scripts it.
 */
import type { CanonicalCompaction, CanonicalRequest } from "./request";

export type { CanonicalCompaction };

/** Longest quote of the last user message a default summary keeps. */
const QUOTE = 200;
/**
 * Longest quote of the client's earlier summary a default summary keeps: a client sends that summary back (OpenAI's
 * `encrypted_content`, Anthropic's compaction block), so nesting it whole let one request grow its answer without
 * bound (a 6 MB blob, an 8 MB answer). Bounded, a chain of compactions stays readable and small.
 */
export const EARLIER_SUMMARY_QUOTE = 1000;

function quote(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The summary of a compaction no step scripts: deterministic, from the conversation it replaces.
 * @example defaultCompactionSummary(req) // "Summary of 4 earlier messages (2 from the user). Last user message: \"…\""
 */
export function defaultCompactionSummary(req: CanonicalRequest): string {
  let users = 0;
  let last = "";
  for (const m of req.messages) {
    if (m.role !== "user") continue;
    users++;
    last = m.text;
  }
  const quoted = quote(last, QUOTE);
  const earlier = req.compaction ? ` An earlier summary: ${quote(req.compaction.summary, EARLIER_SUMMARY_QUOTE)}` : "";
  return `Summary of ${req.messages.length} earlier messages (${users} from the user). Last user message: ${JSON.stringify(quoted)}.${earlier}`;
}

/**
 * The compaction an answer carries, if any: the reply's own (a compaction step, or the default compaction of a
 * compaction request), else the default one when the reply's input tokens reach the request's `compactThreshold`
 * (OpenAI `context_management`, Anthropic's `compact_20260112` trigger). Renderers and the journal both ask here.
 * @example replyCompaction(reply, { ...req, compactThreshold: 1 })?.summary // "Summary of 1 earlier messages …"
 */
export function replyCompaction(reply: { compaction?: CanonicalCompaction; usage: { inputTokens: number } }, req: CanonicalRequest): CanonicalCompaction | undefined {
  if (reply.compaction !== undefined) return reply.compaction;
  if (req.compactionRequested) return { summary: defaultCompactionSummary(req) };
  if (req.compactThreshold === undefined || reply.usage.inputTokens < req.compactThreshold) return undefined;
  return { summary: defaultCompactionSummary(req) };
}
