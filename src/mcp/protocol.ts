/**
 * MCP protocol constants and JSON-RPC 2.0 shapes, pure. The handshake-era versions (`initialize`, Mcp-Session-Id)
 * are the ones the official TypeScript SDK (1.32) speaks; the stateless 2026-07-28 revision (`server/discover`, the
 * version in each request's `_meta`, no session) is the one the official Python SDK (2.3) speaks besides them.
 */

/** Newest first; `initialize` answers the client's version when listed, else the newest. */
export const MCP_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export const LATEST_MCP_VERSION = MCP_PROTOCOL_VERSIONS[0];
/** Stateless revisions: no handshake, every request names its version in `params._meta`. */
export const MODERN_MCP_VERSIONS = ["2026-07-28"] as const;
/** Where a 2026-07-28 request names its protocol version, and a discover result the server. */
export const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";
export const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo";
/** HTTP status of a 2026-07-28 error answer, by JSON-RPC code (others: 200). */
export const MODERN_ERROR_STATUS: Record<number, number> = { [-32700]: 400, [-32600]: 400, [-32602]: 400, [-32020]: 400, [-32022]: 400, [-32601]: 404 };
/** What a request without `MCP-Protocol-Version` is taken to speak (Streamable HTTP spec). */
export const DEFAULT_HEADER_VERSION = "2025-03-26";

/** JSON-RPC 2.0 error codes, and MCP's resource-not-found. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  resourceNotFound: -32002,
  unsupportedProtocolVersion: -32022,
} as const;

export type RpcId = string | number;

/** One JSON-RPC message from the client, checked for shape (wire.ts). `id` absent: a notification. */
export interface RpcMessage {
  id?: RpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcResponse = { jsonrpc: "2.0"; id: RpcId; result: Record<string, unknown> } | { jsonrpc: "2.0"; id: RpcId | null; error: RpcErrorObject };

/** The version `initialize` answers: the client's when supported, else the newest (spec, lifecycle). */
export function negotiateVersion(requested: unknown): string {
  return typeof requested === "string" && (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(requested) ? requested : LATEST_MCP_VERSION;
}

/** A version the `MCP-Protocol-Version` header may name: any handshake-era or stateless one. */
export function isSupportedVersion(v: string): boolean {
  return (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(v) || (MODERN_MCP_VERSIONS as readonly string[]).includes(v);
}

/** The version a 2026-07-28-style request names in `params._meta` (any value); undefined for handshake-era requests. */
export function envelopeVersion(msg: RpcMessage): unknown {
  const meta = msg.params?._meta;
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return undefined;
  return (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY];
}

export function rpcResult(id: RpcId, result: Record<string, unknown>): RpcResponse {
  return { jsonrpc: "2.0", id, result };
}

export function rpcError(id: RpcId | null, error: RpcErrorObject): RpcResponse {
  return { jsonrpc: "2.0", id, error };
}
