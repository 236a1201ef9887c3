/**
 * The session's MCP server over Streamable HTTP (contract section 9): `/s/{scenario}[/{session}]/mcp` (or `/mcp`
 * with the `x-mock-scenario` / `x-mock-session` headers). POST carries JSON-RPC 2.0 (a batch only for protocol
 * 2025-03-26 and older), answered as JSON or an SSE stream per the scenario's `mcp.responseMode`; GET answers 405
 * (no server-initiated stream); DELETE ends an MCP session. Errors the client caused are JSON-RPC errors with a
 * 4xx status, never a 5xx.
 */
import { journalBody, MAX_BODY_BYTES, readLimited, redactHeaders } from "../http/body";
import { ERROR_CODES, type ApiError } from "../http/errors";
import { headerText } from "../http/header-text";
import { jsonDepthExceeded, tooDeepMessage } from "../http/json-depth";
import {
  DEFAULT_HEADER_VERSION,
  envelopeVersion,
  isSupportedVersion,
  MCP_PROTOCOL_VERSIONS,
  MODERN_ERROR_STATUS,
  MODERN_MCP_VERSIONS,
  RPC,
  rpcError,
  type RpcErrorObject,
  type RpcId,
} from "../mcp/protocol";
import { parseMessage } from "../mcp/wire";
import type { Runtime } from "../runtime/types";
import { closest } from "../scenario/hints";
import { RESERVED_SESSIONS } from "../scenario/schema";
import type { StoredScenario } from "../scenario/store";
import type { McpInput, McpResult } from "../session/mcp";
import { noteSession } from "../session/session-index";
import { jsonAnswer, progressMessages, sseResponse, type Outgoing } from "./mcp-render";
import { prefixNameError } from "./names";
import type { Exec } from "../runtime/types";
import { DEFAULT_SESSION, type Prefix } from "../turn/select";
import { sessionHeader } from "../http/headers";
import { Response } from "../http/web";

/** The MCP endpoint below a `/s/{scenario}[/{session}]` prefix. */
export const MCP_PATH = "/mcp";
/** Most messages in one batch. */
const MAX_BATCH = 100;
/** The error code the SDK's own servers answer for an unknown Mcp-Session-Id. */
const SESSION_NOT_FOUND = -32001;
/** Versions whose transport still allows JSON-RPC batches (removed in 2025-06-18). */
const BATCH_VERSIONS = new Set(["2024-11-05", "2025-03-26"]);

function rpcFailure(status: number, id: RpcId | null, error: RpcErrorObject, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(rpcError(id, error)), {
    status,
    headers: { "content-type": "application/json", "x-mockllm-outcome": "error", ...headers },
  });
}

/**
 * A request refused before the MCP route ran (an unknown or revoked namespace key, ANONYMOUS=deny, a quota): the
 * error's HTTP status, as a JSON-RPC error like every other answer of this endpoint.
 * @example mcpRefusal(apiError("authentication", "mockllm: invalid or revoked mockllm key"), {}) // 401
 */
export function mcpRefusal(error: ApiError, headers: Record<string, string>): Response {
  return rpcFailure(error.status ?? ERROR_CODES[error.code], null, { code: RPC.invalidRequest, message: error.message }, headers);
}

function invalid(status: number, message: string, code: number = RPC.invalidRequest): Response {
  return rpcFailure(status, null, { code, message });
}

/** The scenario and session this request is for: the URL prefix, else the selection headers. */
function target(prefix: Prefix, headers: Headers): { scenario: string; session: string } | undefined {
  if (prefix.scenario !== undefined) return { scenario: prefix.scenario, session: prefix.session ?? DEFAULT_SESSION };
  const scenario = headers.get("x-mock-scenario")?.trim();
  if (!scenario) return undefined;
  return { scenario, session: sessionHeader(headers) ?? DEFAULT_SESSION };
}

/** Whether the answer goes as SSE: the scenario's mode, unless the client's Accept allows only the other. */
function wantsSse(mode: "json" | "sse", accept: string | null): boolean {
  const a = (accept ?? "*/*").toLowerCase();
  const json = a.includes("application/json") || a.includes("*/*");
  const sse = a.includes("text/event-stream") || a.includes("*/*");
  return mode === "sse" ? sse || !json : sse && !json;
}

/**
 * @example return handleMcp(request, rt, exec, { scenario: "weather", session: "t1" })
 */
export async function handleMcp(request: Request, rt: Runtime, exec: Exec, prefix: Prefix): Promise<Response> {
  // GET (a server-initiated stream) is not offered: 405, which the SDKs take as "no stream".
  if (request.method !== "POST" && request.method !== "DELETE") {
    return new Response(null, { status: 405, headers: { allow: "POST, DELETE", "x-mockllm-outcome": "error" } });
  }
  const where = target(prefix, request.headers);
  if (!where) return invalid(404, "mockllm: name the scenario: POST /s/{scenario}/{session}/mcp, or send x-mock-scenario", RPC.invalidRequest);
  const badName = prefixNameError(where);
  if (badName) return invalid(400, badName.message);
  if ((RESERVED_SESSIONS as readonly string[]).includes(where.session)) return invalid(400, `mockllm: session name "${where.session}" is reserved (v1, v1beta, api)`);
  const stored = await rt.scenarios.get(where.scenario);
  if (!stored) {
    const guess = closest(where.scenario, await rt.scenarios.names());
    return invalid(404, `mockllm: scenario "${where.scenario}" not found${guess !== undefined ? `; did you mean "${guess}"?` : ""}`);
  }
  const session = rt.sessions.get(`${stored.name}/${where.session}`);
  const mcpSession = request.headers.get("mcp-session-id");

  if (request.method === "DELETE") {
    if (mcpSession === null) return invalid(400, "DELETE needs the Mcp-Session-Id header of the MCP session to end");
    if (!(await session.closeMcp(mcpSession))) return rpcFailure(404, null, { code: SESSION_NOT_FOUND, message: "Session not found" });
    return new Response(null, { status: 200, headers: { "x-mockllm-outcome": "response" } });
  }

  const version = request.headers.get("mcp-protocol-version")?.trim();
  if (version !== undefined && !isSupportedVersion(version)) {
    return invalid(400, `Bad Request: unsupported MCP-Protocol-Version "${version}" (supported: ${[...MCP_PROTOCOL_VERSIONS, ...MODERN_MCP_VERSIONS].join(", ")})`);
  }
  const length = Number(request.headers.get("content-length") ?? "0");
  const text = length > MAX_BODY_BYTES ? undefined : await readLimited(request, MAX_BODY_BYTES);
  if (text === undefined) return invalid(413, `Request body is larger than ${MAX_BODY_BYTES} bytes.`);
  const deep = jsonDepthExceeded(text);
  if (deep >= 0) return invalid(400, `Parse error: ${tooDeepMessage("The request body", deep)}`, RPC.parseError);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    return invalid(400, `Parse error: ${(e as Error).message}`, RPC.parseError);
  }
  const batch = Array.isArray(body);
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  if (batch) {
    const speaks = version ?? DEFAULT_HEADER_VERSION;
    if (!BATCH_VERSIONS.has(speaks)) return invalid(400, `Invalid Request: JSON-RPC batches are not part of MCP ${speaks} (only 2025-03-26 and older)`);
    if (messages.length === 0 || messages.length > MAX_BATCH) return invalid(400, `Invalid Request: a batch holds 1 to ${MAX_BATCH} messages`);
  }
  const base = { scenario: stored.name, session: where.session, version: stored.version };
  const headers: Record<string, string> = { "x-mockllm-scenario": stored.name, "x-mockllm-session": where.session };
  const out: Outgoing[] = [];
  const answers: Outgoing[] = [];
  let at = 0;
  let mode: "json" | "sse" = stored.scenario.mcp?.responseMode ?? "json";
  /** A single 2026-07-28 request answered with an error gets that error's HTTP status (400, 404). */
  let status = 200;

  for (const raw of messages) {
    const parsed = parseMessage(raw);
    if (parsed.kind === "client-response") continue;
    if (parsed.kind === "invalid") {
      if (!batch) return rpcFailure(400, parsed.id, parsed.error);
      answers.push({ at, message: rpcError(parsed.id, parsed.error) });
      continue;
    }
    if (batch && parsed.message.method === "initialize") {
      answers.push({ at, message: rpcError(parsed.message.id ?? null, { code: RPC.invalidRequest, message: "Invalid Request: initialize cannot be part of a batch" }) });
      continue;
    }
    const wire = { method: "POST", path: "/mcp", headers: redactHeaders(request.headers), body: journalBody(JSON.stringify(raw), raw) };
    const newMcpSession = parsed.message.method === "initialize" ? `mcp-${crypto.randomUUID()}` : "";
    // A 2026-07-28 request is stateless: no MCP session, whatever header it carries.
    const modern = envelopeVersion(parsed.message) !== undefined;
    const result = await ask(session, { ...base, mcpSession: modern ? null : mcpSession, newMcpSession, message: parsed.message, wire }, stored);
    if (result.kind === "unknown-session") {
      return rpcFailure(404, parsed.message.id ?? null, { code: SESSION_NOT_FOUND, message: "Session not found" });
    }
    mode = result.responseMode;
    headers["x-mockllm-version"] = result.version;
    if (result.mcpSession !== undefined) headers["mcp-session-id"] = result.mcpSession;
    if (result.journal) {
      await noteSession(rt.sessions, stored.name, where.session, result.journal.seq);
      headers["x-mockllm-outcome"] = result.journal.outcome;
      if (result.journal.step !== null) headers["x-mockllm-step"] = headerText(result.journal.step);
    }
    if (result.response === null) continue;
    if (modern && !batch && "error" in result.response) status = MODERN_ERROR_STATUS[result.response.error.code] ?? 200;
    if (result.progress) out.push(...progressMessages(at, result.delayMs, result.progress.token, result.progress.steps));
    at += result.delayMs;
    answers.push({ at, message: result.response });
  }
  headers["x-mockllm-outcome"] ??= "response";
  if (answers.length === 0) return new Response(null, { status: 202, headers });
  if (wantsSse(mode, request.headers.get("accept"))) {
    // Progress and answers in due order; a stable sort keeps each call's progress before its answer.
    const events = [...out, ...answers].sort((a, b) => a.at - b.at);
    return sseResponse(events, exec, headers);
  }
  return jsonAnswer(answers, batch, exec, headers, status);
}

/** One message to the session: the version first, the scenario document only if the session has no snapshot yet. */
async function ask(session: ReturnType<Runtime["sessions"]["get"]>, input: McpInput, stored: StoredScenario): Promise<McpResult> {
  let result = await session.mcp(input);
  if ("needsDocument" in result) result = await session.mcp({ ...input, document: stored.scenario });
  if ("needsDocument" in result) throw new Error("mockllm: the session asked for the scenario document twice");
  return result;
}
