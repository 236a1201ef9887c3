/**
 * The router's first step on provider routes: resolve the caller's namespace from the credential the SDK sends.
 * No namespace key (and ANONYMOUS not `deny`): the request goes on untouched, in the implicit `default` namespace.
 * A valid key: the request goes on with a namespace-scoped runtime (scope.ts), its credentials replaced by
 * `mockllm-key-{id}` (so no journal, recording, upstream or log ever sees the secret) and `x-mockllm-key-id` set
 * (so the journal notes which key ran it).
 */
import { apiError, type ApiError } from "../http/errors";
import type { Runtime } from "../runtime/types";
import { isNamespaceKey } from "./keys";
import { charge, QuotaError } from "./quota";
import { credentialValues, resolveCaller } from "./resolve";
import { scopeRuntime } from "./scope";

/** The header the journal shows the key id under; never taken from a client. */
export const KEY_ID_HEADER = "x-mockllm-key-id";

export type GateResult =
  | { ok: true; request: Request; rt: Runtime }
  | { ok: false; error: ApiError; headers: Record<string, string> };

export function anonymousDenied(rt: Runtime): boolean {
  return rt.vars.ANONYMOUS?.trim().toLowerCase() === "deny";
}

function refused(message: string): GateResult {
  return { ok: false, error: apiError("authentication", `mockllm: ${message}`), headers: { "x-mockllm-outcome": "error" } };
}

/** The request with every namespace key replaced by a placeholder naming only its id, and the key id noted. */
function withoutSecrets(request: Request, keyId: string | undefined): Request {
  const headers = new Headers(request.headers);
  headers.delete(KEY_ID_HEADER);
  let url = request.url;
  if (keyId !== undefined) {
    const placeholder = `mockllm-key-${keyId}`;
    for (const name of ["x-api-key", "x-goog-api-key"]) if (isNamespaceKey(headers.get(name)?.trim() ?? "")) headers.set(name, placeholder);
    if (/^Bearer\s+mk_/i.test(headers.get("authorization")?.trim() ?? "")) headers.set("authorization", `Bearer ${placeholder}`);
    if (url.includes("key=")) {
      const u = new URL(url);
      if (isNamespaceKey(u.searchParams.get("key")?.trim() ?? "")) {
        u.searchParams.set("key", placeholder);
        url = u.toString();
      }
    }
    headers.set(KEY_ID_HEADER, keyId);
  }
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers, signal: request.signal };
  if (request.body !== null) {
    init.body = request.body;
    init.duplex = "half";
  }
  return new Request(url, init);
}

/**
 * Resolves a provider request's namespace.
 * `open()`: whether the path takes no API key (health, inspector, admin, which checks its own).
 * @example const gate = await gateProvider(request, rt, () => false); if (gate.ok) return serve(gate.request, gate.rt)
 */
export async function gateProvider(request: Request, rt: Runtime, open: () => boolean): Promise<GateResult> {
  const values = credentialValues(request);
  const hasKey = values.some(isNamespaceKey);
  if ((hasKey || anonymousDenied(rt)) && open()) return { ok: true, request, rt };
  if (!hasKey) {
    if (anonymousDenied(rt)) return refused("this server requires a namespace key (ANONYMOUS=deny): send an mk_ key as the API key");
    return { ok: true, request: request.headers.has(KEY_ID_HEADER) ? withoutSecrets(request, undefined) : request, rt };
  }
  const resolved = await resolveCaller(rt, values);
  if (resolved.kind === "refused") return refused(resolved.message);
  if (resolved.kind === "default") return { ok: true, request, rt };
  const { caller } = resolved;
  if (caller.namespace.quotas.requestsPerMinute !== undefined) {
    try {
      await charge(rt, caller, { request: true });
    } catch (e) {
      if (!(e instanceof QuotaError)) throw e;
      return { ok: false, error: apiError("rate_limit", e.message), headers: e.headers() };
    }
  }
  return { ok: true, request: withoutSecrets(request, caller.keyId), rt: scopeRuntime(rt, caller) };
}
