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
import { SqlRecordingStorage } from "./sql-recording";
import { SqlResponsesStorage } from "./sql-responses";
import { SqlSessionStorage } from "./sql-session";

export class SessionObject extends DurableObject<WorkerEnv> {
  private readonly host: SessionHost;

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    this.host = new SessionHost(new SqlSessionStorage(ctx.storage.sql), new SqlResponsesStorage(ctx.storage.sql), new SqlRecordingStorage(ctx.storage.sql), wireToolCallIds);
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
