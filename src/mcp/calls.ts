/**
 * Which scripted `mcp.calls` entry answers a `tools/call`, and with what: pure, like the model engine. Entries are
 * tried in order; a consumed one (default `consume: true`, once it has answered) is skipped. The tool name is a
 * StringMatch and `arguments` a subset, by the model matchers' own rules (`argumentsMatch`). Attempts 1..n of an
 * entry with `failuresBeforeSuccess: n` answer its error; attempt n+1 answers and consumes it.
 */
import { argumentsMatch, describeMiss, describeStringMatch, show, stringMatches, type Miss } from "../scenario/matchers";
import { mcpCallId, type McpBlock, type McpCall, type McpError, type McpToolResult } from "../scenario/mcp-schema";
import { expandStrings, type TemplateValues } from "../scenario/templates";
import { RPC } from "./protocol";
import { echoed } from "../util/text";

/** What a session remembers of its `tools/call`s: consumed entries and attempts, by entry index. */
export interface McpCallState {
  used: number[];
  attempts: Record<string, number>;
}

export interface ToolCall {
  tool: string;
  arguments: Record<string, unknown>;
}

export type CallDecision =
  | {
      kind: "answer";
      id: string;
      index: number;
      attempt: number;
      /** A scripted failure before the answer (journaled as `failure`). */
      failure: boolean;
      result?: McpToolResult;
      error?: McpError;
      delayMs: number;
      progress: NonNullable<McpCall["progress"]>;
      /** Entry to mark used once answered. */
      consume?: number;
    }
  | { kind: "mismatch"; nearest?: string; reasons: string[]; error: McpError };

/** Every condition of `call.match` that `tc` fails. */
export function callMisses(call: McpCall, tc: ToolCall): Miss[] {
  const misses: Miss[] = [];
  const m = call.match;
  if (m?.tool !== undefined && !stringMatches(m.tool, tc.tool)) {
    misses.push({ field: "match.tool", expected: describeStringMatch(m.tool), actual: show(tc.tool) });
  }
  if (m?.arguments !== undefined && !argumentsMatch(m.arguments, tc.arguments)) {
    misses.push({ field: "match.arguments", expected: `arguments including ${show(m.arguments)}`, actual: show(tc.arguments) });
  }
  return misses;
}

export interface CallContext {
  scenario: string;
  session: string;
  vars: Record<string, unknown>;
}

/**
 * @example decideCall(doc.mcp, { used: [], attempts: {} }, { tool: "get_weather", arguments: { city: "Paris" } }, ctx)
 */
export function decideCall(mcp: McpBlock | undefined, state: McpCallState, tc: ToolCall, ctx: CallContext): CallDecision {
  const calls = mcp?.calls ?? [];
  const available = calls.map((call, index) => ({ call, index })).filter(({ call, index }) => call.consume === false || !state.used.includes(index));
  const chosen = available.find(({ call }) => callMisses(call, tc).length === 0);
  if (!chosen) return mismatch(calls.length, available, tc, ctx);

  const { call, index } = chosen;
  const attempt = (state.attempts[String(index)] ?? 0) + 1;
  const failures = call.failuresBeforeSuccess ?? 0;
  const values: TemplateValues = { vars: ctx.vars, args: tc.arguments, session: ctx.session };
  const expand = <T>(v: T): T => expandStrings(v, values, "mcp");
  const base = { kind: "answer" as const, id: mcpCallId(call, index), index, attempt, delayMs: call.delayMs ?? 0, progress: call.progress ?? [] };
  if (attempt <= failures) {
    const error = call.error ? expand(call.error) : { code: RPC.internalError, message: `mockllm: scripted failure ${attempt} of ${failures}` };
    return { ...base, failure: true, error };
  }
  const consume = call.consume === false ? {} : { consume: index };
  if (call.result) return { ...base, failure: false, result: expand(call.result), ...consume };
  return { ...base, failure: false, error: expand(call.error!), ...consume };
}

function mismatch(total: number, available: { call: McpCall; index: number }[], tc: ToolCall, ctx: CallContext): CallDecision {
  let nearest: { id: string; misses: Miss[] } | undefined;
  for (const { call, index } of available) {
    const misses = callMisses(call, tc);
    if (!nearest || misses.length < nearest.misses.length) nearest = { id: mcpCallId(call, index), misses };
  }
  const head = total === 0 ? "the scenario scripts no mcp.calls" : available.length === 0 ? `all ${total} mcp.calls are used` : `no mcp call matches; nearest call "${nearest!.id}" failed`;
  const reasons = [head, ...(nearest?.misses ?? []).map(describeMiss)];
  const message = [`mockllm: scenario "${ctx.scenario}" session "${ctx.session}" tools/call ${echoed(tc.tool)}: ${head}`, ...reasons.slice(1).map((r) => `- ${r}`)].join("\n");
  return {
    kind: "mismatch",
    ...(nearest ? { nearest: nearest.id } : {}),
    reasons,
    error: { code: RPC.invalidParams, message, data: { reasons, tool: tc.tool, arguments: tc.arguments } },
  };
}
