/**
 * One turn of a conversation, whatever carried it (an HTTP request or a WebSocket message): scenario selection →
 * `Session.next()` (or the default responder) → the outcome and the render context. `handleProvider` and the
 * WebSocket protocols (src/sockets) both decide through here.
 */
import type { Outcome } from "../canonical/outcome";
import { defaultCreated, defaultReply } from "../default/responder";
import { countedOutcome, defaultCountsUsage, usageCount } from "./usage";
import type { Runtime } from "../runtime/types";
import { apiError, type ApiError } from "../http/errors";
import { headerText } from "../http/header-text";
import { noteSession } from "../session/session-index";
import type { NeedsDocument, NextInput, NextResult } from "../session/core";
import { QuotaError } from "../tenancy/quota";
import type { Recordings } from "../session/types";
import type { StoredScenario } from "../scenario/store";
import type { ParseResult, ProviderSurface, RenderContext } from "../providers/types";
import { chaosOfSpec } from "../scenario/chaos";
import { defaultChaos } from "./chaos";
import { defaultIdSeed } from "./default-ids";
import { upstreamFor } from "./record";
import { surfaceRequestId } from "./render";
import { resolveSurface } from "../providers/surface";
import { selectScenario, type Prefix } from "./select";
import { withNamespaceHint } from "./namespace-hint";
import { namespaceLimits } from "../tenancy/limits";
import { afterAnswer } from "../scenario/limits";
import { resolveReply } from "../scenario/engine";
import { isThenable } from "../util/awaitable";

const statusTables = new WeakMap<ProviderSurface<any>, Record<string, number>>();

/** Status each outcome kind gets on this surface, for the journal (worked out once per surface). */
export function statusTable<W>(surface: ProviderSurface<W>): Record<string, number> {
  let table = statusTables.get(surface);
  if (!table) {
    const resolved = resolveSurface(surface);
    const status = (code: ApiError["code"]) => resolved.renderError({ code, message: "" }, "").status;
    table = {
      mismatch: status("mismatch"),
      rate_limit: status("rate_limit"),
      overloaded: status("overloaded"),
      model_error: status("model_error"),
    };
    // A content_filter prompt block answered as an error (src/providers/types.ts `renderPromptBlock`).
    const block = resolved.refusal({ on: "prompt", categories: [] }, "");
    if (block) table.content_filter_prompt = block.status;
    // A filtered completion refused with the same error (OpenAI Images' moderation at the output stage).
    const filtered = resolved.refusal({ on: "completion", categories: [] }, "");
    if (filtered) table.content_filter_completion = filtered.status;
    statusTables.set(surface, table);
  }
  return table;
}

/** A seed no other request shares, for the ids of errors answered before a session is involved. */
export function uniqueSeed(): string {
  return crypto.randomUUID();
}

function defaultResponderOff(rt: Runtime): boolean {
  return rt.vars.DEFAULT_RESPONDER?.trim().toLowerCase() === "off";
}

/** Most scenario names listed in the default-responder-off 404. */
const LISTED_NAMES = 20;

/** DEFAULT_RESPONDER=off: the 404 for a request no rule selected, listing what could have matched. */
async function noScenarioSelected(rt: Runtime, hint: string | undefined): Promise<ApiError> {
  const names = await rt.scenarios.names();
  const auto = (await rt.scenarios.candidates()).map((s) => s.name);
  const shown = names.slice(0, LISTED_NAMES).join(", ") + (names.length > LISTED_NAMES ? ` and ${names.length - LISTED_NAMES} more` : "");
  return apiError(
    "not_found",
    [
      "mockllm: no scenario selected this request and the default responder is off (DEFAULT_RESPONDER=off).",
      ...(hint !== undefined ? [`${hint[0]!.toUpperCase()}${hint.slice(1)}.`] : []),
      "Select a scenario with the /s/{scenario}/{session} prefix in the base URL, the x-mock-scenario header, or a first user message equal to its name.",
      `Scenarios: ${shown || "none"}.`,
      auto.length > 0 ? `Scenarios whose top-level match was tried and did not hold: ${auto.join(", ")}.` : "",
    ]
      .filter((l) => l !== "")
      .join(" "),
  );
}

export function wordsPerSecond(rt: Runtime): number {
  const n = Number(rt.vars.DEFAULT_WORDS_PER_SECOND ?? "50");
  return Number.isFinite(n) && n >= 0 ? n : 50;
}

/** What a turn needs besides the parsed request: where it came from and what to journal. */
export interface TurnInput {
  prefix: Prefix;
  headers: Headers;
  /** The wire request as journaled (headers redacted, body possibly truncated); built only when a session journals. */
  wire: () => NextInput["wire"];
  /** Text of the body, for the default responder's stable request id. */
  bodyText: string;
  /** The text `wire().body` was parsed from, when it is journaled whole (not cut): what a store that `sendsBodyText` sends. */
  wireText?: string;
  /** Whether a recording upstream may take the turn (HTTP only: a WebSocket turn is never proxied). */
  allowProxy: boolean;
  /** A batch line (turn/batch.ts): journaled with its batch and `custom_id`. */
  batch?: NextInput["batch"];
}

export type TurnDecision<W> =
  /** `headers`: a namespace over its quota (`retry-after`, `x-mockllm-outcome: quota`). */
  | { kind: "error"; error: ApiError; headers?: Record<string, string> }
  /** No step answered and the scenario records from an upstream: the HTTP route proxies. */
  | { kind: "proxy"; stored: StoredScenario; session: string; stub: Recordings; result: NextResult; upstream: string }
  | { kind: "answer"; outcome: Outcome; ctx: RenderContext<W>; headers: Record<string, string> };

/**
 * Decides one turn: selection (contract section 2), then the session's step or the default responder.
 * @example const turn = await decideTurn(openaiResponses, rt, parsed, input)
 */
export async function decideTurn<W>(declared: ProviderSurface<W>, rt: Runtime, parsed: Extract<ParseResult<W>, { ok: true }>, input: TurnInput): Promise<TurnDecision<W>> {
  const surface = resolveSurface(declared);
  const selecting = selectScenario(rt.scenarios, input.prefix, input.headers, parsed.request);
  const selection = isThenable(selecting) ? await selecting : selecting;
  if (selection.kind === "error") return { kind: "error", error: await withNamespaceHint(rt, selection.error) };
  if (selection.kind === "default" && defaultResponderOff(rt)) {
    return { kind: "error", error: await noScenarioSelected(rt, selection.hint) };
  }
  const scenario = selection.kind === "scenario" ? selection.stored.scenario : undefined;
  const invalid = surface.validate(parsed.wire, parsed.request, scenario);
  if (invalid) return { kind: "error", error: invalid };
  // The caller's namespace's `limits` (tenancy/limits.ts): this request holds a place in its window until settled.
  const limitsOf = namespaceLimits(rt);
  const nsLimits = isThenable(limitsOf) ? await limitsOf : limitsOf;
  const settle = (tokens: number | null) => nsLimits?.settle(tokens);

  let outcome: Outcome;
  let requestId: string;
  let created = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {};
  if (selection.kind === "scenario") {
    const { stored, session } = selection;
    const stub = rt.sessions.get(`${stored.name}/${session}`);
    const upstream = input.allowProxy ? upstreamFor(stored.scenario, surface.provider) : undefined;
    const wire = input.wire();
    const next: NextInput = {
      scenario: stored.name,
      session,
      version: stored.version,
      request: parsed.request,
      wire,
      statuses: statusTable(surface),
    };
    if (rt.sessions.sendsBodyText === true && input.wireText !== undefined) {
      next.wire = { ...wire, body: undefined };
      next.wireText = input.wireText;
    }
    if (upstream !== undefined) next.record = true;
    if (input.batch !== undefined) next.batch = input.batch;
    if (nsLimits !== undefined) next.namespaceLimits = nsLimits.check;
    if (stored.scenario.usage === "count") {
      const count = await usageCount(surface, parsed.wire, parsed.request);
      if (count !== undefined) next.count = count;
    }
    let result: NextResult | NeedsDocument;
    try {
      // A session in this process answers at once (Node), one across a boundary with a promise (a Durable Object).
      const decided = stub.next(next);
      result = isThenable(decided) ? await decided : decided;
      if ("needsDocument" in result) result = await stub.next({ ...next, document: stored.scenario });
    } catch (e) {
      // A namespace's session or journal quota (src/tenancy): the surface's 429, on HTTP and over a socket alike.
      await settle(null);
      if (!(e instanceof QuotaError)) throw e;
      return { kind: "error", error: e.apiError(), headers: e.headers() };
    }
    if ("needsDocument" in result) throw new Error("mockllm: the session asked for the scenario document twice");
    if (result.proxy && upstream !== undefined) {
      await settle(0);
      return { kind: "proxy", stored, session, stub, result, upstream };
    }
    const noted = noteSession(rt.sessions, stored.name, session, result.seq);
    if (isThenable(noted)) await noted;
    outcome = result.outcome;
    requestId = surfaceRequestId(surface, `${stored.name}/${session}/${result.seq}`);
    headers["x-mockllm-scenario"] = stored.name;
    headers["x-mockllm-session"] = session;
    headers["x-mockllm-version"] = result.version;
    if (result.step !== undefined) headers["x-mockllm-step"] = headerText(result.step);
    headers["x-mockllm-outcome"] = result.journaled;
    if (result.limits !== undefined) Object.assign(headers, surface.rateLimitHeaders(result.limits));
    if (result.chaos !== undefined) headers["x-mockllm-chaos"] = `${result.chaos.kind}; seed=${result.chaos.seed}; draw=${result.chaos.draw}`;
  } else {
    const idSeed = await defaultIdSeed(surface, rt, parsed.wire, parsed.request, selection.session, input.bodyText);
    outcome = { kind: "reply", reply: defaultReply(parsed.request, { wordsPerSecond: wordsPerSecond(rt), idSeed }) };
    requestId = surfaceRequestId(surface, idSeed);
    created = defaultCreated(parsed.request);
    headers["x-mockllm-outcome"] = "default";
    const chaos = chaosOfSpec(rt.vars.CHAOS);
    if (chaos !== undefined) outcome = await defaultChaos(rt, chaos, selection.session, parsed.request, outcome.reply, headers);
    if (selection.hint !== undefined) headers["x-mockllm-hint"] = selection.hint;
    if (nsLimits?.check.over === true) {
      // Over the namespace's limits: the provider's 429, as a scenario's limits answer it (not journaled: no session).
      const { view, retryAfterMs, limit } = nsLimits.check;
      outcome = { kind: "failure", failure: { kind: "rate_limit", retryAfterMs }, reply: resolveReply(undefined, undefined, parsed.request, `limited/${requestId}`), attempt: 0, limited: limit };
      headers["x-mockllm-outcome"] = "failure";
      Object.assign(headers, surface.rateLimitHeaders(view));
    }
  }
  if (outcome.kind === "reply") {
    const completing = surface.complete(parsed.wire, parsed.request, outcome.reply, rt);
    const completed = isThenable(completing) ? await completing : completing;
    if (!("idSeed" in completed)) {
      await settle(0);
      return { kind: "error", error: completed };
    }
    outcome = { ...outcome, reply: completed };
  }
  const counting = countedOutcome(surface, parsed.wire, parsed.request, outcome, selection.kind === "default" && defaultCountsUsage(rt));
  outcome = isThenable(counting) ? await counting : counting;
  if (nsLimits !== undefined) {
    const u = outcome.kind === "reply" ? outcome.reply.usage : undefined;
    const tokens = u === undefined ? 0 : u.inputTokens + u.outputTokens;
    await settle(outcome.kind === "failure" && outcome.limited !== undefined ? null : tokens);
    // The default responder's answer within them carries the namespace's buckets (a session's carry the stricter).
    if (selection.kind === "default" && !nsLimits.check.over) Object.assign(headers, surface.rateLimitHeaders(afterAnswer(nsLimits.check.view, tokens)));
  }
  const ctx: RenderContext<W> =
    selection.kind === "scenario"
      ? { wire: parsed.wire, request: parsed.request, requestId, created, scenario: selection.stored.name, session: selection.session }
      : { wire: parsed.wire, request: parsed.request, requestId, created, session: selection.session };
  return { kind: "answer", outcome, ctx, headers };
}
