/**
 * mockllm's Worker entry: a deterministic fake LLM speaking the real provider APIs. The request path is shared with
 * the Node runtime; this file only adapts the Worker's bindings (src/runtime/workers).
 */
import { route } from "./router";
import type { WorkerEnv } from "./runtime/workers/env";
import { WorkerContext } from "./runtime/workers/context";
import { workersRuntime } from "./runtime/workers/runtime";
import { internalError } from "./routes/internal";

export { SessionObject } from "./runtime/workers/session-object";
export { RegistryObject } from "./runtime/workers/registry-object";

export default {
  async fetch(request, env, ctx): Promise<Response> {
    try {
      return await route(request, workersRuntime(env), new WorkerContext(ctx));
    } catch (e) {
      return internalError(e);
    }
  },
} satisfies ExportedHandler<WorkerEnv>;
