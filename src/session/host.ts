/**
 * One session's whole state, role by role (types.ts): the state machine (core.ts), the recording, the MCP server, the
 * index and the Responses / thread store (responses.ts), each over the storage a runtime gives. The Durable Object's
 * RPC methods call it (session/members.ts); on Node it is the session itself.
 *
 * A class, its members on the prototype: a Node process holds one host per live session (100,000 of them in the
 * scale bench), and per-session closures for ~25 members cost ~2 KB each session (docs/performance.md, Scale).
 */
import { SessionCore, type JournalDraft, type JournalEntry, type NextInput, type NextResult, type NeedsDocument, type SessionStorage, type SessionView } from "./core";
import type { ToolCallIds } from "./canonical-view";
import { mcpCallsView, mcpRequest, type McpInput, type McpResult, type McpStorage } from "./mcp";
import { recordRequest, type RecordedStep, type RecordInput, type RecordingStorage, type RecordResult } from "./recording";
import type { ResponseHistory, ResponsesStorage, StoredObject, StoredResponseRecord } from "./responses";
import type { Scenario } from "../scenario/schema";
import type { SyncSession } from "./types";

/** The storages one session object keeps (SQLite in the Durable Object, memory on Node). */
export interface HostStorage {
  session: SessionStorage;
  responses: ResponsesStorage;
  recording: RecordingStorage;
  mcp: McpStorage;
}

/**
 * The session over `storage`: every role, each method synchronous (a request is decided and recorded atomically).
 * @example new SessionHost({ session, responses, recording, mcp }, wireToolCallIds).next(input)
 */
export class SessionHost implements SyncSession {
  private readonly core: SessionCore;

  constructor(
    private readonly storage: HostStorage,
    toolCallIds: ToolCallIds,
  ) {
    this.core = new SessionCore(storage.session, toolCallIds);
  }

  // Turns

  /** A host is built over storage that exists (the runtime answers for an object it has not built). */
  exists(): boolean {
    return true;
  }

  next(input: NextInput): NextResult | NeedsDocument {
    return this.core.next(input);
  }

  state(current?: Scenario): SessionView {
    const view = this.core.state(current);
    const calls = mcpCallsView(this.core.snapshot({ version: "" })?.document ?? current, this.storage.mcp.state());
    return calls.length > 0 ? { ...view, mcpCalls: calls } : view;
  }

  requests(): JournalEntry[] {
    return this.core.requests();
  }

  reset(): { reset: true } {
    this.storage.recording.clear();
    this.storage.mcp.clear();
    return this.core.reset();
  }

  // Recordings

  record(input: RecordInput): RecordResult {
    return recordRequest(this.storage.recording, (entry: JournalDraft) => this.core.journalEntry(entry), input);
  }

  recording(): RecordedStep[] {
    return this.storage.recording.steps();
  }

  // The MCP endpoint

  mcp(input: McpInput): McpResult | NeedsDocument {
    const core = this.core;
    return mcpRequest(this.storage.mcp, { snapshot: (i) => core.snapshot(i), journal: (e) => core.journalEntry(e) }, input);
  }

  closeMcp(mcpSession: string): boolean {
    return this.storage.mcp.close(mcpSession);
  }

  // The session index

  noteMember(key: string, limit?: number): void {
    this.core.noteMember(key, Date.now(), limit);
  }

  members(): { key: string; at: string }[] {
    return this.core.members();
  }

  forgetMember(key: string): void {
    this.core.forgetMember(key);
  }

  // Stored responses and objects

  increment(key: string): number {
    return this.core.increment(key);
  }

  saveResponse(record: StoredResponseRecord): void {
    this.storage.responses.save(record, Date.now());
  }

  responseById(id: string): string | null {
    return this.storage.responses.load(id);
  }

  responseHistory(id: string): ResponseHistory {
    return this.storage.responses.history(id);
  }

  responseItems(ids: string[]): Record<string, string> {
    return this.storage.responses.items(ids);
  }

  deleteResponse(id: string): boolean {
    return this.storage.responses.delete(id);
  }

  pointResponse(id: string, object: string): void {
    this.storage.responses.point(id, object, Date.now());
  }

  responsePointer(id: string): string | null {
    return this.storage.responses.pointer(id, Date.now());
  }

  forgetResponsePointer(id: string): void {
    this.storage.responses.forgetPointer(id);
  }

  putObjects(kind: string, objects: StoredObject[], max: number): void {
    this.storage.responses.putObjects(kind, objects, Date.now(), max);
  }

  objectById(kind: string, id: string): string | null {
    return this.storage.responses.getObject(kind, id);
  }

  listObjects(kind: string): StoredObject[] {
    return this.storage.responses.listObjects(kind);
  }

  deleteObject(kind: string, id: string): boolean {
    return this.storage.responses.deleteObject(kind, id);
  }
}

/**
 * The session over `storage` (a `SessionHost`).
 * @example sessionHost({ session, responses, recording, mcp }, wireToolCallIds).next(input)
 */
export function sessionHost(storage: HostStorage, toolCallIds: ToolCallIds): SyncSession {
  return new SessionHost(storage, toolCallIds);
}
