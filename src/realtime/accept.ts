/**
 * The upgrade request of the three WebSocket surfaces (contract section 9): which protocol a path speaks, the checks
 * answered as plain HTTP errors before any upgrade (auth, missing model), and the hand-over to the session object
 * that holds the socket, by name, through `rt.sessions.connect`.
 */
import { redactHeaders } from "../http/body";
import type { ApiError } from "../http/errors";
import { checkOpenAIAuth } from "../providers/openai/errors";
import { checkGeminiAuth } from "../providers/gemini/errors";
import { openaiResponses } from "../providers/openai/responses";
import { geminiGenerateContent } from "../providers/gemini";
import type { ProviderSurface } from "../providers/types";
import { errorResponse, surfaceRequestId } from "../routes/render";
import type { Prefix } from "../routes/select";
import { uniqueSeed } from "../routes/turn";
import type { Runtime } from "../runtime/types";
import { sessionHeader } from "../http/headers";
import { NAME_PATTERN, NAMES_MATCH } from "../scenario/schema";
import type { SocketInit, SocketKind } from "./types";

const LIVE_PATH = /^\/+ws\/google\.ai\.generativelanguage\.(v1|v1alpha|v1beta)\.GenerativeService\.BidiGenerateContent(Constrained)?$/;

/**
 * The WebSocket protocol a path (below any prefix) speaks, if any.
 * @example socketKindFor("/v1/realtime") // "realtime"
 */
export function socketKindFor(path: string): SocketKind | undefined {
  if (path === "/v1/responses" || path === "/responses") return "responses";
  if (path === "/v1/realtime" || path === "/realtime") return "realtime";
  if (LIVE_PATH.test(path)) return "live";
  return undefined;
}

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
  return (headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim()).filter((p) => p !== "");
}

function surfaceOf(kind: SocketKind): ProviderSurface<any> {
  return kind === "live" ? geminiGenerateContent : openaiResponses;
}

function check(kind: SocketKind, headers: Headers, query: URLSearchParams, offered: string[]): ApiError | undefined {
  const session = sessionHeader(headers);
  if (session !== undefined && !NAME_PATTERN.test(session)) {
    return { code: "invalid_request", message: `mockllm: invalid session name "${session}": ${NAMES_MATCH}` };
  }
  if (kind === "live") return checkGeminiAuth(headers, { query });
  if (offered.some((p) => p.startsWith("openai-insecure-api-key."))) return undefined;
  const auth = checkOpenAIAuth(headers);
  if (auth) return auth;
  if (kind === "realtime" && !query.get("model") && !query.get("call_id") && !query.get("intent")) {
    return { code: "invalid_request", message: "Missing required parameter: 'model'.", param: "model" };
  }
  return undefined;
}

/**
 * Answers a WebSocket upgrade on one of the three surfaces.
 * @example if (kind && isWebSocketUpgrade(request)) return acceptSocket(request, rt, kind, prefix, path)
 */
export async function acceptSocket(request: Request, rt: Runtime, kind: SocketKind, prefix: Prefix, path: string): Promise<Response> {
  const url = new URL(request.url);
  const offered = offeredProtocols(request.headers);
  const surface = surfaceOf(kind);
  const refused = check(kind, request.headers, url.searchParams, offered);
  if (refused) return errorResponse(surface, refused, surfaceRequestId(surface, uniqueSeed()), { "x-mockllm-outcome": "error" });
  const query = new URLSearchParams(url.searchParams);
  query.delete("key");
  query.delete("access_token");
  const headers = Object.fromEntries(Object.entries(redactHeaders(request.headers)).filter(([k]) => !HANDSHAKE.has(k)));
  const protocol = kind === "realtime" && offered.includes("realtime") ? "realtime" : undefined;
  const init: SocketInit = {
    kind,
    prefix,
    path: kind === "live" ? path.replace(/^\/+/, "/") : path,
    query: query.toString(),
    headers,
    ...(protocol !== undefined ? { protocol } : {}),
    seed: uniqueSeed(),
    ...(rt.caller !== undefined ? { caller: rt.caller } : {}),
  };
  return rt.sessions.connect(socketObjectName(prefix, request.headers), request, init);
}
