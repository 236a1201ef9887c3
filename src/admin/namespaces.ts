/**
 * Admin routes over namespaces and their keys (contract section 9), the root token's only: create, list, read and
 * delete a namespace; list, mint and revoke its keys; read its audit log. A namespace key reaches one of them, its own
 * namespace's audit log; every other `/admin/namespaces…` path answers it 404, as it does without namespaces.
 * The registry, keys and quotas are src/tenancy's; these handlers check the input and answer JSON.
 */
import type { IRequest } from "itty-router";
import { z } from "zod";
import type { Runtime } from "../runtime/types";
import { NAME_PATTERN, NAMES_MATCH } from "../scenario/schema";
import { LimitsSchema } from "../scenario/limits-schema";
import { generation, hashKey, mintKey, SCOPES } from "../tenancy/keys";
import { forgetKeys } from "../tenancy/resolve";
import { lazily } from "../util/memo";
import type { NamespaceRecord, Tenancy } from "../tenancy/types";
import { namespaceExpired } from "../session/caller";
import type { AdminAnswers, CreatedKeyAnswer } from "./answers";
import { audit } from "./audit";
import { adminError, json, param, readBody } from "./http";

/** Longest TTL a namespace may be created with: a year. */
const MAX_TTL_SECONDS = 366 * 24 * 3600;

/** The admin bodies' schemas, built on the first namespace or key created (util/memo.ts `lazily`). */
const bodies = lazily(() => {
  const quotas = z.strictObject({
    sessions: z.int().min(0).optional(),
    requestsPerMinute: z.int().min(0).optional(),
    scenarioBytes: z.int().min(0).optional(),
    journalBytes: z.int().min(0).optional(),
    files: z.int().min(0).optional(),
    fileBytes: z.int().min(0).optional(),
  });
  const createNamespace = z.strictObject({
    name: z.string().regex(NAME_PATTERN, NAMES_MATCH),
    quotas: quotas.optional(),
    ttlSeconds: z.int().min(1).max(MAX_TTL_SECONDS).optional(),
    /** Rate limits over all its sessions, as a provider's (tenancy/limits.ts). */
    limits: LimitsSchema.optional(),
  });
  const createKey = z.strictObject({
    scope: z.enum(SCOPES),
    label: z.string().max(200).optional(),
  });
  return { createNamespace, createKey };
});

function issuesOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({ path: `$${i.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}`, message: i.message }));
}

/** The registry side of a runtime the gate below let through (root, with namespaces). */
function tenancy(rt: Runtime): Tenancy {
  if (!rt.tenancy) throw new Error("namespace routes without namespaces (namespaceGate lets none through)");
  return rt.tenancy;
}

/** Middleware for `GET /admin/namespaces/{ns}/audit`: a namespace key reads its own namespace's log here. */
export async function ownAuditRoute(req: IRequest, rt: Runtime): Promise<Response | undefined> {
  const caller = rt.caller;
  if (caller === undefined || (req.method !== "GET" && req.method !== "HEAD")) return undefined;
  if (param(req, "ns") !== caller.namespace.name) return undefined;
  return json(await tenancy(rt).registry.auditLog(caller.namespace.name));
}

/** Middleware for every `/admin/namespaces…` route: root with namespaces passes; anyone else gets 404. */
export function namespaceGate(_req: IRequest, rt: Runtime): Response | undefined {
  return rt.caller === undefined && rt.tenancy ? undefined : adminError(404, "no such admin route");
}

/** Middleware for `/admin/namespaces/{ns}…`: 404 unless the namespace exists. */
export async function knownNamespace(req: IRequest, rt: Runtime): Promise<Response | undefined> {
  const ns = param(req, "ns");
  const record = NAME_PATTERN.test(ns) ? await tenancy(rt).registry.getNamespace(ns) : null;
  if (record && namespaceExpired(record, Date.now())) {
    await dropExpired(tenancy(rt), record);
    return adminError(404, `namespace "${ns.slice(0, 64)}" expired at ${record.expiresAt} and was deleted`);
  }
  return record ? undefined : adminError(404, `namespace "${ns.slice(0, 64)}" not found`);
}

/** A route's answer for the other methods. */
export const useMethods = (methods: string, path: string) => () => adminError(405, `use ${methods} for /admin/namespaces${path}`);

/**
 * Removes a namespace whose TTL ran out (its keys were refused from `expiresAt` on): as `DELETE` does. Expiry is lazy —
 * checked when a key is used, and swept here whenever namespaces are listed, read or a name is created again.
 */
async function dropExpired(t: Tenancy, record: NamespaceRecord): Promise<void> {
  const removed = await t.registry.deleteNamespace(record.name);
  forgetKeys();
  if (removed) await t.dropSpace(removed.space);
}

/** `GET /admin/namespaces`: the live ones (expired ones are removed on the way). */
export async function listNamespacesRoute(_req: IRequest, rt: Runtime): Promise<Response> {
  const t = tenancy(rt);
  const now = Date.now();
  const live: NamespaceRecord[] = [];
  for (const record of await t.registry.listNamespaces()) {
    if (namespaceExpired(record, now)) await dropExpired(t, record);
    else live.push(record);
  }
  return json(live satisfies AdminAnswers["GET /admin/namespaces"]);
}

/** `POST /admin/namespaces` `{ name, quotas?, ttlSeconds?, limits? }`. */
export async function createNamespaceRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const t = tenancy(rt);
  const body = await readBody(req);
  if (!body.ok) return body.response;
  const parsed = bodies().createNamespace.safeParse(body.value);
  if (!parsed.success) return adminError(400, "invalid namespace", { issues: issuesOf(parsed.error) });
  const { name, quotas = {}, ttlSeconds, limits } = parsed.data;
  if (name === "default") return adminError(409, `namespace "default" is the implicit one; choose another name`);
  const existing = await t.registry.getNamespace(name);
  if (existing && namespaceExpired(existing, Date.now())) await dropExpired(t, existing);
  const expiresAt = ttlSeconds !== undefined ? new Date(Date.now() + ttlSeconds * 1000).toISOString() : undefined;
  const created = await t.registry.createNamespace(name, quotas, `${name}.${generation()}`, expiresAt, limits);
  if (!created) return adminError(409, `namespace "${name}" already exists`);
  await audit(t, name, "root", "namespace.create", name);
  return json({ name, quotas, ...(expiresAt !== undefined ? { expiresAt } : {}), ...(limits !== undefined ? { limits } : {}) } satisfies AdminAnswers["POST /admin/namespaces"], 201);
}

/** `GET /admin/namespaces/{ns}`. */
export async function getNamespaceRoute(req: IRequest, rt: Runtime): Promise<Response> {
  return json(await tenancy(rt).registry.getNamespace(param(req, "ns")));
}

/** `DELETE /admin/namespaces/{ns}`: its keys stop working, its sessions and scenarios go. */
export async function deleteNamespaceRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const t = tenancy(rt);
  const ns = param(req, "ns");
  const removed = await t.registry.deleteNamespace(ns);
  forgetKeys();
  if (removed) await t.dropSpace(removed.space);
  return json({ name: ns, deleted: true });
}

/** `GET /admin/namespaces/{ns}/audit`. */
export async function auditRoute(req: IRequest, rt: Runtime): Promise<Response> {
  return json((await tenancy(rt).registry.auditLog(param(req, "ns"))) satisfies AdminAnswers["GET /admin/namespaces/{ns}/audit"]);
}

/** `GET /admin/namespaces/{ns}/keys`. */
export async function listKeysRoute(req: IRequest, rt: Runtime): Promise<Response> {
  return json((await tenancy(rt).registry.listKeys(param(req, "ns"))) satisfies AdminAnswers["GET /admin/namespaces/{ns}/keys"]);
}

/** `POST /admin/namespaces/{ns}/keys` `{ scope, label? }`: the key, shown this once. */
export async function createKeyRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const t = tenancy(rt);
  const ns = param(req, "ns");
  const body = await readBody(req);
  if (!body.ok) return body.response;
  const parsed = bodies().createKey.safeParse(body.value);
  if (!parsed.success) return adminError(400, "invalid key request", { issues: issuesOf(parsed.error) });
  const { scope, label } = parsed.data;
  const minted = mintKey();
  const createdAt = new Date().toISOString();
  const added = await t.registry.addKey({ id: minted.id, namespace: ns, scope, ...(label !== undefined ? { label } : {}), createdAt, hash: await hashKey(minted.key) });
  if (!added) return adminError(409, "key id collision; try again");
  await audit(t, ns, "root", "key.create", minted.id);
  return json({ id: minted.id, key: minted.key, scope, label: label ?? null } satisfies CreatedKeyAnswer, 201);
}

/** `DELETE /admin/namespaces/{ns}/keys/{id}`. */
export async function revokeKeyRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const t = tenancy(rt);
  const ns = param(req, "ns");
  const id = param(req, "id");
  const revoked = await t.registry.revokeKey(ns, id);
  forgetKeys();
  if (!revoked) return adminError(404, `key "${id.slice(0, 64)}" not found`);
  await audit(t, ns, "root", "key.revoke", id);
  return json({ id, revoked: true });
}
