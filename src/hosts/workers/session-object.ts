/**
 * The Workers runtime's session: one Durable Object per (scenario, session), SQLite storage. RPC methods over plain
 * data delegate to the runtime-free `sessionHost`; all SQLite calls are synchronous, so each request is decided and
 * recorded atomically, in arrival order.
 */
import { DurableObject } from "cloudflare:workers";
import { ABSENT } from "../../session/absent";
import { sessionHost } from "../../session/host";
import { call, MEMBERS, type MemberKind } from "../../session/members";
import { indexOf } from "../../session/session-index";
import type { Session, SyncSession } from "../../session/types";
import type { NextInput } from "../../session/core";
import { isDirectory } from "../../tenancy/scope";
import { loadReplyCounter, wireToolCallIds } from "../../providers/registry";
import { hasReplyCounter } from "../../canonical/reply-tokens";
import { sessionTtlMs } from "../../tenancy/quota";
import type { WorkerEnv } from "./env";
import { SqlMcpStorage } from "./sql-mcp";
import { workersRuntime } from "./runtime";
import { DurableSockets } from "./sockets";
import { SqlRecordingStorage } from "./sql-recording";
import { SqlResponsesStorage } from "./sql-responses";
import { META, SqlSessionStorage } from "./sql-session";
import { SqlTables, table } from "./sql-tables";

/** Objects a namespace's directory purges per alarm run (each one RPC, run together). */
const PURGE_BATCH = 50;
/** On a namespace's directory being purged: how many of its objects are done. */
const PURGE = table("purge", "done INTEGER NOT NULL");

/** The members the static block below defines on the prototype, one per `MEMBERS` entry. */
export interface SessionObject extends Omit<SyncSession, "exists"> {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above declares what the static block defines
export class SessionObject extends DurableObject<WorkerEnv> {
  private current: SyncSession | undefined;
  /** This object's tables (each made on its first write), shared by the host's stores and the sockets. */
  private known: SqlTables | undefined;
  private readonly sockets: DurableSockets;
  /** The commit in flight: settles once the writes made so far are durable (`storage.sync()`); unset when none is. */
  private committing: Promise<void> | undefined;
  /** The queued journal rows' write once `committing` settles, shared by every call queued behind it (`afterFlush`). */
  private flushing: Promise<void> | undefined;
  /** When the expiry alarm was last (re)scheduled by this instance (ms; 0 = not yet). */
  private alarmSetAt = 0;
  private lastActive = 0;
  private expiries = 0;

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    // A socket's turns run here and reach state like any request: through a Runtime over this Worker's bindings.
    this.sockets = new DurableSockets(
      ctx,
      () => workersRuntime(env),
      () => this.tables,
      () => {
        this.touch();
        return this.host;
      },
    );
  }

  private get tables(): SqlTables {
    this.known ??= new SqlTables(this.ctx.storage.sql);
    return this.known;
  }

  /** Built on first use, and again after an expiry deleted everything. Creates no table: each is made on its first write. */
  private get host(): SyncSession {
    if (this.current !== undefined) return this.current;
    const tables = this.tables;
    this.current = sessionHost(
      { session: new SqlSessionStorage(tables), responses: new SqlResponsesStorage(tables), recording: new SqlRecordingStorage(tables), mcp: new SqlMcpStorage(tables) },
      wireToolCallIds,
    );
    return this.current;
  }

  /**
   * A write member: run at once on the state in memory (so turns are decided in the order they arrive), its journal
   * row queued while a commit is in flight (sql-tables.ts: group commit). A call that queued answers once the queue
   * is written, after that commit — its answer then waits for the commit holding its row, as every answer does.
   */
  private write(member: keyof Session, args: unknown[]): unknown {
    // A counting scenario's turn names a reply counter this isolate may not have loaded yet (an encoding's ranks): load
    // it before deciding, holding later calls back so that turns are still decided in the order they arrived.
    const counter = member === "next" ? (args[0] as NextInput).count?.output : undefined;
    if (counter !== undefined && !hasReplyCounter(counter)) {
      return this.ctx.blockConcurrencyWhile(() => loadReplyCounter(counter)).then(() => this.write(member, args));
    }
    this.touch();
    const tables = this.tables;
    const writes = tables.writes;
    tables.deferring = this.committing !== undefined || tables.pending;
    let result: unknown;
    try {
      result = call(this.host, member, args);
    } catch (e) {
      if (tables.pending) return this.afterFlush().then(() => Promise.reject(e));
      throw e;
    } finally {
      tables.deferring = false;
    }
    if (tables.pending) return this.afterFlush().then(() => result);
    if (tables.writes !== writes) this.noteCommit();
    return result;
  }

  /** Notes that writes were made: until they are durable, the next calls' journal rows queue behind them. */
  private noteCommit(): void {
    const commit: Promise<void> = this.ctx.storage.sync().then(
      () => this.committed(commit),
      // A failed commit breaks the object (workerd resets it); the queued calls then fail on their own write.
      () => this.committed(commit),
    );
    this.committing = commit;
  }

  private committed(commit: Promise<void>): void {
    if (this.committing === commit) this.committing = undefined;
  }

  /** The queued rows written once the commit in flight is durable; they make the next commit. */
  private afterFlush(): Promise<void> {
    this.flushing ??= (this.committing ?? Promise.resolve()).then(() => {
      this.flushing = undefined;
      try {
        this.known?.flush();
      } catch (e) {
        // The rows were counted in memory and not stored: build the state again from what was.
        this.current = undefined;
        throw e;
      }
      this.noteCommit();
    });
    return this.flushing;
  }

  /** Forgets what was built over the storage `deleteAll` just emptied. */
  private emptied(): void {
    this.current = undefined;
    this.known = undefined;
  }

  /**
   * Notes activity and keeps the expiry alarm at least SESSION_TTL ahead. The alarm is moved only when it was set
   * more than a tenth of the TTL ago (so a busy session writes it rarely) and is set to TTL + a tenth, so it never
   * fires before the session has been idle for the whole TTL.
   */
  private touch(): void {
    const now = Date.now();
    this.lastActive = now;
    const ttl = sessionTtlMs(this.env);
    if (now - this.alarmSetAt < ttl / 10) return;
    this.alarmSetAt = now;
    void this.ctx.storage.setAlarm(now + ttl + ttl / 10);
  }

  /**
   * SESSION_TTL: an idle session deletes all it stored (journal, recording, stored Responses). Firing again finds
   * nothing and deletes nothing, so an expiry is counted (logged) once.
   */
  override async alarm(): Promise<void> {
    if (this.purging()) return this.purgeBatch();
    // A namespace's directory is not idle data: deleting it would leave its objects unfindable when the namespace
    // is deleted. It goes with the namespace (purgeListed).
    if (this.ctx.id.name !== undefined && isDirectory(this.ctx.id.name)) return;
    const ttl = sessionTtlMs(this.env);
    if (this.lastActive > 0 && Date.now() - this.lastActive < ttl) {
      await this.ctx.storage.setAlarm(this.lastActive + ttl + ttl / 10);
      return;
    }
    const hadData = this.tables.has(META);
    // The session leaves its scenario's index first (a failure retries the alarm), so listings never show it again.
    const listed = hadData && this.ctx.id.name !== undefined ? indexOf(this.ctx.id.name) : undefined;
    if (listed) await this.env.SESSIONS.getByName(listed.index).forgetMember(listed.member);
    await this.ctx.storage.deleteAll();
    this.emptied();
    this.alarmSetAt = 0;
    if (hadData) {
      this.expiries++;
      if (this.env.REQUEST_LOG?.trim().toLowerCase() === "json") console.log(JSON.stringify({ mockllm: "session-expired" }));
    }
  }

  /**
   * Deletes everything this object stores at once (its namespace was deleted): journal, recording, stored
   * Responses, MCP state, socket rows; closes its sockets and cancels its expiry alarm.
   */
  async purge(): Promise<void> {
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.close(1000, "namespace deleted");
      } catch {
        // already closed
      }
    }
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.emptied();
    this.alarmSetAt = 0;
    this.lastActive = 0;
  }

  /**
   * On a namespace's directory (`__ns/{space}/__index/objects`): purges every object it lists, PURGE_BATCH at a
   * time on this object's alarm (retried by the platform if a batch fails), then itself. Answers at once with how
   * many objects are to be purged.
   */
  async purgeListed(): Promise<number> {
    const listed = this.host.members().length;
    const sql = this.tables.write(PURGE);
    if (sql.exec("SELECT count(*) AS n FROM purge").one().n === 0) sql.exec("INSERT INTO purge (done) VALUES (0)");
    await this.ctx.storage.setAlarm(Date.now());
    return listed;
  }

  private purging(): boolean {
    return this.tables.has(PURGE);
  }

  /**
   * Whether this object stored anything: a host built here, or any table of ours (a session, an index, a socket row).
   * Reads of an object that does not exist answer from `ABSENT` and build nothing, so no table is created.
   */
  exists(): boolean {
    return this.current !== undefined || this.tables.any();
  }

  private async purgeBatch(): Promise<void> {
    const done = this.ctx.storage.sql.exec<{ done: number }>("SELECT done FROM purge").one().done;
    const batch = this.host.members().slice(done, done + PURGE_BATCH);
    await Promise.all(batch.map((m) => this.env.SESSIONS.getByName(m.key).purge()));
    if (batch.length === PURGE_BATCH) {
      this.ctx.storage.sql.exec("UPDATE purge SET done = ?", done + batch.length);
      await this.ctx.storage.setAlarm(Date.now());
      return;
    }
    await this.purge();
  }

  /** How many expiries this instance carried out (tests: an alarm firing twice counts once). */
  expiryCount(): number {
    return this.expiries;
  }

  /** The only fetch this object serves: a WebSocket upgrade the Worker forwarded (SessionStore.connect). */
  override fetch(request: Request): Response {
    return this.sockets.accept(request);
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    await this.sockets.message(ws, message);
  }

  override webSocketClose(ws: WebSocket, code: number, reason: string): void {
    this.sockets.closed(ws, code, reason);
  }

  override webSocketError(ws: WebSocket): void {
    this.sockets.closed(ws);
  }

  /**
   * The `Session` members, made by kind (session/members.ts) as RPC methods on the prototype: a write notes activity
   * (the expiry alarm) and builds the host; a read of an object that does not exist answers from `ABSENT` and builds
   * nothing, so no table is created.
   */
  static {
    for (const [member, kind] of Object.entries(MEMBERS) as [keyof Session, MemberKind][]) {
      if (member === "exists") continue;
      const method =
        kind === "read"
          ? function (this: SessionObject, ...args: unknown[]) {
              return this.exists() ? call(this.host, member, args) : call(ABSENT, member, args);
            }
          : function (this: SessionObject, ...args: unknown[]) {
              return this.write(member, args);
            };
      Object.defineProperty(SessionObject.prototype, member, { value: method, writable: true, configurable: true });
    }
  }
}
