/**
 * Verify's `schema_violation`s (contract section 11): journal entries whose scripted answer did not fit the strict
 * schema the request asked for, and how the summary words them.
 */
import type { JournalEntry } from "./core";
import type { SchemaViolation } from "./verify";

/** Errors shown per violation in the summary; the result keeps them all (the journal bounds them). */
const MAX_SHOWN = 5;

export function schemaViolationsOf(journal: JournalEntry[]): SchemaViolation[] {
  const out: SchemaViolation[] = [];
  for (const e of journal) {
    if (e.surface === "mcp" || e.outputSchema === undefined || e.outputSchema.valid) continue;
    out.push({ kind: "schema_violation", seq: e.seq, step: e.step, provider: e.provider, endpoint: e.endpoint, errors: e.outputSchema.errors });
  }
  return out;
}

/** The summary's section: each violation's request, step and the first errors with their JSON-pointer paths. */
export function schemaViolationLines(violations: SchemaViolation[] | undefined): string[] {
  if (violations === undefined || violations.length === 0) return [];
  const lines = ["", `Schema violations (${violations.length}): scripted answers that do not fit the strict schema the request asked for`];
  for (const v of violations) {
    lines.push(`  - request #${v.seq} (${v.provider} ${v.endpoint}), step ${v.step === null ? "(none)" : `"${v.step}"`}:`);
    for (const e of v.errors.slice(0, MAX_SHOWN)) lines.push(`      ${e.path === "" ? "(the answer)" : e.path}: ${e.message}`);
    if (v.errors.length > MAX_SHOWN) lines.push(`      … and ${v.errors.length - MAX_SHOWN} more (see the journal)`);
  }
  return lines;
}
