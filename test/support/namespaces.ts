/** Namespaces and their keys made through the admin API, as a test's setup (runs in workerd and on Node). */
import { expect } from "vitest";

/** A call to the admin API with the root credentials: `path` is under `/admin` (`/namespaces`, `/namespaces/x/keys`). */
export type RootAdmin = (path: string, init?: RequestInit) => Promise<Response>;

export interface MintedKey {
  id: string;
  key: string;
  scope: string;
  label: string | null;
}

/** Creates namespace `name` (with `quotas` when given); expects 201. */
export async function createNamespace(admin: RootAdmin, name: string, quotas?: Record<string, unknown>): Promise<void> {
  const res = await admin("/namespaces", { method: "POST", body: JSON.stringify({ name, ...(quotas ? { quotas } : {}) }) });
  expect(res.status).toBe(201);
}

/** Mints a key of `scope` in namespace `ns`; expects 201. */
export async function mintKey(admin: RootAdmin, ns: string, scope: string, label?: string): Promise<MintedKey> {
  const res = await admin(`/namespaces/${ns}/keys`, { method: "POST", body: JSON.stringify({ scope, ...(label ? { label } : {}) }) });
  expect(res.status).toBe(201);
  return (await res.json()) as MintedKey;
}

/** Creates namespace `ns` and mints one key of `scope` in it: the key's secret. */
export async function namespaceKey(admin: RootAdmin, ns: string, scope = "admin", quotas?: Record<string, unknown>): Promise<string> {
  await createNamespace(admin, ns, quotas);
  return (await mintKey(admin, ns, scope)).key;
}

/** A `RootAdmin` over a plain fetch of the server's paths with the root admin token. */
export function rootAdmin(send: (path: string, init?: RequestInit) => Promise<Response>, token: string): RootAdmin {
  return (path, init = {}) => send(`/admin${path}`, { ...init, headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers } });
}
