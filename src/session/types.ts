/**
 * The runtime boundary for session state. Routes and providers talk to a `Session` through a `SessionStore`; each
 * runtime implements the store: Durable Object stubs on Workers (every call a Promise), in-process objects on Node
 * (plain values). Callers always `await`.
 */
import type { Scenario } from "../scenario/schema";
import type { JournalEntry, NeedsDocument, NextInput, NextResult, SessionView } from "./core";
import type { McpInput, McpResult } from "./mcp";
import type { RecordedStep, RecordInput, RecordResult } from "./recording";
import type { ResponseHistory, StoredObject, StoredResponseRecord } from "./responses";
import type { SocketInit } from "./socket";

export type { Awaitable } from "../util/awaitable";
import type { Awaitable } from "../util/awaitable";

/**
 * A session's turns and their journal: one (scenario, session)'s state machine (core.ts).
 * Reads never create state: on an object that does not exist, the reads answer empty and `reset` does nothing
 * (absent.ts).
 */
export interface Turns {
  /**
   * Whether this object holds state: it received a request (or another write) and has not expired or been purged.
   * A reset session still exists.
   */
  exists(): Awaitable<boolean>;
  /** Decides one request, applies the change, journals it. Calls to one session apply in arrival order. */
  next(input: NextInput): Awaitable<NextResult | NeedsDocument>;
  state(current?: Scenario): Awaitable<SessionView>;
  requests(): Awaitable<JournalEntry[]>;
  reset(): Awaitable<{ reset: true }>;
}

/** What a recording proxy keeps in a session (session/recording.ts). */
export interface Recordings {
  /** Journals a proxied request and keeps its upstream answer in the recording. */
  record(input: RecordInput): Awaitable<RecordResult>;
  /** The recorded steps, oldest first. */
  recording(): Awaitable<RecordedStep[]>;
}

/** The session's scripted MCP server (session/mcp.ts). */
export interface McpEndpoint {
  /** One JSON-RPC message; a `tools/call` is journaled. */
  mcp(input: McpInput): Awaitable<McpResult | NeedsDocument>;
  /** Ends an MCP session (HTTP DELETE); false when it was not open. */
  closeMcp(mcpSession: string): Awaitable<boolean>;
}

/** Index objects (`__index/…`): a list of names (session-index.ts; a namespace's directory). */
export interface SessionIndex {
  /** Notes a name, keeping the newest `limit` (default 500). */
  noteMember(key: string, limit?: number): Awaitable<void>;
  /** The names noted, oldest first. */
  members(): Awaitable<{ key: string; at: string }[]>;
  /** Forgets a name (an expired session leaves its scenario's index). */
  forgetMember(key: string): Awaitable<void>;
}

/**
 * Stored Responses and Anthropic thread turns (session/responses.ts), kept by default-responder objects
 * (`__responses/…`) and sessions; `__index/responses-{shard}` objects point an id at the object that holds it.
 */
export interface StoredResponses {
  /**
   * Bumps the counter `key` and returns its new value (from 1), the request's number there, from which the ids of
   * an answer the server stores derive (turn/default-ids.ts).
   */
  increment(key: string): Awaitable<number>;
  saveResponse(record: StoredResponseRecord): Awaitable<void>;
  responseById(id: string): Awaitable<string | null>;
  responseHistory(id: string): Awaitable<ResponseHistory>;
  responseItems(ids: string[]): Awaitable<Record<string, string>>;
  deleteResponse(id: string): Awaitable<boolean>;
  pointResponse(id: string, object: string): Awaitable<void>;
  responsePointer(id: string): Awaitable<string | null>;
  forgetResponsePointer(id: string): Awaitable<void>;
  /** The platform's other objects (conversations and their items, stored chat completions): responses.ts `ObjectStorage`. */
  putObjects(kind: string, objects: StoredObject[], max: number): Awaitable<void>;
  objectById(kind: string, id: string): Awaitable<string | null>;
  listObjects(kind: string): Awaitable<StoredObject[]>;
  deleteObject(kind: string, id: string): Awaitable<boolean>;
}

/**
 * One session object, all roles: a (scenario, session)'s state, or an internal object (`__responses/…`,
 * `__index/…`). Callers name the role they use (`Turns`, `SessionIndex`, …); what each member does to storage is
 * listed once in members.ts.
 */
export interface Session extends Turns, Recordings, McpEndpoint, SessionIndex, StoredResponses {}

/** A session whose members answer at once (`sessionHost`: the session on Node, inside the Durable Object). */
export type SyncSession = { [K in keyof Session]: (...args: Parameters<Session[K]>) => Awaited<ReturnType<Session[K]>> };

export interface SessionStore {
  /** The session object named `name` (`{scenario}/{session}`, `__responses/{session}`, `__index/…`). */
  get(name: string): Session;
  /**
   * A turn's request body goes to `next` as its JSON text (`NextInput.wireText`) instead of as the parsed object: set
   * where sessions are reached across a boundary (Workers' RPC copies a string far cheaper than an object graph, and
   * the journal row takes the text as it is).
   */
  readonly sendsBodyText?: boolean;
  /**
   * Opens a WebSocket held by the session object `name` (Workers: that Durable Object accepts it with the hibernation
   * API). Answers the upgrade: `101` with the socket, or an error response. A store that scopes names (namespaces)
   * must scope this name too.
   */
  connect(name: string, request: Request, init: SocketInit): Promise<Response>;
}
