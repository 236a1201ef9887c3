/** The Worker's bindings (see wrangler.toml). */
import type { RuntimeVars } from "../types";
import type { SessionObject } from "./session-object";

export interface WorkerEnv extends RuntimeVars {
  SESSIONS: DurableObjectNamespace<SessionObject>;
  SCENARIOS: KVNamespace;
}
