/**
 * The 404 for a scenario not found, on a server with namespaces, to a request without a namespace key: a
 * namespace's scenarios are selected by its key, so the answer says so — without naming any namespace or scenario.
 */
import type { ApiError } from "../http/errors";
import type { Runtime } from "../runtime/types";

export const NAMESPACE_KEY_HINT = "; this server has namespaces: a namespace's scenarios are selected by one of its keys (mk_…) sent as the API key";

/**
 * `error` with the namespace hint when it is a scenario not found, the request carries no namespace key and at least
 * one namespace exists; `error` itself otherwise. The registry is read only on that 404.
 * @example await withNamespaceHint(rt, apiError("not_found", 'mockllm: scenario "x" not found'))
 */
export async function withNamespaceHint(rt: Runtime, error: ApiError): Promise<ApiError> {
  if (error.code !== "not_found" || !error.message.startsWith("mockllm: scenario ") || rt.caller !== undefined || !rt.tenancy) return error;
  const namespaces = await rt.tenancy.registry.listNamespaces();
  return namespaces.length > 0 ? { ...error, message: `${error.message}${NAMESPACE_KEY_HINT}` } : error;
}
