/**
 * Quota failures: thrown by the scoped stores (scope.ts) and the gate, answered by the router as the surface's 429
 * (and by the admin API as its own), with `retry-after` and `x-mockllm-outcome: quota`.
 */
import { apiError, type ApiError } from "../http/errors";
import type { Runtime } from "../runtime/types";
import type { Caller, QuotaName, Usage } from "./types";

export class QuotaError extends Error {
  constructor(
    readonly quota: QuotaName,
    readonly retryAfterSeconds: number,
    namespace: string,
  ) {
    super(`mockllm: namespace "${namespace}" is over its ${quota} quota; retry after ${retryAfterSeconds} s`);
  }

  headers(): Record<string, string> {
    return { "retry-after": String(this.retryAfterSeconds), "x-mockllm-outcome": "quota" };
  }

  /** The surface's 429, its body's retry hint (Gemini's `RetryInfo`) agreeing with `retry-after`. */
  apiError(): ApiError {
    return apiError("rate_limit", this.message, { retryAfterMs: this.retryAfterSeconds * 1000 });
  }
}

/** Default SESSION_TTL: 7 days, in seconds. */
export const DEFAULT_SESSION_TTL = 604_800;

/** SESSION_TTL in ms (a positive number of seconds; otherwise the default). */
export function sessionTtlMs(vars: Pick<Runtime["vars"], "SESSION_TTL">): number {
  const n = Number(vars.SESSION_TTL ?? DEFAULT_SESSION_TTL);
  return (Number.isFinite(n) && n > 0 ? n : DEFAULT_SESSION_TTL) * 1000;
}

/** Charges `usage` to the caller's namespace; throws QuotaError when it does not fit. */
export async function charge(rt: Runtime, caller: Caller, usage: Usage): Promise<void> {
  const ns = caller.namespace;
  const result = await rt.tenancy!.registry.charge(ns.name, ns.quotas, usage, Date.now(), sessionTtlMs(rt.vars));
  if (!result.ok) throw new QuotaError(result.quota, result.retryAfterSeconds, ns.name);
}
