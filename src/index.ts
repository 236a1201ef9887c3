/**
 * mockllm's Worker entry: a deterministic fake LLM speaking the real provider APIs. The request path is shared with
 * the Node runtime; this file only adapts the Worker's bindings (src/hosts/workers).
 */
import { route } from "./router";
import type { WorkerEnv } from "./hosts/workers/env";
import { WorkerContext } from "./hosts/workers/context";
import { workersRuntime } from "./hosts/workers/runtime";
import { internalError } from "./routes/internal";
import { discardRest } from "./http/body";

export { SessionObject } from "./hosts/workers/session-object";
export { RegistryObject } from "./hosts/workers/registry-object";
export { WebhookObject } from "./hosts/workers/webhook-object";

export default {
  async fetch(request, env, ctx): Promise<Response> {
    let res: Response;
    try {
      res = await route(request, workersRuntime(env), new WorkerContext(ctx));
    } catch (e) {
      res = internalError(e);
    }
    // A request answered before its body was read (refused, unknown path, a closed upload): the rest is read and thrown
    // away (up to MAX_DRAIN_BYTES) before the answer goes out, as the Node runtime does (hosts/node/transport.ts).
    // workerd run directly (Miniflare, `startMockLLM({ runtime: "workerd" })`) otherwise closes the connection while
    // the client still writes, and the client sees EPIPE, not the answer.
    const body = request.body;
    if (body !== null && !request.bodyUsed && !body.locked) await discardRest(body.getReader());
    return res;
  },
} satisfies ExportedHandler<WorkerEnv>;
