/**
 * Compactions in verify and coverage (contract section 10): how many compactions the mock answered and how many
 * requests carried one back, from the journal's canonical view.
 */
import type { JournalEntry } from "./core";
import { isMcpEntry } from "./verify-mcp";

export interface Compactions {
  answered: number;
  carried: number;
}

/** Compactions answered and carried back over `journal`, or undefined when there were none. */
export function compactionsOf(journal: JournalEntry[], into: Compactions = { answered: 0, carried: 0 }): Compactions | undefined {
  for (const e of journal) {
    if (isMcpEntry(e) || !e.canonical) continue;
    if (e.canonical.answered?.compaction !== undefined) into.answered++;
    if (e.canonical.compaction !== undefined) into.carried++;
  }
  return into.answered + into.carried > 0 ? into : undefined;
}
