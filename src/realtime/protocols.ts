/**
 * Every WebSocket protocol, by kind: what a runtime's socket host opens for a socket (and re-opens, from its saved
 * state, after a Durable Object woke from hibernation).
 */
import { liveSocket } from "./surfaces/gemini-live";
import { realtimeSocket } from "./surfaces/openai-realtime";
import { responsesSocket } from "./surfaces/openai-responses";
import type { SocketContext, SocketKind, SocketProtocol } from "./types";

const PROTOCOLS: Record<SocketKind, (socket: SocketContext, saved: unknown) => SocketProtocol> = {
  responses: responsesSocket,
  realtime: realtimeSocket,
  live: liveSocket,
};

/**
 * The protocol for a socket; `saved` is what its `state()` returned before the host slept.
 * @example const protocol = openProtocol({ rt, init, sink }); protocol.open()
 */
export function openProtocol(socket: SocketContext, saved?: unknown): SocketProtocol {
  return PROTOCOLS[socket.init.kind](socket, saved);
}
