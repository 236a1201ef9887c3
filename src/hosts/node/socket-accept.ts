/**
 * How the Node session store says yes to a WebSocket: `connect` answers a placeholder response that carries the
 * socket's init; the upgrade handler (sockets.ts) takes it back and completes the handshake with `ws`.
 */
import type { SocketInit } from "../../session/socket";
import { Response } from "./web";

const accepted = new WeakMap<Response, { name: string; init: SocketInit }>();

export function acceptedResponse(name: string, init: SocketInit): Response {
  const res = new Response(null, { status: 200, headers: { "x-mockllm-outcome": "websocket" } });
  accepted.set(res, { name, init });
  return res;
}

/** The socket a response accepted, if it is `connect`'s placeholder. */
export function takeAccepted(res: Response): { name: string; init: SocketInit } | undefined {
  const found = accepted.get(res);
  accepted.delete(res);
  return found;
}
