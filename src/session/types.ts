/**
 * The runtime boundary for session state. Routes and providers talk to a `Session` through a `SessionStore`; each
 * runtime implements the store: Durable Object stubs on Workers (every call a Promise), in-process objects on Node
 * (plain values). Callers always `await`.
 */
import type { Scenario } from "../scenario/schema";
import type { JournalEntry, NeedsDocument, NextInput, NextResult, SessionView } from "./core";
import type { McpInput, McpResult } from "./mcp";
import type { RecordedStep, RecordInput, RecordResult } from "./recording";
import type { ResponseHistory, StoredResponseRecord } from "./responses";
import type { SocketInit } from "./socket";

export type Awaitable<T> = T | Promise<T>;

/** One (scenario, session)'s state, or an internal object (`__responses/…`, `__index/…`). */
export interface Session {
  /**
   * Whether this object holds state: it received a request (or another write) and has not expired or been purged.
   * A reset session still exists. Reads never create state: on an object that does not exist, `state`, `requests`,
   * `recording`, `members` and the other reads answer empty and `reset` does nothing.
   */
  exists(): Awaitable<boolean>;
  /** Decides one request, applies the change, journals it. Calls to one session apply in arrival order. */
  next(input: NextInput): Awaitable<NextResult | NeedsDocument>;
  state(current?: Scenario): Awaitable<SessionView>;
  requests(): Awaitable<JournalEntry[]>;
  reset(): Awaitable<{ reset: true }>;
  /** Journals a proxied request and keeps its upstream answer in the recording (session/recording.ts). */
  record(input: RecordInput): Awaitable<RecordResult>;
  /** The recorded steps, oldest first. */
  recording(): Awaitable<RecordedStep[]>;
  /** One JSON-RPC message to the session's scripted MCP server (session/mcp.ts); a `tools/call` is journaled. */
  mcp(input: McpInput): Awaitable<McpResult | NeedsDocument>;
  /** Ends an MCP session (HTTP DELETE); false when it was not open. */
  closeMcp(mcpSession: string): Awaitable<boolean>;
  /** Index objects (`__index/…`): note a name (keeping the newest `limit`, default 500); list the names noted, oldest first. */
  noteMember(key: string, limit?: number): Awaitable<void>;
  members(): Awaitable<{ key: string; at: string }[]>;
  /** Index objects: forget a name (an expired session leaves its scenario's index). */
  forgetMember(key: string): Awaitable<void>;
  /**
   * Default-responder objects (`__responses/…`): bumps the counter `key` and returns its new value (from 1), the
   * request's number there, from which the ids of an answer the server stores derive (turn/default-ids.ts).
   */
  count(key: string): Awaitable<number>;
  saveResponse(record: StoredResponseRecord): Awaitable<void>;
  responseById(id: string): Awaitable<string | null>;
  responseHistory(id: string): Awaitable<ResponseHistory>;
  responseItems(ids: string[]): Awaitable<Record<string, string>>;
  deleteResponse(id: string): Awaitable<boolean>;
  pointResponse(id: string, object: string): Awaitable<void>;
  responsePointer(id: string): Awaitable<string | null>;
  forgetResponsePointer(id: string): Awaitable<void>;
}

export interface SessionStore {
  /** The session object named `name` (`{scenario}/{session}`, `__responses/{session}`, `__index/…`). */
  get(name: string): Session;
  /**
   * Opens a WebSocket held by the session object `name` (Workers: that Durable Object accepts it with the hibernation
   * API). Answers the upgrade: `101` with the socket, or an error response. A store that scopes names (namespaces)
   * must scope this name too.
   */
  connect(name: string, request: Request, init: SocketInit): Promise<Response>;
}
