/**
 * Compaction (contract section 10), provider-neutral: the summary a compaction carries, and the deterministic one a
 * compaction gets when no step scripts it.
 */
import type { CanonicalRequest } from "./request";

/** A compaction: what the surfaces carry as OpenAI's `compaction` item or Anthropic's `compaction` block. */
export interface CanonicalCompaction {
  /** The summary text (empty when the client sent back a blob mockllm did not write). */
  summary: string;
}

/** Longest quote of the last user message a default summary keeps. */
const QUOTE = 200;

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
  const quoted = last.length > QUOTE ? `${last.slice(0, QUOTE)}…` : last;
  const earlier = req.compaction ? ` An earlier summary: ${req.compaction.summary}` : "";
  return `Summary of ${req.messages.length} earlier messages (${users} from the user). Last user message: ${JSON.stringify(quoted)}.${earlier}`;
}
