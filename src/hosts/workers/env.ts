/** The Worker's bindings (see wrangler.toml). */
import type { RuntimeVars } from "../../runtime/types";
import type { RegistryObject } from "./registry-object";
import type { SessionObject } from "./session-object";
import type { WebhookObject } from "./webhook-object";

export interface WorkerEnv extends RuntimeVars {
  SESSIONS: DurableObjectNamespace<SessionObject>;
  SCENARIOS: KVNamespace;
  /** The key registry (namespaces, keys, quota usage, audit): one object, `registry`. */
  REGISTRY: DurableObjectNamespace<RegistryObject>;
  /** Files and batches (src/objects): uploaded bytes, written output files, batch records. */
  FILES?: R2Bucket;
  /** Webhook endpoints and waiting deliveries: one object per namespace (`webhooks:{space}`). */
  WEBHOOKS?: DurableObjectNamespace<WebhookObject>;
}
