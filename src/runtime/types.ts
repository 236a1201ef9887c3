/**
 * The runtime boundary: what the shared request path (router, routes, providers) gets from the runtime it runs in.
 * Workers builds it from its bindings (src/runtime/workers), Node from its options (src/runtime/node). Nothing above
 * this interface knows which runtime it runs in.
 */
import type { ScenarioStore } from "../scenario/store";
import type { SessionStore } from "../session/types";

/** Settings, under the Worker variables' names (`mockllm serve` reads them from its environment). */
export interface RuntimeVars {
  /** Admin bearer token. Unset: admin answers 503. */
  ADMIN_TOKEN?: string;
  /** Default responder pacing; 0 = no delay. */
  DEFAULT_WORDS_PER_SECOND?: string;
  /** "off": requests no scenario selects get a 404 instead of the default responder. */
  DEFAULT_RESPONDER?: string;
}

export interface Runtime {
  sessions: SessionStore;
  scenarios: ScenarioStore;
  vars: RuntimeVars;
}

/** What one request's handling may ask of its host: work that outlives the response (a stream's writer). */
export interface RequestContext {
  waitUntil(promise: Promise<unknown>): void;
  /**
   * Breaks this request's connection at once (a scripted `network_error`). Where absent (Workers), erroring the
   * response body breaks it; a Node server would instead report the error and write it into the body.
   */
  breakConnection?(): void;
}
