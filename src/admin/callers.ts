/**
 * Who calls the admin API (contract sections 5 and 9). The root token (ADMIN_TOKEN) acts in the `default` namespace
 * and alone manages namespaces and keys; with namespaces on, a namespace key as the bearer acts inside its namespace:
 * `admin` = every section 5 and 8 route, `read` = their GETs, `run` = none (403).
 */
import type { Runtime } from "../runtime/types";
import { isNamespaceKey } from "../tenancy/keys";
import { QuotaError } from "../tenancy/quota";
import { credentialValues, resolveCaller } from "../tenancy/resolve";
import { scopeRuntime } from "../tenancy/scope";
import type { Caller } from "../tenancy/types";
import { actionOf, audit } from "./audit";
import { adminError, checkAdminAuth } from "./http";

const reads = (method: string) => method === "GET" || method === "HEAD";

/** The caller: root (`{}`), a namespace key allowed this method (`{ caller }`), or the refusal to answer. */
export async function adminCaller(request: Request, rt: Runtime): Promise<{ caller?: Caller } | { response: Response }> {
  if (!rt.vars.ADMIN_TOKEN) return { response: adminError(503, "admin disabled") };
  const values = rt.tenancy ? credentialValues(request, new URLSearchParams()) : [];
  if (values.some(isNamespaceKey)) {
    const resolved = await resolveCaller(rt, values);
    if (resolved.kind !== "caller") return { response: adminError(401, "unauthorized") };
    const { caller } = resolved;
    if (caller.scope === "run") return { response: adminError(403, "a run key may call provider routes only") };
    if (caller.scope === "read" && !reads(request.method)) return { response: adminError(403, "a read key may only read (GET)") };
    return { caller };
  }
  const denied = await checkAdminAuth(request, rt);
  return denied ? { response: denied } : {};
}

/**
 * Serves a namespace key's request on its namespace's runtime: a quota it runs over answers 429, and a write that
 * succeeds leaves a line in the namespace's audit log.
 */
export async function asCaller(request: Request, rt: Runtime, caller: Caller, serve: (rt: Runtime) => Promise<Response>): Promise<Response> {
  let res: Response;
  try {
    res = await serve(scopeRuntime(rt, caller));
  } catch (e) {
    if (e instanceof QuotaError) return adminError(429, e.message, {}, e.headers());
    throw e;
  }
  if (!reads(request.method) && res.status < 400) {
    const { action, target } = actionOf(request.method, new URL(request.url).pathname);
    await audit(rt.tenancy!, caller.namespace.name, caller.keyId, action, target);
  }
  return res;
}
