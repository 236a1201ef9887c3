/**
 * The transport-neutral WebSocket core: a protocol is a state machine over parsed client messages that sends server
 * messages through a `SocketSink`. The runtime owns the socket — `ws` on Node (src/hosts/node/sockets.ts), the
 * session Durable Object's hibernation handlers on Workers (src/hosts/workers/session-object.ts) — and hands each
 * text message to the protocol `openProtocol` (src/providers/registry/index.ts) made for it, from the provider module that
 * declares the socket.
 */
import type { Runtime } from "../runtime/types";
import type { SocketInit } from "../session/socket";

export type { SocketInit, SocketKind } from "../session/socket";

/** How a protocol talks back to its client. */
export interface SocketSink {
  send(text: string): void;
  /** A clean close with a code and a reason. */
  close(code: number, reason: string): void;
  /** Drops the connection without a close frame (a scripted `network_error`). */
  terminate(): void;
}

/** A protocol's per-socket state machine. `state()` must be JSON (Workers keeps it across hibernation). */
export interface SocketProtocol {
  /** Messages due as soon as the socket is open (Realtime's `session.created`). */
  open(): void;
  /** One text message from the client. Resolves when the work it started (a whole paced turn) is over. */
  message(text: string): Promise<void>;
  /** A binary message: each protocol answers with its own documented error. */
  binary(): void;
  /** The client went away: stop any turn in flight. */
  closed(): void;
  state(): unknown;
}

/** What a protocol gets: the runtime (already scoped by the router's caller), how the socket opened, and its sink. */
export interface SocketContext {
  rt: Runtime;
  init: SocketInit;
  sink: SocketSink;
}
