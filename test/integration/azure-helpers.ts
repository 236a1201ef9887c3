/**
 * What the Azure integration tests (azure.test.ts, azure-media.test.ts) share: the key headers, a deployment route
 * for an api-version, a POST through the runtime under test, and the shapes of Azure's ids and safe annotations.
 */
import { call } from "./helpers";

/** Azure's own key header; `AZURE_JSON` adds the JSON content type. */
export const AZURE_KEY = { "api-key": "azure-key" };
export const AZURE_JSON = { ...AZURE_KEY, "content-type": "application/json" };

/** A v4 UUID, as Azure's `x-request-id` and `apim-request-id` are. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/;

/** A content-filter category that found nothing. */
export const SAFE = { filtered: false, severity: "safe" };

/**
 * A deployment route builder whose api-version defaults to `version` (`null` leaves the query out).
 * @example deploymentRoute("2024-10-21")("prod-4o") // "/openai/deployments/prod-4o/chat/completions?api-version=2024-10-21"
 */
export function deploymentRoute(version: string): (name: string, op?: string, v?: string | null) => string {
  return (name, op = "chat/completions", v = version) => `/openai/deployments/${name}/${op}${v === null ? "" : `?api-version=${v}`}`;
}

/** POST `body` (JSON-encoded unless already a string) with Azure's key. */
export function post(path: string, body: unknown, headers: Record<string, string> = AZURE_JSON): Promise<Response> {
  return call(path, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}
