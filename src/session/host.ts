/**
 * One session's whole state behind the `Session` interface: the state machine (core.ts) and the Responses / thread
 * store (responses.ts), each over the storage a runtime gives. The Durable Object delegates its RPC methods here;
 * on Node this object is the session itself.
 */
import type { Scenario } from "../scenario/schema";
import { SessionCore, type JournalEntry, type NeedsDocument, type NextInput, type NextResult, type SessionStorage, type SessionView } from "./core";
import { mcpCallsView, mcpRequest, type McpInput, type McpResult, type McpStorage } from "./mcp";
import { recordRequest, type RecordedStep, type RecordInput, type RecordingStorage, type RecordResult } from "./recording";
import type { ResponseHistory, ResponsesStorage, StoredResponseRecord } from "./responses";
import type { Session } from "./types";
import type { ToolCallIds } from "./canonical-view";

export class SessionHost implements Session {
  private readonly core: SessionCore;

  constructor(
    storage: SessionStorage,
    private readonly responses: ResponsesStorage,
    private readonly recorded: RecordingStorage,
    private readonly mcpStorage: McpStorage,
    toolCallIds: ToolCallIds,
  ) {
    this.core = new SessionCore(storage, toolCallIds);
  }

  /** A host is built over storage that exists (the runtime answers for an object it has not built). */
  exists(): boolean {
    return true;
  }

  next(input: NextInput): NextResult | NeedsDocument {
    return this.core.next(input);
  }

  state(current?: Scenario): SessionView {
    const view = this.core.state(current);
    const calls = mcpCallsView(this.core.snapshot({ version: "" })?.document ?? current, this.mcpStorage.state());
    return calls.length > 0 ? { ...view, mcpCalls: calls } : view;
  }

  requests(): JournalEntry[] {
    return this.core.requests();
  }

  reset(): { reset: true } {
    this.recorded.clear();
    this.mcpStorage.clear();
    return this.core.reset();
  }

  record(input: RecordInput): RecordResult {
    return recordRequest(this.recorded, (entry) => this.core.journalEntry(entry), input);
  }

  recording(): RecordedStep[] {
    return this.recorded.steps();
  }

  mcp(input: McpInput): McpResult | NeedsDocument {
    return mcpRequest(this.mcpStorage, { snapshot: (i) => this.core.snapshot(i), journal: (e) => this.core.journalEntry(e) }, input);
  }

  closeMcp(mcpSession: string): boolean {
    return this.mcpStorage.close(mcpSession);
  }

  noteMember(key: string, limit?: number): void {
    this.core.noteMember(key, Date.now(), limit);
  }

  members(): { key: string; at: string }[] {
    return this.core.members();
  }

  forgetMember(key: string): void {
    this.core.forgetMember(key);
  }

  count(key: string): number {
    return this.core.count(key);
  }

  saveResponse(record: StoredResponseRecord): void {
    this.responses.save(record, Date.now());
  }

  responseById(id: string): string | null {
    return this.responses.load(id);
  }

  responseHistory(id: string): ResponseHistory {
    return this.responses.history(id);
  }

  responseItems(ids: string[]): Record<string, string> {
    return this.responses.items(ids);
  }

  deleteResponse(id: string): boolean {
    return this.responses.delete(id);
  }

  pointResponse(id: string, object: string): void {
    this.responses.point(id, object, Date.now());
  }

  responsePointer(id: string): string | null {
    return this.responses.pointer(id, Date.now());
  }

  forgetResponsePointer(id: string): void {
    this.responses.forgetPointer(id);
  }
}
