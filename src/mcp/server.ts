/**
 * The scripted MCP server, pure: one JSON-RPC message in, the answer (and for `tools/call` the state change) out.
 * The session (session/mcp.ts) applies the change and journals the call; the route (routes/mcp.ts) speaks HTTP.
 */
import type { McpBlock, McpCall } from "../scenario/mcp-schema";
import type { Scenario } from "../scenario/schema";
import { expandStrings } from "../scenario/templates";
import { decideCall, type CallDecision, type McpCallState, type ToolCall } from "./calls";
import {
  envelopeVersion,
  MCP_PROTOCOL_VERSIONS,
  MODERN_MCP_VERSIONS,
  negotiateVersion,
  RPC,
  rpcError,
  rpcResult,
  SERVER_INFO_META_KEY,
  type RpcId,
  type RpcMessage,
  type RpcResponse,
} from "./protocol";
import { echoed } from "../util/text";

export interface McpContext {
  scenario: string;
  session: string;
  /** The scenario version the session runs (serverInfo.version). */
  version: string;
}

export interface McpDecision {
  /** Null for a notification: nothing is answered (HTTP 202). */
  response: RpcResponse | null;
  /** `initialize`: the session opens an MCP session (Mcp-Session-Id) for this protocol version. */
  open?: { protocolVersion: string };
  /** `tools/call`: what was decided, for the state change and the journal. */
  call?: { toolCall: ToolCall; decision: CallDecision };
  delayMs: number;
  /** `notifications/progress` to send before the answer (the client sent `_meta.progressToken`). */
  progress?: { token: RpcId; steps: NonNullable<McpCall["progress"]> };
}

const NONE = { delayMs: 0 } as const;

function invalidParams(id: RpcId, message: string): McpDecision {
  return { ...NONE, response: rpcError(id, { code: RPC.invalidParams, message }) };
}

function str(params: Record<string, unknown> | undefined, key: string): string | undefined {
  const v = params?.[key];
  return typeof v === "string" ? v : undefined;
}

function objectParam(params: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined | null {
  const v = params?.[key];
  if (v === undefined) return undefined;
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function progressToken(params: Record<string, unknown> | undefined): RpcId | undefined {
  const meta = objectParam(params, "_meta");
  const t = meta?.progressToken;
  return typeof t === "string" || typeof t === "number" ? t : undefined;
}

/** What `tools/list` shows of a tool: everything scripted, `inputSchema` defaulted. */
function listedTools(mcp: McpBlock | undefined) {
  return (mcp?.tools ?? []).map((t) => ({ ...t, inputSchema: t.inputSchema ?? { type: "object" } }));
}

const CAPABILITIES = { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false }, prompts: { listChanged: false } };

function serverInfo(ctx: McpContext) {
  return { name: `mockllm/${ctx.scenario}`, version: ctx.version };
}

function initialize(id: RpcId, msg: RpcMessage, doc: Scenario, ctx: McpContext): McpDecision {
  const requested = str(msg.params, "protocolVersion");
  if (requested === undefined) return invalidParams(id, "initialize: params.protocolVersion (a string) is required");
  const protocolVersion = negotiateVersion(requested);
  const result = {
    protocolVersion,
    capabilities: CAPABILITIES,
    serverInfo: serverInfo(ctx),
    ...(doc.mcp?.instructions !== undefined ? { instructions: doc.mcp.instructions } : {}),
  };
  return { ...NONE, response: rpcResult(id, result), open: { protocolVersion } };
}

/** 2026-07-28 `server/discover`: the versions, capabilities and instructions, with no session opened. */
function discover(id: RpcId, doc: Scenario, ctx: McpContext): McpDecision {
  const result = {
    supportedVersions: [...[...MCP_PROTOCOL_VERSIONS].reverse(), ...MODERN_MCP_VERSIONS],
    capabilities: CAPABILITIES,
    ...(doc.mcp?.instructions !== undefined ? { instructions: doc.mcp.instructions } : {}),
    resultType: "complete",
    _meta: { [SERVER_INFO_META_KEY]: serverInfo(ctx) },
  };
  return { ...NONE, response: rpcResult(id, result) };
}

/** A 2026-07-28 request whose `_meta` names a version this server does not speak: -32022 with the supported ones. */
function envelopeError(id: RpcId, msg: RpcMessage): McpDecision | undefined {
  const v = envelopeVersion(msg);
  if (v === undefined) return undefined;
  if (typeof v !== "string") return invalidParams(id, "the protocol-version envelope value must be a string");
  if ((MODERN_MCP_VERSIONS as readonly string[]).includes(v)) return undefined;
  const error = { code: RPC.unsupportedProtocolVersion, message: `Unsupported protocol version: ${v}`, data: { supported: [...MODERN_MCP_VERSIONS], requested: v } };
  return { ...NONE, response: rpcError(id, error) };
}

function callTool(id: RpcId, msg: RpcMessage, doc: Scenario, state: McpCallState, ctx: McpContext): McpDecision {
  const name = str(msg.params, "name");
  if (name === undefined) return invalidParams(id, "tools/call: params.name (a string) is required");
  const args = objectParam(msg.params, "arguments");
  if (args === null) return invalidParams(id, "tools/call: params.arguments must be an object");
  const toolCall = { tool: name, arguments: args ?? {} };
  const decision = decideCall(doc.mcp, state, toolCall, { scenario: ctx.scenario, session: ctx.session, vars: doc.variables ?? {} });
  if (decision.kind === "mismatch") return { ...NONE, response: rpcError(id, decision.error), call: { toolCall, decision } };
  const response = decision.result ? rpcResult(id, decision.result) : rpcError(id, decision.error!);
  const token = progressToken(msg.params);
  return {
    response,
    call: { toolCall, decision },
    delayMs: decision.delayMs,
    ...(token !== undefined && decision.progress.length > 0 ? { progress: { token, steps: decision.progress } } : {}),
  };
}

function readResource(id: RpcId, msg: RpcMessage, doc: Scenario): McpDecision {
  const uri = str(msg.params, "uri");
  if (uri === undefined) return invalidParams(id, "resources/read: params.uri (a string) is required");
  const r = (doc.mcp?.resources ?? []).find((x) => x.uri === uri);
  if (!r) return { ...NONE, response: rpcError(id, { code: RPC.resourceNotFound, message: `Resource not found: ${uri}`, data: { uri } }) };
  const body = r.blob !== undefined ? { blob: r.blob } : { text: r.text ?? "" };
  return { ...NONE, response: rpcResult(id, { contents: [{ uri: r.uri, ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}), ...body }] }) };
}

function getPrompt(id: RpcId, msg: RpcMessage, doc: Scenario, ctx: McpContext): McpDecision {
  const name = str(msg.params, "name");
  if (name === undefined) return invalidParams(id, "prompts/get: params.name (a string) is required");
  const prompt = (doc.mcp?.prompts ?? []).find((p) => p.name === name);
  if (!prompt) return invalidParams(id, `prompts/get: unknown prompt "${echoed(name)}"`);
  const args = objectParam(msg.params, "arguments");
  if (args === null) return invalidParams(id, "prompts/get: params.arguments must be an object");
  const missing = (prompt.arguments ?? []).filter((a) => a.required === true && args?.[a.name] === undefined).map((a) => a.name);
  if (missing.length > 0) return invalidParams(id, `prompts/get "${name}": missing required argument(s) ${missing.join(", ")}`);
  const messages = expandStrings(prompt.messages, { vars: doc.variables ?? {}, args: args ?? {}, session: ctx.session }, "mcp");
  return { ...NONE, response: rpcResult(id, { ...(prompt.description !== undefined ? { description: prompt.description } : {}), messages }) };
}

/**
 * Answers one message from the session's scripted server.
 * @example answer(doc, { used: [], attempts: {} }, { id: 1, method: "tools/list" }, ctx).response
 */
export function answer(doc: Scenario, state: McpCallState, msg: RpcMessage, ctx: McpContext): McpDecision {
  const decision = dispatch(doc, state, msg, ctx);
  return envelopeVersion(msg) === undefined ? decision : modernResult(decision, msg.method);
}

/** Results a 2026-07-28 client may cache: they carry `ttlMs` and `cacheScope` (0 and private: never cached). */
const CACHEABLE = new Set(["server/discover", "tools/list", "resources/list", "resources/templates/list", "resources/read", "prompts/list"]);

/** A 2026-07-28 result carries `resultType` ("complete": nothing more to ask the client), cacheable ones caching. */
function modernResult(decision: McpDecision, method: string): McpDecision {
  const r = decision.response;
  if (r === null || !("result" in r)) return decision;
  const caching = CACHEABLE.has(method) ? { ttlMs: 0, cacheScope: "private" } : {};
  return { ...decision, response: { ...r, result: { ...r.result, resultType: "complete", ...caching } } };
}

function dispatch(doc: Scenario, state: McpCallState, msg: RpcMessage, ctx: McpContext): McpDecision {
  const id = msg.id;
  if (id === undefined) return { ...NONE, response: null };
  const bad = envelopeError(id, msg);
  if (bad) return bad;
  const mcp = doc.mcp;
  switch (msg.method) {
    case "initialize":
      return initialize(id, msg, doc, ctx);
    case "server/discover":
      return discover(id, doc, ctx);
    case "ping":
      return { ...NONE, response: rpcResult(id, {}) };
    case "tools/list":
      return { ...NONE, response: rpcResult(id, { tools: listedTools(mcp) }) };
    case "tools/call":
      return callTool(id, msg, doc, state, ctx);
    case "resources/list":
      return {
        ...NONE,
        response: rpcResult(id, { resources: (mcp?.resources ?? []).map(({ text: _t, blob: _b, ...listed }) => listed) }),
      };
    case "resources/templates/list":
      return { ...NONE, response: rpcResult(id, { resourceTemplates: [] }) };
    case "resources/read":
      return readResource(id, msg, doc);
    case "prompts/list":
      return {
        ...NONE,
        response: rpcResult(id, { prompts: (mcp?.prompts ?? []).map(({ messages: _m, ...listed }) => listed) }),
      };
    case "prompts/get":
      return getPrompt(id, msg, doc, ctx);
    default:
      return { ...NONE, response: rpcError(id, { code: RPC.methodNotFound, message: `Method not found: ${msg.method}` }) };
  }
}
