/**
 * mockllm's Worker entry: a deterministic fake LLM speaking the real provider APIs. The request path is shared with
 * the Node runtime; this file only adapts the Worker's bindings (src/hosts/workers).
 */
import { route } from "./router";
import type { WorkerEnv } from "./hosts/workers/env";
import { WorkerContext } from "./hosts/workers/context";
import { workersRuntime } from "./hosts/workers/runtime";
import { internalError } from "./routes/internal";

export { SessionObject } from "./hosts/workers/session-object";
export { RegistryObject } from "./hosts/workers/registry-object";
export { WebhookObject } from "./hosts/workers/webhook-object";

export default {
  async fetch(request, env, ctx): Promise<Response> {
    try {
      return await route(request, workersRuntime(env), new WorkerContext(ctx));
    } catch (e) {
      return internalError(e);
    }
  },
} satisfies ExportedHandler<WorkerEnv>;
