/**
 * The JSON-RPC envelope a client POSTs, checked loosely (clients add fields): a request or notification has
 * `jsonrpc: "2.0"`, a string `method`, an object `params` if any, and a string or number `id` if a request. A client's
 * response to a server request (we send none) has `result` or `error` and no `method`.
 */
import { z } from "zod";
import { RPC, type RpcErrorObject, type RpcId, type RpcMessage } from "./protocol";
import { lazily } from "../util/memo";

/** Built on the first MCP message (util/memo.ts `lazily`): a start pays for no schema it does not use. */
const rpcWire = lazily(() => {
  const RequestSchema = z.looseObject({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number().int()]).optional(),
    method: z.string().min(1),
    params: z.record(z.string(), z.unknown()).optional(),
  });

  const ClientResponseSchema = z.looseObject({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]),
  });
  return { RequestSchema, ClientResponseSchema };
});

export type ParsedMessage =
  | { kind: "message"; message: RpcMessage }
  /** A client's answer to a server request: accepted, nothing to say. */
  | { kind: "client-response" }
  | { kind: "invalid"; id: RpcId | null; error: RpcErrorObject };

function idOf(value: unknown): RpcId | null {
  if (value === null || typeof value !== "object") return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : null;
}

/**
 * @example parseMessage({ jsonrpc: "2.0", id: 1, method: "ping" }) // { kind: "message", message: { id: 1, method: "ping" } }
 */
export function parseMessage(value: unknown): ParsedMessage {
  const { RequestSchema, ClientResponseSchema } = rpcWire();
  const req = RequestSchema.safeParse(value);
  if (req.success) {
    const { id, method, params } = req.data;
    return { kind: "message", message: { ...(id !== undefined ? { id } : {}), method, ...(params !== undefined ? { params } : {}) } };
  }
  if (value !== null && typeof value === "object" && !("method" in value) && ("result" in value || "error" in value)) {
    if (ClientResponseSchema.safeParse(value).success) return { kind: "client-response" };
  }
  const issue = req.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join(".") : "message";
  return {
    kind: "invalid",
    id: idOf(value),
    error: { code: RPC.invalidRequest, message: `Invalid Request: ${where}: ${issue?.message ?? "not a JSON-RPC 2.0 request"}` },
  };
}
