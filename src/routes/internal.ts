/** The answer to a bug: never a stack trace to a client; the log keeps it. */
import { Response } from "../http/web";
export function internalError(e: unknown): Response {
  console.error("mockllm: internal error", e);
  return new Response(JSON.stringify({ error: { message: "mockllm: internal error", type: "server_error", param: null, code: null } }), {
    status: 500,
    headers: { "content-type": "application/json" },
  });
}
