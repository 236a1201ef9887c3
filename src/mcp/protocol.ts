/**
 * MCP protocol constants and JSON-RPC 2.0 shapes, pure. The versions are the ones the official TypeScript SDK
 * (1.32) speaks; the stateless 2026-07-28 revision (`server/discover`) is not in that SDK, so it is not offered.
 */

/** Newest first; `initialize` answers the client's version when listed, else the newest. */
export const MCP_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export const LATEST_MCP_VERSION = MCP_PROTOCOL_VERSIONS[0];
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

export type RpcResponse =
  | { jsonrpc: "2.0"; id: RpcId; result: Record<string, unknown> }
  | { jsonrpc: "2.0"; id: RpcId | null; error: RpcErrorObject };

/** The version `initialize` answers: the client's when supported, else the newest (spec, lifecycle). */
export function negotiateVersion(requested: unknown): string {
  return typeof requested === "string" && (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(requested) ? requested : LATEST_MCP_VERSION;
}

export function isSupportedVersion(v: string): boolean {
  return (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(v);
}

export function rpcResult(id: RpcId, result: Record<string, unknown>): RpcResponse {
  return { jsonrpc: "2.0", id, result };
}

export function rpcError(id: RpcId | null, error: RpcErrorObject): RpcResponse {
  return { jsonrpc: "2.0", id, error };
}
