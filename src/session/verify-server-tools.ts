/**
 * Server-side tool uses in verify and coverage (contract section 11): how many of each kind (`web_search`,
 * `code_execution`, `mcp`, …) the mock answered, from the journal's canonical view.
 */
import type { JournalEntry } from "./core";
import { isMcpEntry } from "./verify-mcp";

/** Uses per kind, e.g. `{ web_search: 2, mcp: 1 }`. */
export type ServerToolUses = Record<string, number>;

/** Server-tool uses answered over `journal` (added into `into`), or undefined when there were none. */
export function serverToolUsesOf(journal: JournalEntry[], into: ServerToolUses = {}): ServerToolUses | undefined {
  for (const e of journal) {
    if (isMcpEntry(e) || !e.canonical) continue;
    for (const kind of e.canonical.answered?.serverTools ?? []) into[kind] = (into[kind] ?? 0) + 1;
  }
  return Object.keys(into).length > 0 ? into : undefined;
}
