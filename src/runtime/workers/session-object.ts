/**
 * The Workers runtime's session: one Durable Object per (scenario, session), SQLite storage. RPC methods over plain
 * data delegate to the runtime-free `SessionHost`; all SQLite calls are synchronous, so each request is decided and
 * recorded atomically, in arrival order.
 */
import { DurableObject } from "cloudflare:workers";
import type { Scenario } from "../../scenario/schema";
import type { JournalEntry, NeedsDocument, NextInput, NextResult, SessionView } from "../../session/core";
import { SessionHost } from "../../session/host";
import { wireToolCallIds } from "../../providers/tool-call-ids";
import type { RecordedStep, RecordInput, RecordResult } from "../../session/recording";
import type { ResponseHistory, StoredResponseRecord } from "../../session/responses";
import type { WorkerEnv } from "./env";
import { workersRuntime } from "./runtime";
import { DurableSockets } from "./sockets";
import { SqlRecordingStorage } from "./sql-recording";
import { SqlResponsesStorage } from "./sql-responses";
import { SqlSessionStorage } from "./sql-session";

export class SessionObject extends DurableObject<WorkerEnv> {
  private readonly host: SessionHost;
  private readonly sockets: DurableSockets;

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    this.host = new SessionHost(new SqlSessionStorage(ctx.storage.sql), new SqlResponsesStorage(ctx.storage.sql), new SqlRecordingStorage(ctx.storage.sql), wireToolCallIds);
    // A socket's turns run here and reach state like any request: through a Runtime over this Worker's bindings.
    this.sockets = new DurableSockets(ctx, () => workersRuntime(env), this.host);
  }

  /** The only fetch this object serves: a WebSocket upgrade the Worker forwarded (SessionStore.connect). */
  override fetch(request: Request): Response {
    return this.sockets.accept(request);
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    await this.sockets.message(ws, message);
  }

  override webSocketClose(ws: WebSocket, code: number, reason: string): void {
    this.sockets.closed(ws);
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // already closed
    }
  }

  override webSocketError(ws: WebSocket): void {
    this.sockets.closed(ws);
  }

  next(input: NextInput): NextResult | NeedsDocument {
    return this.host.next(input);
  }

  state(current?: Scenario): SessionView {
    return this.host.state(current);
  }

  requests(): JournalEntry[] {
    return this.host.requests();
  }

  reset(): { reset: true } {
    return this.host.reset();
  }

  record(input: RecordInput): RecordResult {
    return this.host.record(input);
  }

  recording(): RecordedStep[] {
    return this.host.recording();
  }

  noteMember(key: string): void {
    this.host.noteMember(key);
  }

  members(): { key: string; at: string }[] {
    return this.host.members();
  }

  saveResponse(record: StoredResponseRecord): void {
    this.host.saveResponse(record);
  }

  responseById(id: string): string | null {
    return this.host.responseById(id);
  }

  responseHistory(id: string): ResponseHistory {
    return this.host.responseHistory(id);
  }

  responseItems(ids: string[]): Record<string, string> {
    return this.host.responseItems(ids);
  }

  deleteResponse(id: string): boolean {
    return this.host.deleteResponse(id);
  }

  pointResponse(id: string, object: string): void {
    this.host.pointResponse(id, object);
  }

  responsePointer(id: string): string | null {
    return this.host.responsePointer(id);
  }

  forgetResponsePointer(id: string): void {
    this.host.forgetResponsePointer(id);
  }
}
