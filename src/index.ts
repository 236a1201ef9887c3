/**
 * mockllm: a deterministic fake LLM speaking the real provider APIs.
 */
import type { Env } from "./env";
import { route } from "./router";

export { SessionObject } from "./session/session";

export default {
  async fetch(request, env, ctx): Promise<Response> {
    try {
      return await route(request, env, ctx);
    } catch (e) {
      // Never a stack trace to a client; the log keeps it.
      console.error("mockllm: internal error", e);
      return new Response(
        JSON.stringify({ error: { message: "mockllm: internal error", type: "server_error", param: null, code: null } }),
        { status: 500, headers: { "content-type": "application/json" } },
      );
    }
  },
} satisfies ExportedHandler<Env>;
