/**
 * Verify and coverage, pure: from a session's state and journal, did the run do what the script says (every step
 * used, no mismatch, no failure left unanswered)? And across sessions, how was each step used? The summary is
 * written for someone who has not opened the journal.
 */
import { describeStringMatch, show } from "../scenario/matchers";
import { REPLY_KIND_LOOPS as KINDS } from "../scenario/reply-kinds";
import { stepId, type Scenario, type Step, type StringMatch } from "../scenario/schema";
import { checkBudget, describeOverrun, describeUsage, usageBySteps, usageOf, type BudgetCheck, type UsageFigures } from "./budget";
import type { JournalEntry, SessionView } from "./core";
import { compactionsOf, type Compactions } from "./verify-compaction";
import { schemaViolationLines, schemaViolationsOf } from "./verify-schema";
import { serverToolUsesOf, type ServerToolUses } from "./verify-server-tools";
import { isMcpEntry, mcpCoverage, unusedCallLines, unusedMcpCalls, type CoverageMcpCall, type UnusedMcpCall } from "./verify-mcp";

export interface UnusedStep {
  id: string;
  /** Position in the scenario, from 1. */
  index: number;
  /** What the step matches on, in words ("any request" without a matcher). */
  match: string;
  /** What it would have answered, in words. */
  respond: string;
}

export interface VerifyMismatch {
  seq: number;
  at: string;
  provider: string;
  endpoint: string;
  turn: number;
  status: number;
  /** The step that matched but failed its expectations, or the nearest step; null when none was available. */
  nearestStep: string | null;
  reasons: string[];
  lastUserMessage: string | null;
  toolResults: { name: string | null; toolCallId: string; content: string }[];
  /** An MCP `tools/call` no entry answered: the tool and its arguments. */
  mcp?: { tool: string; arguments: Record<string, unknown> };
}

export interface PendingFailure {
  id: string;
  index: number;
  /** Scripted failures served to the client. */
  served: number;
  /** Scripted failures on the step (null when the step is no longer in the scenario). */
  scripted: number | null;
  /** The last failure's journal reason, e.g. "attempt 1: scripted rate_limit". */
  last: string;
  status: number;
}

/** `schema_violation`: a scripted answer that does not fit the strict schema its request asked for (contract section 11). */
export interface SchemaViolation {
  kind: "schema_violation";
  seq: number;
  step: string | null;
  provider: string;
  endpoint: string;
  /** JSON-pointer paths into the answer and what is wrong there. */
  errors: { path: string; message: string }[];
}

export interface VerifyResult {
  ok: boolean;
  scenario: string;
  session: string;
  version: string | null;
  unusedSteps: UnusedStep[];
  /** `mcp.calls` entries (consumed ones) never answered. */
  unusedMcpCalls: UnusedMcpCall[];
  mismatches: VerifyMismatch[];
  pendingFailures: PendingFailure[];
  requests: number;
  /** Faults the scenario's seeded chaos drew (journal outcome `chaos`): reported apart, never a failure by themselves. */
  chaos: number;
  /** Tokens, cost and requests of the session (src/session/budget.ts). */
  usage: UsageFigures;
  /** The scenario's `expect.budget` and what went over it (present only with a budget). */
  budget?: BudgetCheck;
  /** Steps left out of the check by `allowUnused`. */
  allowedUnused: string[];
  /** Compactions in the session (present only when there were any): answered by the mock, carried back by the client. */
  compactions?: Compactions;
  /** Scripted answers that did not fit the request's strict schema (present only when there were any). */
  schemaViolations?: SchemaViolation[];
  /** Server-side tool uses answered, per kind (present only when there were any). */
  serverToolUses?: ServerToolUses;
  summary: string;
}

export interface VerifyInput {
  scenario: string;
  session: string;
  /** The scenario as stored now (step details are looked up by id), if it still exists. */
  document: Scenario | undefined;
  view: SessionView;
  journal: JournalEntry[];
  allowUnused?: readonly string[];
}

const MAX_SUMMARY_MISMATCHES = 10;
const MAX_QUOTE = 300;

function quote(s: string): string {
  const cut = s.length > MAX_QUOTE ? `${s.slice(0, MAX_QUOTE)}…` : s;
  return JSON.stringify(cut);
}

function isStringMatch(v: unknown): v is StringMatch {
  if (typeof v === "string") return true;
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && (keys.includes("equals") || keys.includes("contains") || keys.includes("regex"));
}

function describeValue(v: unknown): string {
  if (isStringMatch(v)) return describeStringMatch(v);
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${k} ${describeValue(x)}`)
      .join(", ")} }`;
  }
  return show(v);
}

/** A matcher in words: `lastUserMessage contains "weather", toolResult { name "get_weather" }`. */
export function describeMatch(match: Step["match"]): string {
  const entries = Object.entries(match ?? {});
  if (entries.length === 0) return "any request";
  return entries.map(([k, v]) => `${k} ${describeValue(v)}`).join(", ");
}

/** How verify quotes a scripted string (`quote`) and a tool call's arguments (`clip`). */
const WORDS = { quote, clip: (s: string) => (s.length > MAX_QUOTE ? `${s.slice(0, MAX_QUOTE)}…` : s) };

/** A step's answer in words: `tool call get_weather {"city":"Paris"}` or `text "Sunny"`. */
export function describeRespond(step: Step | undefined): string {
  if (!step) return "(step no longer in the scenario)";
  const r = step.respond ?? {};
  // Each reply kind's words (src/scenario/reply-kinds.ts): compaction and tool calls first, then the table's order.
  const parts: string[] = [];
  for (const d of KINDS.describe) parts.push(...d.words(r, WORDS));
  if (parts.length === 0) parts.push('text ""');
  const failures = step.failures?.length ?? 0;
  return failures > 0 ? `${parts.join(" + ")} (after ${failures} scripted failure(s))` : parts.join(" + ");
}

/** Per step of one session: answered at least once, attempts, failures and mismatches journaled against it. */
interface StepUse {
  id: string;
  index: number;
  answered: boolean;
  attempts: number;
  failures: JournalEntry[];
  mismatches: number;
}

function stepUses(view: SessionView, journal: JournalEntry[]): StepUse[] {
  return view.steps.map((s, i) => {
    const mine = journal.filter((e) => e.step === s.id && !isMcpEntry(e));
    return {
      id: s.id,
      index: i + 1,
      answered: s.used || mine.some((e) => e.outcome === "response"),
      attempts: s.attempts,
      failures: mine.filter((e) => e.outcome === "failure"),
      mismatches: mine.filter((e) => e.outcome === "mismatch").length,
    };
  });
}

function stepsById(doc: Scenario | undefined): Map<string, Step> {
  return new Map((doc?.steps ?? []).map((s, i) => [stepId(s, i), s]));
}

/**
 * @example verifySession({ scenario: "weather", session: "t1", document, view, journal }).ok
 */
export function verifySession(input: VerifyInput): VerifyResult {
  const allowed = new Set(input.allowUnused ?? []);
  const byId = stepsById(input.document);
  const uses = stepUses(input.view, input.journal);
  const unusedSteps: UnusedStep[] = uses
    .filter((u) => u.attempts === 0 && !u.answered && !allowed.has(u.id))
    .map((u) => ({ id: u.id, index: u.index, match: describeMatch(byId.get(u.id)?.match), respond: describeRespond(byId.get(u.id)) }));
  const pendingFailures: PendingFailure[] = uses
    .filter((u) => u.attempts > 0 && !u.answered && !allowed.has(u.id))
    .map((u) => {
      const last = u.failures.at(-1);
      const scripted = byId.get(u.id)?.failures?.length;
      return {
        id: u.id,
        index: u.index,
        served: u.failures.length,
        scripted: scripted ?? null,
        last: last?.reasons[0] ?? "a scripted failure",
        status: last?.status ?? 0,
      };
    });
  const mismatches: VerifyMismatch[] = input.journal
    .filter((e) => e.outcome === "mismatch")
    .map((e) => ({
      seq: e.seq,
      at: e.at,
      provider: e.provider,
      endpoint: e.endpoint,
      turn: e.turn,
      status: e.status,
      nearestStep: e.step,
      reasons: e.reasons,
      ...(isMcpEntry(e)
        ? { lastUserMessage: null, toolResults: [], ...(e.canonical ? { mcp: { tool: e.canonical.tool, arguments: e.canonical.arguments } } : {}) }
        : { lastUserMessage: e.canonical?.lastUserMessage ?? null, toolResults: e.canonical?.toolResults ?? [] }),
    }));
  const unusedCalls = unusedMcpCalls(input.view, input.journal, input.document, allowed);
  const usage = usageOf(input.journal, input.document);
  const budget = checkBudget(input.document?.expect?.budget, usage);
  const schemaViolations = schemaViolationsOf(input.journal);
  const ok = unusedSteps.length === 0 && unusedCalls.length === 0 && mismatches.length === 0 && pendingFailures.length === 0 && schemaViolations.length === 0 && (budget?.exceeded.length ?? 0) === 0;
  const compactions = compactionsOf(input.journal);
  const serverToolUses = serverToolUsesOf(input.journal);
  const result = {
    ok,
    scenario: input.scenario,
    session: input.session,
    version: input.view.version,
    unusedSteps,
    unusedMcpCalls: unusedCalls,
    mismatches,
    pendingFailures,
    requests: input.view.requests,
    chaos: input.journal.filter((e) => e.outcome === "chaos").length,
    usage,
    ...(budget ? { budget } : {}),
    allowedUnused: [...uses.filter((u) => allowed.has(u.id) && !u.answered).map((u) => u.id), ...(input.view.mcpCalls ?? []).filter((c) => allowed.has(c.id) && c.consume && !c.used).map((c) => c.id)],
    ...(compactions ? { compactions } : {}),
    ...(schemaViolations.length > 0 ? { schemaViolations } : {}),
    ...(serverToolUses ? { serverToolUses } : {}),
  };
  return { ...result, summary: summarize(result, uses.length, input.view.mcpCalls?.length ?? 0) };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function summarize(r: Omit<VerifyResult, "summary">, steps: number, calls: number): string {
  const where = `scenario "${r.scenario}" session "${r.session}"${r.version ? ` (version ${r.version})` : ""}`;
  const requests = plural(r.requests, "request") + (r.chaos > 0 ? ` (chaos: ${r.chaos})` : "");
  if (r.ok) {
    const allowed = r.allowedUnused.length > 0 ? ` (unused but allowed: ${r.allowedUnused.join(", ")})` : "";
    const mcp = calls > 0 ? `, all ${plural(calls, "MCP call")} answered` : "";
    const compacted = r.compactions ? `, ${plural(r.compactions.answered, "compaction")} answered (${r.compactions.carried} carried back)` : "";
    const within = r.budget ? `, within budget (${describeUsage(r.usage)})` : "";
    return `mockllm verify: ok: ${where}: ${requests}, all ${plural(steps, "step")} used${mcp}${compacted}, no mismatches${within}${allowed}`;
  }
  const problems = [
    r.unusedSteps.length > 0 ? `${plural(r.unusedSteps.length, "step")} never used` : "",
    r.unusedMcpCalls.length > 0 ? `${plural(r.unusedMcpCalls.length, "MCP call")} never answered` : "",
    r.mismatches.length > 0 ? plural(r.mismatches.length, "mismatch", "mismatches") : "",
    r.pendingFailures.length > 0 ? `${plural(r.pendingFailures.length, "step")} left after a scripted failure` : "",
    (r.budget?.exceeded.length ?? 0) > 0 ? "over budget" : "",
    r.schemaViolations !== undefined ? `${plural(r.schemaViolations.length, "schema violation")}` : "",
  ].filter((p) => p !== "");
  const lines = [`mockllm verify: FAILED: ${where}: ${requests}; ${problems.join(", ")}`];
  if (r.requests === 0) lines.push("", "No request reached this session: is the client pointed at this scenario and session?");

  if (r.unusedSteps.length > 0) {
    lines.push("", `Steps never used (${r.unusedSteps.length} of ${steps}):`);
    for (const s of r.unusedSteps) {
      lines.push(`  - "${s.id}" (step ${s.index}) matches ${s.match}`, `    it would have answered: ${s.respond}`);
    }
  }
  lines.push(...unusedCallLines(r.unusedMcpCalls, calls));
  if (r.mismatches.length > 0) {
    lines.push("", `Mismatches (${r.mismatches.length}): requests no step answered as scripted`);
    for (const m of r.mismatches.slice(0, MAX_SUMMARY_MISMATCHES)) {
      const [head = "no step matches", ...details] = m.reasons;
      if (m.mcp) {
        lines.push(`  - request #${m.seq} (mcp tools/call ${m.mcp.tool} ${show(m.mcp.arguments)}, answered JSON-RPC error -32602): ${head}`);
        for (const d of details) lines.push(`      ${d}`);
        continue;
      }
      lines.push(`  - request #${m.seq} (${m.provider} ${m.endpoint}, turn ${m.turn}, answered ${m.status}): ${head}`);
      for (const d of details) lines.push(`      ${d}`);
      lines.push(`    last user message: ${m.lastUserMessage === null ? "(none)" : quote(m.lastUserMessage)}`);
      if (m.toolResults.length > 0) {
        const results = m.toolResults.map((t) => `${t.name ?? "?"} (${t.toolCallId}) → ${quote(t.content)}`);
        lines.push(`    tool results: ${results.join("; ")}`);
      }
    }
    if (r.mismatches.length > MAX_SUMMARY_MISMATCHES) {
      lines.push(`  … and ${r.mismatches.length - MAX_SUMMARY_MISMATCHES} more (see the journal)`);
    }
  }
  if (r.pendingFailures.length > 0) {
    lines.push("", `Failures still pending (${r.pendingFailures.length}): the client got a scripted failure and never came back for the answer`);
    for (const p of r.pendingFailures) {
      const of = p.scripted === null ? "" : ` of ${p.scripted}`;
      lines.push(`  - "${p.id}" (step ${p.index}): served ${p.served}${of} scripted failure(s), last ${p.last} (status ${p.status}); no retry reached the step's answer`);
    }
  }
  if (r.budget && r.budget.exceeded.length > 0) {
    lines.push("", `Over budget (budget_exceeded): ${describeUsage(r.usage)}`);
    for (const o of r.budget.exceeded) lines.push(`  - ${describeOverrun(o)}`);
  }
  lines.push(...schemaViolationLines(r.schemaViolations));
  if (r.allowedUnused.length > 0) lines.push("", `Unused but allowed: ${r.allowedUnused.join(", ")}`);
  return lines.join("\n");
}

export interface CoverageStep {
  id: string;
  index: number;
  /** Sessions in which the step answered at least once. */
  sessions: number;
  attempts: number;
  /** Scripted failures served. */
  failures: number;
  /** Journaled mismatches whose nearest step (or the step whose expectations failed) is this one. */
  mismatches: number;
  match: string;
  /** Tokens the step's answers reported and what they cost, over the sessions (model steps only). */
  tokens?: number;
  costUsd?: number;
}

/** One session's figures in coverage. */
export interface CoverageSession extends UsageFigures {
  session: string;
}

export interface Coverage {
  scenario: string;
  version: string;
  /** Sessions looked at (the newest ones the index keeps). */
  sessions: number;
  steps: CoverageStep[];
  /** Per `mcp.calls` entry (absent when the scenario scripts none). */
  mcpCalls?: CoverageMcpCall[];
  /** Compactions over the sessions looked at (absent when there were none). */
  compactions?: Compactions;
  /** Tokens and cost per session (those named), newest index order. */
  usage?: CoverageSession[];
  /** Server-side tool uses answered over the sessions looked at, per kind (absent when there were none). */
  serverToolUses?: ServerToolUses;
}

/**
 * Per step of `document`, across sessions; steps are matched by id, so sessions on an older version count where
 * their step ids still exist.
 * @example coverage("weather", stored.version, stored.scenario, [{ view, journal }]).steps[0].sessions
 */
export function coverage(scenario: string, version: string, document: Scenario, sessions: { view: SessionView; journal: JournalEntry[]; name?: string }[]): Coverage {
  const totals = new Map<string, CoverageStep>(
    document.steps.map((s, i) => [stepId(s, i), { id: stepId(s, i), index: i + 1, sessions: 0, attempts: 0, failures: 0, mismatches: 0, match: describeMatch(s.match), tokens: 0, costUsd: 0 }]),
  );
  const usage: CoverageSession[] = [];
  for (const { journal, name } of sessions) {
    if (name !== undefined) usage.push({ session: name, ...usageOf(journal, document) });
    for (const [id, u] of usageBySteps(journal, document)) {
      const t = totals.get(id);
      if (!t) continue;
      t.tokens = (t.tokens ?? 0) + u.totalTokens;
      t.costUsd = Math.round(((t.costUsd ?? 0) + u.costUsd) * 1e6) / 1e6;
    }
  }
  for (const { view, journal } of sessions) {
    for (const u of stepUses(view, journal)) {
      const t = totals.get(u.id);
      if (!t) continue;
      if (u.answered) t.sessions++;
      t.attempts += u.attempts;
      t.failures += u.failures.length;
      t.mismatches += u.mismatches;
    }
  }
  const mcpCalls = mcpCoverage(document, sessions);
  const totalsOf: Compactions = { answered: 0, carried: 0 };
  let compactions: Compactions | undefined;
  for (const { journal } of sessions) compactions = compactionsOf(journal, totalsOf) ?? compactions;
  const usesOf: ServerToolUses = {};
  let serverToolUses: ServerToolUses | undefined;
  for (const { journal } of sessions) serverToolUses = serverToolUsesOf(journal, usesOf) ?? serverToolUses;
  return {
    scenario,
    version,
    sessions: sessions.length,
    steps: [...totals.values()],
    ...(mcpCalls.length > 0 ? { mcpCalls } : {}),
    ...(compactions ? { compactions } : {}),
    ...(usage.length > 0 ? { usage } : {}),
    ...(serverToolUses ? { serverToolUses } : {}),
  };
}
