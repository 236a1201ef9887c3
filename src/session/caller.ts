/**
 * Who sends a request, as plain data: the namespace key the router resolved (src/tenancy/gate.ts). It travels on the
 * inputs of the session calls that journal a client's request (`next`, `record`, `mcp`) and in a socket's
 * `SocketInit`, typed, across the Durable Object boundary: the namespace's sessions charge it (tenancy/scope.ts) and
 * the session journals its key id and scopes the answers' ids with it. Absent: the default namespace.
 */
import { KEY_ID_HEADER } from "../http/body";
import type { Limits } from "../scenario/limits-schema";

export const SCOPES = ["admin", "read", "run"] as const;
export type Scope = (typeof SCOPES)[number];

export interface Quotas {
  sessions?: number;
  requestsPerMinute?: number;
  scenarioBytes?: number;
  journalBytes?: number;
  /** Files the namespace keeps at once (uploads and written batch files; contract section 11). */
  files?: number;
  /** Bytes of those files. */
  fileBytes?: number;
}

export interface NamespaceRecord {
  name: string;
  quotas: Quotas;
  createdAt: string;
  /** Storage name of this incarnation (`{name}.{generation}`): a deleted and re-created name starts empty. */
  space: string;
  /** When the namespace expires (created with a TTL): its keys are refused from then on and its data removed lazily. */
  expiresAt?: string;
  /** Rate limits over all its sessions, as a provider's (tenancy/limits.ts); absent: none. */
  limits?: Limits;
}

/** Whether a namespace's TTL has run out at `now` (ms). */
export function namespaceExpired(record: { expiresAt?: string }, now: number): boolean {
  return record.expiresAt !== undefined && Date.parse(record.expiresAt) <= now;
}

/** Who is calling, once the router has resolved the credential. */
export interface Caller {
  namespace: NamespaceRecord;
  keyId: string;
  scope: Scope;
}

/** A request as the journal keeps it: headers redacted, body possibly truncated. */
export interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** What every input that journals a client's request carries. */
export interface JournaledInput {
  /** The wire request as journaled: headers redacted, body possibly truncated. */
  wire: WireRequest;
  /** Set by a namespace's sessions (tenancy/scope.ts); absent in the default namespace. */
  caller?: Caller;
}

/** Where a namespace incarnation's sessions live: no default-namespace name (`{scenario}/{session}`) starts so. */
export function sessionPrefix(space: string): string {
  return `__ns/${space}/`;
}

/**
 * The wire request as the journal keeps it: a namespace caller's key id among its headers (`x-mockllm-key-id`).
 * @example journaledWire({ wire, caller }).headers["x-mockllm-key-id"] // caller.keyId
 */
export function journaledWire(input: JournaledInput): WireRequest {
  const { wire, caller } = input;
  return caller === undefined ? wire : { ...wire, headers: { ...wire.headers, [KEY_ID_HEADER]: caller.keyId } };
}

/** What goes in front of the ids' seed of every answer (equal names in two namespaces draw different ids). */
export function idScopeOf(caller: Caller | undefined): string | undefined {
  return caller === undefined ? undefined : sessionPrefix(caller.namespace.space);
}
