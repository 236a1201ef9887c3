/**
 * The session state machine, runtime-free: decides each request with the pure engine, applies the state change and
 * journals it, over a `SessionStorage` that each runtime implements (SQLite in the Durable Object, memory on Node).
 * Every method is synchronous, so one request is decided and recorded atomically whichever runtime hosts it.
 */
import type { CanonicalRequest } from "../canonical/request";
import { turnOf } from "../canonical/request";
import type { JournalOutcome, Outcome } from "../canonical/outcome";
import type { RateLimitView } from "../canonical/rate-limits";
import { countReply, type UsageCount } from "../canonical/reply-tokens";
import { decide, resolveReply, type JournalChaos, type SessionState } from "../scenario/engine";
import { afterAnswer, checkLimits, dropLeading, stricter, WINDOW_MS, type LimitCheck, type WindowEntry } from "../scenario/limits";
import { stepId, type Scenario } from "../scenario/schema";
import { canonicalView, type CanonicalView, type ToolCallIds } from "./canonical-view";
import { idScopeOf, journaledWire, type JournaledInput, type WireRequest } from "./caller";
import type { McpCanonicalView } from "./mcp";
import type { OutputSchemaCheck } from "../canonical/output-schema";

/** The largest time a Date holds (ms either side of 1970). */
const MAX_TIME = 8.64e15;
/** The ISO text of the last second asked, up to its milliseconds (`2026-01-02T03:04:05.`). */
let lastSecond = { second: Number.NaN, head: "" };
/** `new Date(ms).toISOString()`, remembered for the last millisecond asked (requests arriving together share it). */
let lastIso = { ms: Number.NaN, iso: "" };
export function isoAt(ms: number): string {
  if (ms === lastIso.ms) return lastIso.iso;
  if (!(Math.abs(ms) <= MAX_TIME)) return new Date(ms).toISOString(); // NaN, or past a Date's range: its RangeError
  const second = Math.floor(ms / 1000);
  // A Date made and formatted once a second, not once a millisecond: the milliseconds are written onto its text.
  if (second !== lastSecond.second) lastSecond = { second, head: new Date(second * 1000).toISOString().slice(0, -4) };
  const milli = Math.floor(ms - second * 1000);
  const iso = `${lastSecond.head}${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}Z`;
  lastIso = { ms, iso };
  return iso;
}

/** Most journal entries kept per session; older ones are dropped. */
export const JOURNAL_LIMIT = 1000;
/** Most names an index object (`__index/…`) keeps; the least recently noted are dropped. */
export const INDEX_LIMIT = 500;

/** What the route passes for one request. */
export interface NextInput extends JournaledInput {
  scenario: string;
  session: string;
  version: string;
  /**
   * The scenario document, needed only by a session that has no snapshot yet: the route first sends the version
   * alone and sends the document when `next` answers `{ needsDocument: true }`, so a running session's requests do
   * not carry (or copy across the Durable Object boundary) the whole document.
   */
  document?: Scenario;
  request: CanonicalRequest;
  /** HTTP status this surface answers each outcome with, for the journal. */
  statuses: Record<string, number>;
  /** A recording upstream serves this request's provider: a mismatch is not journaled but handed back as `proxy`. */
  record?: boolean;
  /**
   * The journaled body as the JSON text it was parsed from, sent in place of `wire.body` (then undefined) by a
   * store that `sendsBodyText`: the journal keeps the text, which reads back as the same value.
   */
  wireText?: string;
  /** A batch line (contract section 11): journaled on the entry as `batch`. */
  batch?: BatchRef;
  /** Scenario `"usage": "count"`: the prompt's tokens and the reply counter, so the reply is journaled counted. */
  count?: UsageCount;
  /** The caller's namespace's `limits` check for this request (tenancy/limits.ts): the stricter of it and the scenario's applies. */
  namespaceLimits?: LimitCheck;
}

/** Which batch and line a journal entry came from. */
export interface BatchRef {
  id: string;
  customId: string;
}

export interface NextResult {
  outcome: Outcome;
  /** What the journal records (an `onMismatch: "report"` answer is a reply journaled as a mismatch). */
  journaled: JournalOutcome;
  seq: number;
  version: string;
  step?: string;
  /** No step answers and recording is on: the route proxies the request and reports it with `Session.record`. */
  proxy?: true;
  /** Outcome `chaos`: the fault drawn (the route sends it as `x-mockllm-chaos`). */
  chaos?: JournalChaos;
  /** The scenario's `limits`: the session's buckets after this request, for the provider's rate-limit headers. */
  limits?: RateLimitView;
}

interface JournalEntryBase {
  seq: number;
  at: string;
  provider: string;
  endpoint: string;
  stream: boolean;
  turn: number;
  step: string | null;
  outcome: JournalOutcome;
  reasons: string[];
  request: WireRequest;
  status: number;
  /** Outcome `chaos`: the fault drawn, the seed and the request number (src/scenario/chaos.ts). */
  chaos?: JournalChaos;
  /** Refused by the scenario's `limits` (a 429 before any step was tried): not counted in the limits' window. */
  limited?: true;
}

/** A model request (every provider surface). */
export interface ModelJournalEntry extends JournalEntryBase {
  surface?: undefined;
  /** What the engine saw and answered, provider-neutral (absent on entries journaled before it existed). */
  canonical?: CanonicalView;
  /** A batch line's request: its batch and `custom_id`. */
  batch?: BatchRef;
  /** A scripted answer checked against the request's strict schema (contract section 11); absent when not checked. */
  outputSchema?: OutputSchemaCheck;
}

/** A `tools/call` to the session's MCP server (provider "mcp", endpoint "tools/call", step = the call's id). */
export interface McpJournalEntry extends JournalEntryBase {
  surface: "mcp";
  canonical?: McpCanonicalView;
}

export type JournalEntry = ModelJournalEntry | McpJournalEntry;
/** An entry before the journal numbers it. */
export type JournalDraft = Omit<ModelJournalEntry, "seq"> | Omit<McpJournalEntry, "seq">;

/** `next` without a document, for a session that has no snapshot yet: nothing was decided or recorded. */
export interface NeedsDocument {
  needsDocument: true;
}

export interface SessionView {
  version: string | null;
  steps: { id: string; used: boolean; attempts: number; attemptsByProvider: Record<string, number> }[];
  /** The scenario's `mcp.calls` (absent when it scripts none): consumed, and attempts (session/mcp.ts). */
  mcpCalls?: { id: string; used: boolean; attempts: number; consume: boolean }[];
  requests: number;
  /** When the newest journaled request arrived; null when there is none. */
  lastAt: string | null;
}

/** The scenario version a session runs: the first it saw, until reset. */
export interface Snapshot {
  version: string;
  document: Scenario;
}

/** What a turn changes besides its journal entry, written with it (on the Worker, in the entry's own row). */
export interface TurnWrite {
  /** The attempt counter this request bumps. */
  attempt?: string;
  /** The step this request consumes (marked used). */
  used?: number;
  /** The request body as JSON text, when `entry.request.body` is left undefined (`NextInput.wireText`); a storage of objects parses it. */
  bodyJson?: string;
}

/** What a session keeps. Synchronous: both runtimes' stores are (SQLite in a Durable Object, memory on Node). */
export interface SessionStorage {
  snapshot(): Snapshot | undefined;
  setSnapshot(snapshot: Snapshot): void;
  /** Steps used and attempt counters. */
  state(): SessionState;
  bumpAttempt(key: string): void;
  /**
   * Appends an entry bounded as session/bound.ts says (`boundEntry`, or `boundJson` for a storage that keeps JSON
   * text), drops entries older than the newest `limit`, applies the turn's state change (`turn`) with it, and returns
   * the new entry's seq (from 1).
   */
  append(entry: JournalDraft, limit: number, turn?: TurnWrite): number;
  /** The journal, oldest first. */
  journal(): JournalEntry[];
  /**
   * The journal newest first, read as far as the caller goes (a scenario's `limits` reads the last minute only): for a
   * storage that keeps each entry as text and parses it when read. Without it, `journal()` read backwards.
   */
  newestFirst?(): Iterable<JournalEntry>;
  journalSize(): number;
  /** `at` of the newest journal entry. */
  lastAt(): string | undefined;
  /** Index objects: notes `key` as seen at `at` (again: moves it to the newest), keeping the newest `limit`. */
  noteMember(key: string, at: string, limit: number): void;
  /** Index objects: the keys noted, oldest first. */
  members(): { key: string; at: string }[];
  /** Index objects: forgets `key` (an expired session). */
  forgetMember(key: string): void;
  /** Forgets everything above. */
  clear(): void;
}

/** The HTTP status the client gets; failures that break a 200 body mid-way are journaled as 200. */
function statusOf(outcome: Outcome, statuses: Record<string, number>, stream: boolean): number {
  switch (outcome.kind) {
    case "reply":
      return 200;
    case "mismatch":
      return statuses.mismatch ?? 400;
    case "failure": {
      const f = outcome.failure;
      if (f.kind === "http") return f.status;
      // A stream_error on a JSON request is answered as a server error (see turn/render.ts).
      if (f.kind === "stream_error" && !stream) return statuses.model_error ?? 500;
      // A content_filter is a 200 answer, unless the surface refuses a blocked prompt with an error (Azure's 400).
      if (f.kind === "content_filter") return f.on === "prompt" ? (statuses.content_filter_prompt ?? 200) : (statuses.content_filter_completion ?? 200);
      return statuses[f.kind] ?? 200;
    }
  }
}

/** The tokens a journal entry counts in a scenario's `limits` window; undefined for one it does not count (MCP, a 429 of the limits). */
function limitedTokens(e: JournalDraft): number | undefined {
  if (e.surface === "mcp" || e.limited === true) return undefined;
  const u = e.canonical?.usage;
  return u ? u.inputTokens + u.outputTokens : 0;
}

/**
 * The journal entry of one model request, before the journal numbers it: the request as it came, `journal` as the
 * session decided it, and the canonical view of `answer`; the caller adds what is its own (a batch line, chaos, `limited`).
 */
function modelDraft(
  input: NextInput,
  now: number,
  answer: Outcome,
  toolCallIds: ToolCallIds,
  journal: { step: string | null; outcome: JournalOutcome; reasons: string[]; status: number },
): Omit<ModelJournalEntry, "seq"> {
  return {
    at: isoAt(now),
    provider: input.request.provider,
    endpoint: input.request.endpoint,
    stream: input.request.stream,
    turn: turnOf(input.request),
    step: journal.step,
    outcome: journal.outcome,
    reasons: journal.reasons,
    request: journaledWire(input),
    status: journal.status,
    canonical: canonicalView(input.request, answer, toolCallIds),
  };
}

/**
 * One (scenario, session): the engine applied over a storage.
 * @example new SessionCore(storage, wireToolCallIds).next({ scenario: "weather", session: "t1", version, document, request, wire, statuses })
 */
export class SessionCore {
  /** @param toolCallIds the ids clients see for a reply's tool calls (the providers' own), for the journal */
  constructor(
    private readonly storage: SessionStorage,
    private readonly toolCallIds: ToolCallIds,
  ) {}

  /**
   * What a scenario's `limits` count, in journal order: the answered requests of the journal's last minute (its newest
   * JOURNAL_LIMIT entries, as a read of the journal would see), each with its seq. Read from the storage the first
   * time a turn checks limits, then kept in step with every entry this core appends, so a session answering
   * hundreds of requests a minute does not parse its journal again each turn. Undefined until read, and after a reset.
   * Bounded as the journal is, so a `requestsPerMinute` over JOURNAL_LIMIT never binds (docs/guide/budgets-and-limits.md).
   */
  private recent: (WindowEntry & { seq: number })[] | undefined;

  /** The snapshot this session runs; the first call stores `input`'s version. Undefined: send the document. */
  snapshot(input: Pick<NextInput, "version" | "document">): Snapshot | undefined {
    const have = this.storage.snapshot();
    if (have) return have;
    if (input.document === undefined) return undefined;
    const snap = { version: input.version, document: input.document };
    this.storage.setSnapshot(snap);
    return snap;
  }

  /** Decides the outcome of one request, applies the state change and journals it. */
  next(input: NextInput, now = Date.now()): NextResult | NeedsDocument {
    const snap = this.snapshot(input);
    if (!snap) return { needsDocument: true };
    const idScope = idScopeOf(input.caller);
    const own = snap.document.limits === undefined ? undefined : checkLimits(snap.document.limits, this.window(now), now);
    const limits = input.namespaceLimits === undefined ? own : stricter(own, input.namespaceLimits);
    if (limits?.over === true) return this.limited(input, snap.version, limits, now);
    const decision = decide(snap.document, this.storage.state(), input.request, {
      scenario: input.scenario,
      session: input.session,
      ...(idScope !== undefined ? { idScope } : {}),
    });
    if (input.record === true && decision.journal.outcome === "mismatch") {
      return { outcome: decision.outcome, journaled: "mismatch", seq: 0, version: snap.version, proxy: true };
    }
    const { attemptKey, consume } = decision.change;
    // Counted before journaling, so the journal, budgets and limits see what the client is told (canonical/reply-tokens.ts).
    if (input.count !== undefined && decision.outcome.kind === "reply") decision.outcome = { kind: "reply", reply: countReply(decision.outcome.reply, input.count) };
    const draft = modelDraft(input, now, decision.outcome, this.toolCallIds, {
      step: decision.journal.step ?? null,
      outcome: decision.journal.outcome,
      reasons: decision.journal.reasons,
      status: statusOf(decision.outcome, input.statuses, input.request.stream),
    });
    // The draft's own fields, then those only some turns have (set on it: the draft is this turn's, made just above).
    if (input.batch !== undefined) draft.batch = input.batch;
    if (decision.journal.chaos !== undefined) draft.chaos = decision.journal.chaos;
    if (decision.journal.outputSchema !== undefined) draft.outputSchema = decision.journal.outputSchema;
    const seq = this.append(draft, { attempt: attemptKey, used: consume, bodyJson: input.wireText });
    const result: NextResult = { outcome: decision.outcome, journaled: decision.journal.outcome, seq, version: snap.version };
    if (decision.journal.step !== undefined) result.step = decision.journal.step;
    if (decision.journal.chaos !== undefined) result.chaos = decision.journal.chaos;
    if (limits !== undefined) {
      const u = decision.outcome.kind === "reply" ? decision.outcome.reply.usage : undefined;
      result.limits = afterAnswer(limits.view, u === undefined ? 0 : u.inputTokens + u.outputTokens);
    }
    return result;
  }

  /**
   * The session's answered requests of the minute before `now`, oldest first (`recent`): read only for a scenario with
   * `limits`, from the journal the first time (newest back, stopping at the first older one), then from memory.
   */
  private window(now: number): WindowEntry[] {
    let recent = this.recent;
    if (recent === undefined) {
      recent = [];
      for (const e of this.storage.newestFirst?.() ?? this.storage.journal().reverse()) {
        const at = Date.parse(e.at);
        if (at <= now - WINDOW_MS) break;
        const tokens = limitedTokens(e);
        if (tokens !== undefined) recent.push({ seq: e.seq, at, tokens });
      }
      this.recent = recent.reverse();
      return recent;
    }
    dropLeading(recent, (e) => e.at <= now - WINDOW_MS);
    return recent;
  }

  /** Appends `draft` to the journal (bounded at JOURNAL_LIMIT) and keeps the limits' window in step; returns its seq. */
  private append(draft: JournalDraft, turn?: TurnWrite): number {
    const seq = this.storage.append(draft, JOURNAL_LIMIT, turn);
    const recent = this.recent;
    if (recent === undefined) return seq;
    const tokens = limitedTokens(draft);
    if (tokens !== undefined) recent.push({ seq, at: Date.parse(draft.at), tokens });
    dropLeading(recent, (e) => e.seq <= seq - JOURNAL_LIMIT);
    return seq;
  }

  /** A request over the scenario's `limits`: the provider's 429, journaled with no step, no state change. */
  private limited(input: NextInput, version: string, over: Extract<LimitCheck, { over: true }>, now: number): NextResult {
    const { limit, retryAfterMs, view } = over;
    const max = limit === "requestsPerMinute" ? view.requests?.limit : view.tokens?.limit;
    const outcome = {
      kind: "failure" as const,
      failure: { kind: "rate_limit" as const, retryAfterMs },
      reply: resolveReply(undefined, undefined, input.request, `${input.scenario}/${input.session}/limited/${now}`),
      attempt: 0,
      limited: limit,
    };
    const seq = this.append(
      {
        ...modelDraft(input, now, outcome, this.toolCallIds, {
          step: null,
          outcome: "failure",
          reasons: [`${over.namespace === true ? "namespace limits" : "limits"}: ${limit} ${max} reached; retry in ${retryAfterMs} ms`],
          status: input.statuses.rate_limit ?? 429,
        }),
        limited: true,
      },
      { bodyJson: input.wireText },
    );
    return { outcome, journaled: "failure", seq, version, limits: view };
  }

  /** Steps used, attempts and journal size; steps come from the snapshot, or `current` before first use. */
  state(current?: Scenario): SessionView {
    const snap = this.storage.snapshot();
    const doc = snap?.document ?? current;
    const st = this.storage.state();
    const steps = (doc?.steps ?? []).map((step, index) => {
      const byProvider: Record<string, number> = {};
      for (const [key, count] of Object.entries(st.attempts)) {
        const [i, provider] = key.split(":");
        if (Number(i) === index && provider) byProvider[provider] = count;
      }
      return {
        id: stepId(step, index),
        used: st.used.includes(index),
        attempts: Object.values(byProvider).reduce((a, b) => a + b, 0),
        attemptsByProvider: byProvider,
      };
    });
    return {
      version: snap?.version ?? null,
      steps,
      requests: this.storage.journalSize(),
      lastAt: this.storage.lastAt() ?? null,
    };
  }

  /** Journals a request answered outside the engine (a recording proxy's upstream); returns its seq. */
  journalEntry(entry: JournalDraft): number {
    return this.append(entry);
  }

  /** The journal, oldest first. */
  requests(): JournalEntry[] {
    return this.storage.journal();
  }

  /** Index objects: notes a member name (a session of a scenario); the oldest beyond `limit` are dropped. */
  /** Bumps this object's counter `key` (kept with the attempt counters) and returns its new value, from 1. */
  increment(key: string): number {
    // State first: a storage that caches its counters loads them before the bump (as next() does), not after it.
    const before = this.storage.state().attempts[key] ?? 0;
    this.storage.bumpAttempt(key);
    return before + 1;
  }

  noteMember(key: string, now = Date.now(), limit = INDEX_LIMIT): void {
    this.storage.noteMember(key, new Date(now).toISOString(), limit);
  }

  members(): { key: string; at: string }[] {
    return this.storage.members();
  }

  forgetMember(key: string): void {
    this.storage.forgetMember(key);
  }

  /** Forgets usage, attempts, journal and snapshot; the next request picks up the newest version. */
  reset(): { reset: true } {
    this.storage.clear();
    this.recent = undefined;
    return { reset: true };
  }
}
