/**
 * How a WebSocket was opened, as plain data: the router builds it, `SessionStore.connect` hands it to the runtime
 * that holds the socket (Workers keeps it in Durable Object storage across hibernation).
 */
import type { Caller } from "./caller";

/** A WebSocket protocol's kind, as its provider module declares it (`SocketSurface.kind`: `responses`, `realtime`, `live`). */
export type SocketKind = string;

export interface SocketInit {
  kind: SocketKind;
  /** What the URL prefix `/s/{scenario}[/{session}]` named, if anything. */
  prefix: { scenario?: string; session?: string };
  /** The path below any prefix, e.g. `/v1/realtime`. */
  path: string;
  /** The query string without `?` (Realtime's `model=…`); secrets (`key=`) removed. */
  query: string;
  /** The upgrade request's headers, secrets redacted: they select scenarios and are journaled with every turn. */
  headers: Record<string, string>;
  /** The sub-protocol echoed to the client, if it offered one we speak. */
  protocol?: string;
  /**
   * The namespace caller the upgrade was scoped to (absent: the default namespace), so the host that keeps the
   * socket scopes its turns the same way (src/sockets/scope.ts).
   */
  caller?: Caller;
  /** A seed unique to this socket (its Realtime session id; ids of items the client did not name). */
  seed: string;
  /** The session configuration an ephemeral key carried (Realtime: laid over the defaults of `session.created`). */
  config?: Record<string, unknown>;
}
