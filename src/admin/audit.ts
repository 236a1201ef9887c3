/**
 * The namespace audit log's lines (contract section 9): who wrote what, through the admin API.
 */
import { safeDecode } from "../http/url";
import type { Tenancy } from "../tenancy/types";

/** The audit action for an admin write by path: `scenario.put`, `session.reset`, … */
export function actionOf(method: string, path: string): { action: string; target: string } {
  const parts = path
    .split("/")
    .filter((s) => s !== "")
    .slice(1)
    .map(safeDecode);
  const kind = parts[0] === "scenarios" ? "scenario" : parts[0] === "sessions" ? "session" : (parts[0] ?? "admin");
  const verb = parts.length > 3 ? parts[parts.length - 1]! : method === "PUT" ? "put" : method === "DELETE" ? "delete" : method === "POST" && parts.length === 1 ? "bulk" : method.toLowerCase();
  const target = kind === "session" ? parts.slice(1, 3).join("/") : (parts[1] ?? "*");
  return { action: `${kind}.${verb}`, target };
}

/** Appends one line to namespace `ns`'s log, stamped now. */
export async function audit(t: Tenancy, ns: string, keyId: string, action: string, target: string): Promise<void> {
  await t.registry.audit(ns, { at: new Date().toISOString(), keyId, action, target });
}
