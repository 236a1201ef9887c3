/**
 * The scenario engine: pure and deterministic. Given a scenario, the session's state and a request,
 * it decides the outcome and the state change. The session Durable Object applies the change.
 */
import { answeredModel } from "../canonical/models";
import { lastUserMessage, turnOf, type CanonicalRequest } from "../canonical/request";
import type { JournalOutcome, Outcome, Reply, ReplyReasoning, ReplyToolCall } from "../canonical/outcome";
import { limitReply } from "../canonical/limit";
import { stopReply } from "../canonical/stop";
import { chaosApplies, chaosOutcome, drawChaos, type ChaosDraw } from "./chaos";
import { describeMiss, expectationMisses, matchMisses, type Miss } from "./matchers";
import { stepId, type Scenario, type ScenarioResponse, type Step } from "./schema";
import { REPLY_KIND_LOOPS as KINDS } from "./reply-kinds";
import { sideCall } from "./side-calls";
import { expandResponse, hasTemplates } from "./templates";
import { checkOutput } from "./structured";
import type { OutputSchemaCheck } from "../canonical/output-schema";

/** What a session remembers between requests. */
export interface SessionState {
  /** Indexes of consumed steps. */
  used: number[];
  /** Attempts per `${stepIndex}:${provider}`. */
  attempts: Record<string, number>;
}

export interface EngineContext {
  scenario: string;
  session: string;
  /** Put in front of the ids' seed: a namespace's session prefix (equal names in two namespaces never share ids). */
  idScope?: string;
}

/** Where a request sits, as the start of its ids' seed: `{scope}{scenario}/{session}`. */
function seedBase(ctx: EngineContext): string {
  return `${ctx.idScope ?? ""}${ctx.scenario}/${ctx.session}`;
}

/**
 * The attempt counter of `onMismatch: "report"` answers at one turn: a second report at the same turn (a retry)
 * gets ids of its own, the first keeps the ids it always had. Not a step index, so no step view counts it.
 */
function reportKey(turn: number): string {
  return `report:${turn}`;
}

export interface Decision {
  outcome: Outcome;
  journal: { step?: string; outcome: JournalOutcome; reasons: string[]; chaos?: JournalChaos; outputSchema?: OutputSchemaCheck };
  /** Attempt counter to bump, and step to mark used. */
  change: { attemptKey?: string; consume?: number };
}

/** What the journal records of a chaos turn: the fault, the seed and the request number it was drawn for. */
export interface JournalChaos {
  kind: ChaosDraw["kind"];
  seed: number;
  draw: number;
}

/** The attempt counter of chaos turns: never a step's, so a chaos turn leaves the step for the retry. */
export const CHAOS_KEY = "chaos";

/** The request's number in the session for its chaos draw: the turns answered so far (steps, failures, chaos), plus one. */
function chaosRequestNumber(state: SessionState): number {
  let n = 1;
  for (const key in state.attempts) if (!key.startsWith("report:")) n += state.attempts[key]!;
  return n;
}

export const DEFAULT_USAGE = { inputTokens: 64, outputTokens: 32 } as const;
export const FINAL_REPORT_TOOL = "agent__final_report";
/** First line of an `onMismatch: "report"` answer unless the scenario's `reportTitles` says otherwise. */
export const DEFAULT_REPORT_TITLE = "# Scenario Failure";

export function attemptKey(stepIndex: number, provider: string): string {
  return `${stepIndex}:${provider}`;
}

/**
 * How many times step `stepIndex` answered in the session, whatever the provider: the number in its ids' seed, so
 * that two providers answered by one step (Gemini and Vertex, Anthropic and Bedrock) never share ids. A session
 * of one provider numbers exactly as its attempts.
 */
function stepAnswers(state: SessionState, stepIndex: number): number {
  const prefix = `${stepIndex}:`;
  let n = 0;
  for (const key in state.attempts) if (key.startsWith(prefix)) n += state.attempts[key]!;
  return n;
}

/** Each `state.used` list's Set, grown as the list grows (a session's list only grows, by push, until a reset replaces it). */
const usedSets = new WeakMap<number[], Set<number>>();

/**
 * The steps used as a Set, not `used.includes` per step: with consumed steps that was steps × used a turn, quadratic in
 * a long script. Kept beside the list and extended by what was pushed since, so a turn halfway through a recorded
 * script of N steps does not build a Set of N/2 again (that was the consumed-script curve's super-linear top decade).
 */
function usedSet(used: number[]): Set<number> | undefined {
  if (used.length === 0) return undefined;
  let set = usedSets.get(used);
  if (set === undefined || set.size > used.length) {
    set = new Set(used);
    usedSets.set(used, set);
  } else for (let i = set.size; i < used.length; i++) set.add(used[i]!);
  return set;
}

/**
 * Decides what answers `req`.
 * @example decide(scenario, { used: [], attempts: {} }, req, { scenario: "weather", session: "default" })
 */
export function decide(scenario: Scenario, state: SessionState, req: CanonicalRequest, ctx: EngineContext): Decision {
  const turn = turnOf(req);
  const side = scenario.sideCalls === undefined ? undefined : sideCall(scenario, req);
  if (side !== undefined) {
    const reply = limitReply(stopReply(resolveReply(scenario, { respond: { text: side.text } }, req, `${ctx.scenario}/${ctx.session}/side/${turn}/${side.reason}`), req.stopSequences), req.maxTokens);
    return { outcome: { kind: "reply", reply }, journal: { outcome: "side_call", reasons: [side.reason] }, change: {} };
  }
  const used = usedSet(state.used);
  const open = (step: Step, index: number) => step.consume === false || used?.has(index) !== true;
  // The first open step that matches, scanned in order without listing the open ones (only a mismatch needs them):
  // a turn answered by an early step of a long script costs that step, not the script. A compaction request
  // (`/v1/responses/compact`, a `compaction_trigger`) is answered by compaction steps only, so an agent compacting
  // mid-script never takes a step meant for a turn; without one it gets the default compaction.
  let chosen: { step: Step; index: number } | undefined;
  for (let index = 0; index < scenario.steps.length && chosen === undefined; index++) {
    const step = scenario.steps[index]!;
    if (!open(step, index) || (req.compactionRequested && step.respond?.compaction === undefined)) continue;
    if (matchMisses(step.match, req).length === 0) chosen = { step, index };
  }
  if (!chosen && req.compactionRequested) return defaultCompaction(scenario, req, ctx, turn);
  if (!chosen) {
    const available = scenario.steps.map((step, index) => ({ step, index })).filter(({ step, index }) => open(step, index));
    const misses = nearestMisses(available, req);
    const head = available.length === 0 ? `all ${scenario.steps.length} steps are used` : misses ? `no step matches; nearest step "${misses.id}" failed` : "no step matches";
    return mismatch(scenario, state, req, ctx, turn, head, misses?.misses ?? [], misses?.id, "noStep");
  }

  const { step, index } = chosen;
  const id = stepId(step, index);
  const expectMisses = expectationMisses(step.expect, req, scenario.systemPromptMustInclude);
  if (expectMisses.length > 0) {
    const head = `step "${id}" matched but its expectations failed`;
    return mismatch(scenario, state, req, ctx, turn, head, expectMisses, id, "expectations");
  }

  const key = attemptKey(index, req.provider);
  const attempt = (state.attempts[key] ?? 0) + 1;
  const reply = stepReply(scenario, step, req, `${seedBase(ctx)}/${id}/${stepAnswers(state, index) + 1}`, ctx.session);
  if (scenario.chaos !== undefined) {
    const d = drawChaos(scenario.chaos, ctx.scenario, ctx.session, chaosRequestNumber(state));
    if (d !== undefined && chaosApplies(d.kind, reply, req)) {
      return {
        outcome: chaosOutcome(d, scenario.chaos, reply, req),
        journal: { step: id, outcome: "chaos", reasons: [`chaos ${d.kind} (seed ${d.seed}, request ${d.draw})`], chaos: { kind: d.kind, seed: d.seed, draw: d.draw } },
        change: { attemptKey: CHAOS_KEY },
      };
    }
  }
  const failure = step.failures?.[attempt - 1];
  if (failure) {
    return {
      outcome: { kind: "failure", failure, reply, attempt },
      journal: { step: id, outcome: "failure", reasons: [`attempt ${attempt}: scripted ${failure.kind}`] },
      change: { attemptKey: key },
    };
  }
  const checked = checkOutput(req, reply, step.schemaCheck !== false);
  return {
    outcome: { kind: "reply", reply },
    journal: checked === undefined ? { step: id, outcome: "response", reasons: [] } : { step: id, outcome: "response", reasons: [], outputSchema: checked },
    change: step.consume === false ? { attemptKey: key } : { attemptKey: key, consume: index },
  };
}

/**
 * A step's reply as sent: its templates expanded (`{{vars.city}}`, `{{request.model}}`, …), every default applied,
 * cut before the request's first stop sequence (unless `stopSequences: "ignore"`), then at the request's output-token limit, unless the step states its own `finishReason` (a step that says
 * how it ends is sent as written).
 */
export function stepReply(scenario: Scenario, step: Step, req: CanonicalRequest, idSeed: string, session: string): Reply {
  // A response with no template is used as it is (resolveReply only reads it): no copy, no scan of the conversation.
  const expanded =
    step.respond === undefined || !hasTemplates(step.respond)
      ? step
      : {
          ...step,
          respond: expandResponse(step.respond, {
            vars: scenario.variables ?? {},
            request: { model: req.model, lastUserMessage: lastUserMessage(req) ?? "", turn: turnOf(req) },
            session,
          }),
        };
  const resolved = resolveReply(scenario, expanded, req, idSeed);
  // The request's stop sequences cut the text unless the step keeps it whole (`stopSequences: "ignore"`).
  if (step.respond?.finishReason !== undefined) return resolved;
  const reply = step.respond?.stopSequences === "ignore" ? resolved : stopReply(resolved, req.stopSequences);
  return limitReply(reply, req.maxTokens);
}

/** A compaction request no compaction step answers: the deterministic default compaction, no step used. */
function defaultCompaction(scenario: Scenario, req: CanonicalRequest, ctx: EngineContext, turn: number): Decision {
  const reply = resolveReply(scenario, undefined, req, `${ctx.scenario}/${ctx.session}/compaction/${turn}`);
  return {
    outcome: { kind: "reply", reply },
    journal: { outcome: "response", reasons: ["no compaction step: the default compaction"] },
    change: {},
  };
}

function nearestMisses(available: { step: Step; index: number }[], req: CanonicalRequest): { id: string; misses: Miss[] } | undefined {
  let best: { id: string; misses: Miss[] } | undefined;
  for (const { step, index } of available) {
    const misses = matchMisses(step.match, req);
    if (!best || misses.length < best.misses.length) best = { id: stepId(step, index), misses };
  }
  return best;
}

function mismatch(
  scenario: Scenario,
  state: SessionState,
  req: CanonicalRequest,
  ctx: EngineContext,
  turn: number,
  head: string,
  misses: Miss[],
  step: string | undefined,
  kind: "noStep" | "expectations",
): Decision {
  const reasons = misses.map(describeMiss);
  const message = [`mockllm: scenario "${ctx.scenario}" session "${ctx.session}" turn ${turn}: ${head}`, ...reasons.map((r) => `- ${r}`)].join("\n");
  const journal = { ...(step ? { step } : {}), outcome: "mismatch" as const, reasons: [head, ...reasons] };
  if (scenario.onMismatch !== "report") return { outcome: { kind: "mismatch", message }, journal, change: {} };
  const title = scenario.reportTitles?.[kind] ?? DEFAULT_REPORT_TITLE;
  const key = reportKey(turn);
  const report = (state.attempts[key] ?? 0) + 1;
  const seed = `${seedBase(ctx)}/mismatch/${turn}${report > 1 ? `/${report}` : ""}`;
  const reply = mismatchReport(req, message, seed, title);
  return { outcome: { kind: "reply", reply }, journal, change: { attemptKey: key } };
}

/** The `onMismatch: "report"` answer: the final-report tool call when offered, else text. */
export function mismatchReport(req: CanonicalRequest, message: string, idSeed: string, title = DEFAULT_REPORT_TITLE): Reply {
  const content = `${title}\n\n${message}`;
  const base = resolveReply(undefined, undefined, req, idSeed);
  if (req.tools.includes(FINAL_REPORT_TOOL)) {
    const args = { status: "failure", report_format: "markdown", report_content: content };
    return {
      ...base,
      text: "Encountered scenario mismatch.",
      toolCalls: [{ name: FINAL_REPORT_TOOL, arguments: JSON.stringify(args) }],
      finishReason: "tool_calls",
    };
  }
  return { ...base, text: content };
}

function resolveReasoning(r: ScenarioResponse["reasoning"]): ReplyReasoning[] {
  if (r === undefined) return [];
  if (typeof r === "string") return [{ type: "thinking", text: r }];
  return r.map((b) => ("redacted" in b ? { type: "redacted", data: b.redacted } : { type: "thinking", text: b.text, ...(b.signature !== undefined ? { signature: b.signature } : {}) }));
}

function resolveToolCall(c: NonNullable<ScenarioResponse["toolCalls"]>[number]): ReplyToolCall {
  const args = typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {});
  return c.id !== undefined ? { id: c.id, name: c.name, arguments: args } : { name: c.name, arguments: args };
}

/** Applies every default to a step's response. */
export function resolveReply(scenario: Scenario | undefined, step: Step | undefined, req: CanonicalRequest, idSeed: string): Reply {
  const r: ScenarioResponse = step?.respond ?? {};
  const d = scenario?.defaults ?? {};
  // Built by assignment, not with conditional spreads: this runs on every scripted turn, and an object literal with
  // spreads makes V8 add each later property through the runtime (a new hidden-class transition per call).
  const usage = d.usage === undefined ? r.usage : r.usage === undefined ? d.usage : { ...d.usage, ...r.usage };
  const stream = d.stream === undefined ? r.stream : r.stream === undefined ? d.stream : { ...d.stream, ...r.stream };
  const toolCalls: ReplyToolCall[] = r.toolCalls === undefined ? [] : r.toolCalls.map(resolveToolCall);
  const text = messageText(r) ?? (fillsTurn(r) ? undefined : "");
  const out = {} as Reply;
  if (text !== undefined) out.text = text;
  out.reasoning = resolveReasoning(r.reasoning);
  out.reasoningField = r.reasoningField ?? "reasoning_content";
  out.toolCalls = toolCalls;
  if (r.refusal !== undefined) out.refusal = r.refusal;
  out.finishReason = r.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop");
  out.usage = {
    inputTokens: usage?.inputTokens ?? DEFAULT_USAGE.inputTokens,
    outputTokens: usage?.outputTokens ?? DEFAULT_USAGE.outputTokens,
    cacheReadTokens: usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage?.cacheWriteTokens ?? 0,
    reasoningTokens: usage?.reasoningTokens ?? 0,
  };
  if (scenario?.usage === "count") out.countUsage = { input: usage?.inputTokens === undefined, output: usage?.outputTokens === undefined };
  out.model = r.model ?? answeredModel(req.provider, req.model);
  out.latencyMs = r.latencyMs ?? d.latencyMs ?? 0;
  out.pacing = {
    ttftMs: stream?.ttftMs ?? 0,
    tokensPerSecond: stream?.tokensPerSecond ?? 0,
    chunkDelayMs: stream?.chunkDelayMs ?? 0,
    chunkWords: stream?.chunkWords ?? 1,
    jitterMs: stream?.jitterMs ?? 0,
    seed: stream?.seed ?? 0,
  };
  out.headers = r.headers ?? {};
  out.idSeed = idSeed;
  // The kinds beside the message (src/scenario/reply-kinds.ts): each puts its own fields on the reply.
  for (const resolve of KINDS.resolve) resolve(r, out, req);
  return out;
}

/** The message's text from its kinds (`json` over `text`), if one is scripted. */
function messageText(r: ScenarioResponse): string | undefined {
  let text: string | undefined;
  for (const textOf of KINDS.text) text = textOf(r) ?? text;
  return text;
}

/** Whether a kind scripted beside the text answers the turn (tool calls, a refusal, a compaction): then no empty text. */
function fillsTurn(r: ScenarioResponse): boolean {
  for (const fills of KINDS.fillsTurn) if (fills(r)) return true;
  return false;
}
