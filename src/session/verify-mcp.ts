/**
 * Verify and coverage of the scripted MCP server's `calls` (contract section 9), pure: which consumed entries a
 * session never answered, and per entry across sessions. verify.ts puts these beside the steps.
 */
import { describeStringMatch, show } from "../scenario/matchers";
import { mcpCallId, type McpCall } from "../scenario/mcp-schema";
import type { Scenario } from "../scenario/schema";
import type { JournalEntry, McpJournalEntry, SessionView } from "./core";
import type { CoverageStep } from "./verify";

export interface UnusedMcpCall {
  id: string;
  /** Position in `mcp.calls`, from 1. */
  index: number;
  match: string;
  respond: string;
  /** Scripted failures served before the session ended (the client never came back for the answer). */
  attempts: number;
}

/** Per `mcp.calls` entry, as coverage counts steps: sessions it answered in, attempts, failures, mismatches. */
export type CoverageMcpCall = CoverageStep;

export function isMcpEntry(e: JournalEntry): e is McpJournalEntry {
  return e.surface === "mcp";
}

/** An entry's matcher in words: `tool "get_weather", arguments including {"city":"Paris"}`. */
export function describeCallMatch(call: McpCall | undefined): string {
  const m = call?.match;
  const parts = [...(m?.tool !== undefined ? [`tool ${describeStringMatch(m.tool)}`] : []), ...(m?.arguments !== undefined ? [`arguments including ${show(m.arguments)}`] : [])];
  return parts.length > 0 ? parts.join(", ") : "any tool call";
}

/** An entry's answer in words: `result "18C in Paris"`, `isError result …`, `error -32603 "boom"`. */
export function describeCallAnswer(call: McpCall | undefined): string {
  if (!call) return "(call no longer in the scenario)";
  const text = (call.result?.content ?? []).map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join(" ");
  const answer = call.result ? `${call.result.isError === true ? "isError result" : "result"} ${show(text)}` : `error ${call.error!.code} ${show(call.error!.message)}`;
  const failures = call.failuresBeforeSuccess ?? 0;
  return failures > 0 ? `${answer} (after ${failures} scripted failure(s))` : answer;
}

function callsById(doc: Scenario | undefined): Map<string, McpCall> {
  return new Map((doc?.mcp?.calls ?? []).map((c, i) => [mcpCallId(c, i), c]));
}

function answered(id: string, used: boolean, journal: JournalEntry[]): boolean {
  return used || journal.some((e) => isMcpEntry(e) && e.step === id && e.outcome === "response");
}

/** Consumed (`consume` not false) entries this session never answered, except `allowed` ones. */
export function unusedMcpCalls(view: SessionView, journal: JournalEntry[], doc: Scenario | undefined, allowed: Set<string>): UnusedMcpCall[] {
  const byId = callsById(doc);
  return (view.mcpCalls ?? [])
    .map((c, i) => ({ ...c, index: i + 1 }))
    .filter((c) => c.consume && !allowed.has(c.id) && !answered(c.id, c.used, journal))
    .map((c) => ({ id: c.id, index: c.index, match: describeCallMatch(byId.get(c.id)), respond: describeCallAnswer(byId.get(c.id)), attempts: c.attempts }));
}

/** Per entry of `document`'s `mcp.calls`, across sessions (by id, as steps). */
export function mcpCoverage(document: Scenario, sessions: { view: SessionView; journal: JournalEntry[] }[]): CoverageMcpCall[] {
  const totals = new Map<string, CoverageMcpCall>(
    (document.mcp?.calls ?? []).map((c, i) => [mcpCallId(c, i), { id: mcpCallId(c, i), index: i + 1, sessions: 0, attempts: 0, failures: 0, mismatches: 0, match: describeCallMatch(c) }]),
  );
  for (const { view, journal } of sessions) {
    for (const c of view.mcpCalls ?? []) {
      const t = totals.get(c.id);
      if (!t) continue;
      if (answered(c.id, c.used, journal)) t.sessions++;
      t.attempts += c.attempts;
    }
    for (const e of journal) {
      if (!isMcpEntry(e) || e.step === null) continue;
      const t = totals.get(e.step);
      if (!t) continue;
      if (e.outcome === "failure") t.failures++;
      if (e.outcome === "mismatch") t.mismatches++;
    }
  }
  return [...totals.values()];
}

/** Summary lines for the unused calls. */
export function unusedCallLines(unused: UnusedMcpCall[], total: number): string[] {
  if (unused.length === 0) return [];
  const lines = ["", `MCP calls never answered (${unused.length} of ${total}):`];
  for (const c of unused) {
    const tried = c.attempts > 0 ? `; ${c.attempts} scripted failure(s) served, the client never came back for the answer` : "";
    lines.push(`  - "${c.id}" (call ${c.index}) matches ${c.match}${tried}`, `    it would have answered: ${c.respond}`);
  }
  return lines;
}
