/**
 * The router's first step on provider routes: resolve the caller's namespace from the credential the SDK sends.
 * No namespace key (and ANONYMOUS not `deny`): the request goes on untouched, in the implicit `default` namespace.
 * A valid key: the request goes on, untouched (rebuilding it would cost the body's fast path on Node), with a
 * namespace-scoped runtime (scope.ts), whose sessions journal the key's id as `x-mockllm-key-id`. The key itself is
 * kept out of journals by the header redaction (http/body.ts) and out of upstream requests by the recording proxy
 * (turn/record.ts drops namespace keys).
 */
import { apiError, type ApiError } from "../http/errors";
import type { Runtime } from "../runtime/types";
import type { Awaitable } from "../session/types";
import { isNamespaceKey } from "./keys";
import { charge, QuotaError } from "./quota";
import { credentialValues, resolveCaller } from "./resolve";
import { scopeRuntime } from "./scope";
import { isEphemeralKey, type EphemeralClaims } from "../util/ephemeral";
import { gateEphemeral } from "./ephemeral";

export type GateResult = { ok: true; rt: Runtime; ephemeral?: EphemeralClaims } | { ok: false; error: ApiError; headers: Record<string, string> };

export function anonymousDenied(rt: Runtime): boolean {
  return rt.vars.ANONYMOUS?.trim().toLowerCase() === "deny";
}

function refused(message: string): GateResult {
  return { ok: false, error: apiError("authentication", `mockllm: ${message}`), headers: { "x-mockllm-outcome": "error" } };
}

/**
 * Resolves a provider request's namespace.
 * `open()`: whether the path takes no API key (health, inspector, admin, which checks its own).
 * @example const gate = await gateProvider(request, rt, () => false); if (gate.ok) return serve(request, gate.rt)
 */
export function gateProvider(request: Request, rt: Runtime, open: () => boolean): Awaitable<GateResult> {
  const values = credentialValues(request);
  // An ephemeral key (a browser's Realtime or Live token) is valid only as what it was minted for: the router checks the claims.
  const ephemeral = values.find(isEphemeralKey);
  if (ephemeral !== undefined && !open()) {
    return gateEphemeral(rt, ephemeral, values).then((gate): GateResult => (gate.ok ? { ok: true, rt: gate.rt, ephemeral: gate.claims } : gate));
  }
  const hasKey = values.some(isNamespaceKey);
  if ((hasKey || anonymousDenied(rt)) && open()) return { ok: true, rt };
  if (!hasKey) {
    if (anonymousDenied(rt)) return refused("this server requires a namespace key (ANONYMOUS=deny): send an mk_ key as the API key");
    // No key to look up: answered at once, without a promise.
    return { ok: true, rt };
  }
  return gateKey(rt, values);
}

/** A request with a namespace key: its namespace looked up, its request quota charged. */
async function gateKey(rt: Runtime, values: string[]): Promise<GateResult> {
  const resolved = await resolveCaller(rt, values);
  if (resolved.kind === "refused") return refused(resolved.message);
  if (resolved.kind === "default") return { ok: true, rt };
  const { caller } = resolved;
  if (caller.namespace.quotas.requestsPerMinute !== undefined) {
    try {
      await charge(rt, caller, { request: true });
    } catch (e) {
      if (!(e instanceof QuotaError)) throw e;
      return { ok: false, error: e.apiError(), headers: e.headers() };
    }
  }
  return { ok: true, rt: scopeRuntime(rt, caller) };
}
