/**
 * The admin API with namespaces (contract section 9). The root token (ADMIN_TOKEN) acts in the `default` namespace
 * and manages namespaces and keys (`/admin/namespaces…`); a namespace key as the bearer acts inside its namespace:
 * `admin` = every section 5 and 8 route, `read` = their GETs, `run` = none (403). A namespace that is not the
 * caller's answers 404 whether or not it exists.
 */
import { z } from "zod";
import { adminError, checkAdminAuth, readBody } from "./http";
import type { Runtime } from "../runtime/types";
import { NAME_PATTERN } from "../scenario/schema";
import { safeDecode } from "../http/url";
import { generation, hashKey, isNamespaceKey, mintKey, SCOPES } from "../tenancy/keys";
import { QuotaError } from "../tenancy/quota";
import { credentialValues, forgetKeys, resolveCaller } from "../tenancy/resolve";
import { scopeRuntime } from "../tenancy/scope";
import type { Caller, Tenancy } from "../tenancy/types";
import type { AdminAnswers, CreatedKeyAnswer } from "./answers";

const quotasSchema = z.strictObject({
  sessions: z.int().min(0).optional(),
  requestsPerMinute: z.int().min(0).optional(),
  scenarioBytes: z.int().min(0).optional(),
  journalBytes: z.int().min(0).optional(),
});
const createNamespaceSchema = z.strictObject({
  name: z.string().regex(NAME_PATTERN, "names match [a-z0-9][a-z0-9._-]{0,63}"),
  quotas: quotasSchema.optional(),
});
const createKeySchema = z.strictObject({
  scope: z.enum(SCOPES),
  label: z.string().max(200).optional(),
});

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body, null, 2), { status, headers: { "content-type": "application/json", ...headers } });
}

function quotaResponse(e: QuotaError): Response {
  return json({ error: { message: e.message } }, 429, e.headers());
}

function issuesOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({ path: `$${i.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}`, message: i.message }));
}

/** `/admin/namespaces/{ns}/…` split into its parts (decoded). */
function namespacePath(pathname: string): string[] | undefined {
  if (pathname !== "/admin/namespaces" && !pathname.startsWith("/admin/namespaces/")) return undefined;
  return pathname.slice("/admin/namespaces".length).split("/").filter((s) => s !== "").map(safeDecode);
}

/** The audit action for an admin write: `scenario.put`, `session.reset`, … */
function actionOf(method: string, path: string): { action: string; target: string } {
  const parts = path.split("/").filter((s) => s !== "").slice(1).map(safeDecode);
  const kind = parts[0] === "scenarios" ? "scenario" : parts[0] === "sessions" ? "session" : parts[0] ?? "admin";
  const verb = parts.length > 3 ? parts[parts.length - 1]! : method === "PUT" ? "put" : method === "DELETE" ? "delete" : method === "POST" && parts.length === 1 ? "bulk" : method.toLowerCase();
  const target = kind === "session" ? parts.slice(1, 3).join("/") : parts[1] ?? "*";
  return { action: `${kind}.${verb}`, target };
}

async function audit(t: Tenancy, ns: string, keyId: string, action: string, target: string): Promise<void> {
  await t.registry.audit(ns, { at: new Date().toISOString(), keyId, action, target });
}

/** Root's namespace routes. */
async function namespaceRoutes(request: Request, t: Tenancy, parts: string[]): Promise<Response> {
  const method = request.method;
  const [ns, sub, id] = parts;
  if (ns === undefined) {
    if (method === "GET") return json(await t.registry.listNamespaces());
    if (method !== "POST") return adminError(405, `use GET or POST for /admin/namespaces`);
    const body = await readBody(request);
    if (!body.ok) return body.response;
    const parsed = createNamespaceSchema.safeParse(body.value);
    if (!parsed.success) return adminError(400, "invalid namespace", issuesOf(parsed.error));
    const { name, quotas = {} } = parsed.data;
    if (name === "default") return adminError(409, `namespace "default" is the implicit one; choose another name`);
    const created = await t.registry.createNamespace(name, quotas, `${name}.${generation()}`);
    if (!created) return adminError(409, `namespace "${name}" already exists`);
    await audit(t, name, "root", "namespace.create", name);
    return json({ name, quotas } satisfies AdminAnswers["POST /admin/namespaces"], 201);
  }
  const record = NAME_PATTERN.test(ns) ? await t.registry.getNamespace(ns) : null;
  if (!record) return adminError(404, `namespace "${ns.slice(0, 64)}" not found`);
  if (sub === undefined) {
    if (method === "GET") return json(record);
    if (method !== "DELETE") return adminError(405, `use GET or DELETE for /admin/namespaces/{ns}`);
    const removed = await t.registry.deleteNamespace(ns);
    forgetKeys();
    if (removed) await t.dropSpace(removed.space);
    return json({ name: ns, deleted: true });
  }
  if (sub === "audit" && id === undefined && method === "GET") return json(await t.registry.auditLog(ns));
  if (sub !== "keys") return adminError(404, "no such admin route");
  if (id === undefined) {
    if (method === "GET") return json(await t.registry.listKeys(ns));
    if (method !== "POST") return adminError(405, `use GET or POST for /admin/namespaces/{ns}/keys`);
    const body = await readBody(request);
    if (!body.ok) return body.response;
    const parsed = createKeySchema.safeParse(body.value);
    if (!parsed.success) return adminError(400, "invalid key request", issuesOf(parsed.error));
    const { scope, label } = parsed.data;
    const minted = mintKey();
    const createdAt = new Date().toISOString();
    const added = await t.registry.addKey({ id: minted.id, namespace: ns, scope, ...(label !== undefined ? { label } : {}), createdAt, hash: await hashKey(minted.key) });
    if (!added) return adminError(409, "key id collision; try again");
    await audit(t, ns, "root", "key.create", minted.id);
    return json({ id: minted.id, key: minted.key, scope, label: label ?? null } satisfies CreatedKeyAnswer, 201);
  }
  if (method !== "DELETE") return adminError(405, `use DELETE for /admin/namespaces/{ns}/keys/{id}`);
  const revoked = await t.registry.revokeKey(ns, id);
  forgetKeys();
  if (!revoked) return adminError(404, `key "${id.slice(0, 64)}" not found`);
  await audit(t, ns, "root", "key.revoke", id);
  return json({ id, revoked: true });
}

/** A namespace key's admin request: scope checks, its namespace's runtime, the audit line for writes. */
async function callerAdmin(request: Request, rt: Runtime, caller: Caller, serve: (rt: Runtime) => Promise<Response>): Promise<Response> {
  const t = rt.tenancy!;
  const method = request.method;
  const reading = method === "GET" || method === "HEAD";
  if (caller.scope === "run") return adminError(403, "a run key may call provider routes only");
  if (caller.scope === "read" && !reading) return adminError(403, "a read key may only read (GET)");
  const pathname = new URL(request.url).pathname;
  const parts = namespacePath(pathname);
  if (parts !== undefined) {
    const own = parts[0] === caller.namespace.name;
    if (own && parts.length === 2 && parts[1] === "audit" && reading) return json(await t.registry.auditLog(caller.namespace.name));
    return adminError(404, "no such admin route");
  }
  let res: Response;
  try {
    res = await serve(scopeRuntime(rt, caller));
  } catch (e) {
    if (e instanceof QuotaError) return quotaResponse(e);
    throw e;
  }
  if (!reading && res.status < 400) {
    const { action, target } = actionOf(method, pathname);
    await audit(t, caller.namespace.name, caller.keyId, action, target);
  }
  return res;
}

/**
 * Serves `/admin/...` when the runtime has namespaces.
 * @example return tenantAdmin(request, rt, (scoped) => router.fetch(request, scoped, ctx))
 */
export async function tenantAdmin(request: Request, rt: Runtime, serve: (rt: Runtime) => Promise<Response>): Promise<Response> {
  if (!rt.vars.ADMIN_TOKEN) return adminError(503, "admin disabled");
  const values = credentialValues(request, new URLSearchParams());
  if (values.some(isNamespaceKey)) {
    const resolved = await resolveCaller(rt, values);
    if (resolved.kind !== "caller") return adminError(401, "unauthorized");
    return callerAdmin(request, rt, resolved.caller, serve);
  }
  const denied = await checkAdminAuth(request, rt);
  if (denied) return denied;
  const parts = namespacePath(new URL(request.url).pathname);
  if (parts !== undefined) return namespaceRoutes(request, rt.tenancy!, parts);
  return serve(rt);
}
