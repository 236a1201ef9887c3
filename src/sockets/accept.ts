/**
 * The upgrade request of a WebSocket protocol (contract section 9; which one a path speaks, and its checks, its
 * provider module declares): the checks answered as plain HTTP errors before any upgrade (session name, then the
 * protocol's own: auth, missing model), and the hand-over to the session object that holds the socket, by name,
 * through `rt.sessions.connect`.
 */
import { redactHeadersKept } from "../http/body";
import type { ApiError } from "../http/errors";
import type { SocketSurface } from "../providers/registry/module";
import { errorResponse, surfaceRequestId } from "../turn/render";
import type { Prefix } from "../turn/select";
import { uniqueSeed } from "../turn/turn";
import type { Runtime } from "../runtime/types";
import { sessionHeader } from "../http/headers";
import { shownName } from "../scenario/hints";
import { NAME_PATTERN, NAMES_MATCH } from "../scenario/schema";
import type { SocketInit } from "./types";

export function isWebSocketUpgrade(request: Request): boolean {
  return request.method === "GET" && request.headers.get("upgrade")?.toLowerCase() === "websocket";
}

/** Handshake headers: not journaled with every turn. */
const HANDSHAKE = new Set(["upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol"]);

/** The session object that holds a socket: the prefix's session, else `__ws/{x-mock-session or default}`. */
export function socketObjectName(prefix: Prefix, headers: Headers): string {
  if (prefix.scenario !== undefined) return `${prefix.scenario}/${prefix.session ?? "default"}`;
  return `__ws/${sessionHeader(headers) ?? "default"}`;
}

/** The sub-protocols a browser offers (`realtime`, `openai-insecure-api-key.{key}`, …). */
function offeredProtocols(headers: Headers): string[] {
  return (headers.get("sec-websocket-protocol") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
}

function check(socket: SocketSurface, headers: Headers, query: URLSearchParams, offered: string[]): ApiError | undefined {
  const session = sessionHeader(headers);
  if (session !== undefined && !NAME_PATTERN.test(session)) {
    return { code: "invalid_request", message: `mockllm: invalid session name "${shownName(session)}": ${NAMES_MATCH}` };
  }
  return socket.check(headers, query, offered);
}

/**
 * Answers a WebSocket upgrade on a provider's socket protocol (`socketFor(path)`, src/providers/registry/index.ts).
 * @example if (socket && isWebSocketUpgrade(request)) return acceptSocket(request, rt, socket, prefix, path)
 */
export async function acceptSocket(request: Request, rt: Runtime, socket: SocketSurface, prefix: Prefix, path: string, config?: Record<string, unknown>): Promise<Response> {
  const url = new URL(request.url);
  const offered = offeredProtocols(request.headers);
  const surface = socket.surface;
  const refuse = (error: ApiError) => errorResponse(surface, error, surfaceRequestId(surface, uniqueSeed()), { "x-mockllm-outcome": "error" });
  // An ephemeral key's (or a call's) session names its model: the socket URL need not.
  const takeModel = (c: Record<string, unknown> | undefined) => {
    if (typeof c?.model === "string" && !url.searchParams.has("model")) url.searchParams.set("model", c.model);
  };
  takeModel(config);
  const refused = check(socket, request.headers, url.searchParams, offered);
  if (refused) return refuse(refused);
  // What the URL names may bind the socket (an accepted call's scenario and session), once the key is checked.
  if (config === undefined && socket.bind !== undefined) {
    const bound = await socket.bind(url.searchParams, rt, prefix);
    if (bound !== undefined && "code" in bound) return refuse(bound);
    if (bound !== undefined) ({ prefix, config } = bound);
    takeModel(config);
  }
  const query = new URLSearchParams(url.searchParams);
  query.delete("key");
  query.delete("access_token");
  const headers = Object.fromEntries(Object.entries(redactHeadersKept(request.headers)).filter(([k]) => !HANDSHAKE.has(k)));
  const protocol = socket.subprotocol?.(offered);
  const init: SocketInit = {
    kind: socket.kind,
    prefix,
    path: socket.initPath?.(path) ?? path,
    query: query.toString(),
    headers,
    ...(protocol !== undefined ? { protocol } : {}),
    seed: uniqueSeed(),
    ...(rt.caller !== undefined ? { caller: rt.caller } : {}),
    ...(config !== undefined ? { config } : {}),
  };
  return rt.sessions.connect(socketObjectName(prefix, request.headers), request, init);
}
