/**
 * One Durable Object per (scenario, session): which steps are used, attempt counters, the journal and
 * the scenario version in use. RPC methods over plain data; all SQLite calls are synchronous, so each
 * request is decided and recorded atomically, in arrival order.
 */
import { DurableObject } from "cloudflare:workers";
import type { CanonicalRequest } from "../canonical/request";
import { turnOf } from "../canonical/request";
import type { JournalOutcome, Outcome } from "../canonical/outcome";
import { decide, type SessionState } from "../scenario/engine";
import { stepId, type Scenario } from "../scenario/schema";
import type { Env } from "../env";
import {
  deletePointer,
  deleteResponse,
  loadHistory,
  loadItems,
  loadResponse,
  readPointer,
  savePointer,
  saveResponse,
  type ResponseHistory,
  type StoredResponseRecord,
} from "./responses-store";

/** Most journal entries kept per session; older ones are dropped. */
export const JOURNAL_LIMIT = 1000;

/** What the Worker passes for one request. */
export interface NextInput {
  scenario: string;
  session: string;
  version: string;
  document: Scenario;
  request: CanonicalRequest;
  /** The wire request as journaled: headers redacted, body possibly truncated. */
  wire: { method: string; path: string; headers: Record<string, string>; body: unknown };
  /** HTTP status this surface answers each outcome with, for the journal. */
  statuses: Record<string, number>;
}

export interface NextResult {
  outcome: Outcome;
  seq: number;
  version: string;
  step?: string;
}

export interface JournalEntry {
  seq: number;
  at: string;
  provider: string;
  endpoint: string;
  stream: boolean;
  turn: number;
  step: string | null;
  outcome: JournalOutcome;
  reasons: string[];
  request: NextInput["wire"];
  status: number;
}

export interface SessionView {
  version: string | null;
  steps: { id: string; used: boolean; attempts: number; attemptsByProvider: Record<string, number> }[];
  requests: number;
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
      // A stream_error on a JSON request is answered as a server error (see routes/render.ts).
      if (f.kind === "stream_error" && !stream) return statuses.model_error ?? 500;
      return statuses[f.kind] ?? 200;
    }
  }
}

export class SessionObject extends DurableObject<Env> {
  private sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.migrate();
  }

  private migrate(): void {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS used (step INTEGER PRIMARY KEY)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS attempts (key TEXT PRIMARY KEY, count INTEGER NOT NULL)`);
    this.sql.exec(
      `CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, entry TEXT NOT NULL)`,
    );
  }

  private meta(key: string): string | undefined {
    const row = this.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = ?`, key).toArray()[0];
    return row?.value;
  }

  private setMeta(key: string, value: string): void {
    this.sql.exec(`INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`, key, value);
  }

  private loadState(): SessionState {
    const used = this.sql.exec<{ step: number }>(`SELECT step FROM used`).toArray().map((r) => r.step);
    const attempts: Record<string, number> = {};
    for (const r of this.sql.exec<{ key: string; count: number }>(`SELECT key, count FROM attempts`)) {
      attempts[r.key] = r.count;
    }
    return { used, attempts };
  }

  /** The scenario snapshot this session runs: the first version it saw, until reset. */
  private snapshot(input: Pick<NextInput, "version" | "document">): { version: string; document: Scenario } {
    const version = this.meta("version");
    const doc = this.meta("document");
    if (version !== undefined && doc !== undefined) return { version, document: JSON.parse(doc) as Scenario };
    this.setMeta("version", input.version);
    this.setMeta("document", JSON.stringify(input.document));
    return { version: input.version, document: input.document };
  }

  /** Decides the outcome of one request, applies the state change and journals it. */
  next(input: NextInput): NextResult {
    const snap = this.snapshot(input);
    const decision = decide(snap.document, this.loadState(), input.request, {
      scenario: input.scenario,
      session: input.session,
    });
    const { attemptKey, consume } = decision.change;
    if (attemptKey !== undefined) {
      this.sql.exec(
        `INSERT INTO attempts (key, count) VALUES (?, 1) ON CONFLICT(key) DO UPDATE SET count = count + 1`,
        attemptKey,
      );
    }
    if (consume !== undefined) this.sql.exec(`INSERT OR IGNORE INTO used (step) VALUES (?)`, consume);

    const entry: Omit<JournalEntry, "seq"> = {
      at: new Date().toISOString(),
      provider: input.request.provider,
      endpoint: input.request.endpoint,
      stream: input.request.stream,
      turn: turnOf(input.request),
      step: decision.journal.step ?? null,
      outcome: decision.journal.outcome,
      reasons: decision.journal.reasons,
      request: input.wire,
      status: statusOf(decision.outcome, input.statuses, input.request.stream),
    };
    const seq = this.sql
      .exec<{ seq: number }>(`INSERT INTO journal (entry) VALUES (?) RETURNING seq`, JSON.stringify(entry))
      .one().seq;
    this.sql.exec(`DELETE FROM journal WHERE seq <= ?`, seq - JOURNAL_LIMIT);
    return {
      outcome: decision.outcome,
      seq,
      version: snap.version,
      ...(decision.journal.step !== undefined ? { step: decision.journal.step } : {}),
    };
  }

  /** Steps used, attempts and journal size; steps come from the snapshot, or `current` before first use. */
  state(current?: Scenario): SessionView {
    const version = this.meta("version") ?? null;
    const docText = this.meta("document");
    const doc = docText !== undefined ? (JSON.parse(docText) as Scenario) : current;
    const st = this.loadState();
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
    const requests = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM journal`).one().n;
    return { version, steps, requests };
  }

  /** The journal, oldest first. */
  requests(): JournalEntry[] {
    return this.sql
      .exec<{ seq: number; entry: string }>(`SELECT seq, entry FROM journal ORDER BY seq`)
      .toArray()
      .map((r) => ({ seq: r.seq, ...(JSON.parse(r.entry) as Omit<JournalEntry, "seq">) }));
  }

  /** OpenAI Responses state (see responses-store.ts): remembers a stored response and its output items. */
  saveResponse(record: StoredResponseRecord): void {
    saveResponse(this.sql, record);
  }

  /** A stored response object (JSON text), or null. */
  responseById(id: string): string | null {
    return loadResponse(this.sql, id);
  }

  /** The conversation a `previous_response_id` stands for, as far as this session holds it. */
  responseHistory(id: string): ResponseHistory {
    return loadHistory(this.sql, id);
  }

  /** Stored output items by id (JSON text each), for `item_reference` inputs. */
  responseItems(ids: string[]): Record<string, string> {
    return loadItems(this.sql, ids);
  }

  /** Forgets a stored response; false when this session did not hold it. */
  deleteResponse(id: string): boolean {
    return deleteResponse(this.sql, id);
  }

  /** Response index objects only: records which session object holds response `id`. */
  pointResponse(id: string, object: string): void {
    savePointer(this.sql, id, object);
  }

  /** Response index objects only: the session object holding response `id`, or null. */
  responsePointer(id: string): string | null {
    return readPointer(this.sql, id);
  }

  /** Response index objects only: forgets where response `id` is. */
  forgetResponsePointer(id: string): void {
    deletePointer(this.sql, id);
  }

  /** Forgets usage, attempts, journal and snapshot; the next request picks up the newest version. */
  reset(): { reset: true } {
    this.sql.exec(`DROP TABLE IF EXISTS meta`);
    this.sql.exec(`DROP TABLE IF EXISTS used`);
    this.sql.exec(`DROP TABLE IF EXISTS attempts`);
    this.sql.exec(`DROP TABLE IF EXISTS journal`);
    this.migrate();
    return { reset: true };
  }
}
