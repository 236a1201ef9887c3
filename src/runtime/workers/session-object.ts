/**
 * The Workers runtime's session: one Durable Object per (scenario, session), SQLite storage. RPC methods over plain
 * data delegate to the runtime-free `SessionHost`; all SQLite calls are synchronous, so each request is decided and
 * recorded atomically, in arrival order.
 */
import { DurableObject } from "cloudflare:workers";
import type { Scenario } from "../../scenario/schema";
import type { JournalEntry, NeedsDocument, NextInput, NextResult, SessionView } from "../../session/core";
import { ABSENT } from "../../session/absent";
import { SessionHost } from "../../session/host";
import { indexOf } from "../../session/session-index";
import { isDirectory } from "../../tenancy/scope";
import type { McpInput, McpResult } from "../../session/mcp";
import { wireToolCallIds } from "../../providers/registry";
import type { RecordedStep, RecordInput, RecordResult } from "../../session/recording";
import type { ResponseHistory, StoredResponseRecord } from "../../session/responses";
import { sessionTtlMs } from "../../tenancy/quota";
import type { WorkerEnv } from "./env";
import { SqlMcpStorage } from "./sql-mcp";
import { workersRuntime } from "./runtime";
import { DurableSockets } from "./sockets";
import { SqlRecordingStorage } from "./sql-recording";
import { SqlResponsesStorage } from "./sql-responses";
import { SqlSessionStorage } from "./sql-session";

/** Objects a namespace's directory purges per alarm run (each one RPC, run together). */
const PURGE_BATCH = 50;

export class SessionObject extends DurableObject<WorkerEnv> {
  private current: SessionHost | undefined;
  private readonly sockets: DurableSockets;
  /** When the expiry alarm was last (re)scheduled by this instance (ms; 0 = not yet). */
  private alarmSetAt = 0;
  private lastActive = 0;
  private expiries = 0;

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    // A socket's turns run here and reach state like any request: through a Runtime over this Worker's bindings.
    this.sockets = new DurableSockets(ctx, () => workersRuntime(env), () => {
      this.touch();
      return this.host;
    });
  }

  /** Built on first use, and again after an expiry deleted everything. */
  private get host(): SessionHost {
    this.current ??= new SessionHost(new SqlSessionStorage(this.ctx.storage.sql), new SqlResponsesStorage(this.ctx.storage.sql), new SqlRecordingStorage(this.ctx.storage.sql), new SqlMcpStorage(this.ctx.storage.sql), wireToolCallIds);
    return this.current;
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
    const hadData = this.hasTable("meta");
    // The session leaves its scenario's index first (a failure retries the alarm), so listings never show it again.
    const listed = hadData && this.ctx.id.name !== undefined ? indexOf(this.ctx.id.name) : undefined;
    if (listed) await this.env.SESSIONS.getByName(listed.index).forgetMember(listed.member);
    await this.ctx.storage.deleteAll();
    this.current = undefined;
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
    this.current = undefined;
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
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS purge (done INTEGER NOT NULL)");
    if (this.ctx.storage.sql.exec("SELECT count(*) AS n FROM purge").one().n === 0) this.ctx.storage.sql.exec("INSERT INTO purge (done) VALUES (0)");
    await this.ctx.storage.setAlarm(Date.now());
    return listed;
  }

  private purging(): boolean {
    return this.hasTable("purge");
  }

  /**
   * Whether this object stored anything: a host built here, or any table of ours (a session, an index, a socket row).
   * Reads of an object that does not exist answer from `ABSENT` and build nothing, so no table is created.
   */
  exists(): boolean {
    if (this.current !== undefined) return true;
    const q = "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'";
    return this.ctx.storage.sql.exec<{ n: number }>(q).one().n > 0;
  }

  private hasTable(name: string): boolean {
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?", name).one().n > 0;
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

  next(input: NextInput): NextResult | NeedsDocument {
    this.touch();
    return this.host.next(input);
  }

  state(current?: Scenario): SessionView {
    return this.exists() ? this.host.state(current) : ABSENT.state(current);
  }

  requests(): JournalEntry[] {
    return this.exists() ? this.host.requests() : ABSENT.requests();
  }

  /** Resets a session that exists; on one that never ran, creates nothing. */
  reset(): { reset: true } {
    return this.exists() ? this.host.reset() : ABSENT.reset();
  }

  record(input: RecordInput): RecordResult {
    this.touch();
    return this.host.record(input);
  }

  recording(): RecordedStep[] {
    return this.exists() ? this.host.recording() : ABSENT.recording();
  }

  mcp(input: McpInput): McpResult | NeedsDocument {
    this.touch();
    return this.host.mcp(input);
  }

  closeMcp(mcpSession: string): boolean {
    return this.exists() ? this.host.closeMcp(mcpSession) : ABSENT.closeMcp();
  }

  noteMember(key: string, limit?: number): void {
    this.touch();
    this.host.noteMember(key, limit);
  }

  members(): { key: string; at: string }[] {
    return this.exists() ? this.host.members() : ABSENT.members();
  }

  forgetMember(key: string): void {
    // An index that expired itself stays deleted (building the host would create its tables again).
    if (this.hasTable("members")) this.host.forgetMember(key);
  }

  count(key: string): number {
    this.touch();
    return this.host.count(key);
  }

  saveResponse(record: StoredResponseRecord): void {
    this.touch();
    this.host.saveResponse(record);
  }

  responseById(id: string): string | null {
    return this.exists() ? this.host.responseById(id) : ABSENT.responseById();
  }

  responseHistory(id: string): ResponseHistory {
    return this.exists() ? this.host.responseHistory(id) : ABSENT.responseHistory(id);
  }

  responseItems(ids: string[]): Record<string, string> {
    return this.exists() ? this.host.responseItems(ids) : ABSENT.responseItems();
  }

  deleteResponse(id: string): boolean {
    return this.exists() ? this.host.deleteResponse(id) : ABSENT.deleteResponse();
  }

  pointResponse(id: string, object: string): void {
    this.host.pointResponse(id, object);
  }

  responsePointer(id: string): string | null {
    return this.exists() ? this.host.responsePointer(id) : ABSENT.responsePointer();
  }

  forgetResponsePointer(id: string): void {
    if (this.exists()) this.host.forgetResponsePointer(id);
  }
}
