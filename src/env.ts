/** The Worker's bindings (see wrangler.toml). */
import type { SessionObject } from "./session/session";

export interface Env {
  SESSIONS: DurableObjectNamespace<SessionObject>;
  SCENARIOS: KVNamespace;
  /** Admin bearer token (a Worker secret; `npm run dev` sets a local one). Unset: admin answers 503. */
  ADMIN_TOKEN?: string;
  /** Default responder pacing; 0 = no delay. */
  DEFAULT_WORDS_PER_SECOND?: string;
}
