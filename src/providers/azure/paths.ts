/**
 * Azure OpenAI's routes (contract section 10): which operation a path asks for, the deployment it names, and whether
 * it is a classic route (dated `api-version` required) or a v1 route (no dated version).
 * - `/openai/deployments/{deployment}/{chat/completions|responses|embeddings}` (classic, deployment in the path)
 * - `/openai/responses` (classic, where `AzureOpenAI` sends Responses calls: the deployment is the body's `model`)
 * - `/openai/v1/{chat/completions|responses|embeddings}` (v1, the deployment is the body's `model`)
 */
import { safeDecode } from "../../http/url";

export type AzureOperation = "chat/completions" | "responses" | "embeddings";

export interface AzureRoute {
  operation: AzureOperation;
  /** `classic`: the dated-`api-version` API; `v1`: the versionless one. */
  api: "classic" | "v1";
  /** The deployment named in the path (deployment routes only). */
  deployment?: string;
}

const OPERATIONS: readonly AzureOperation[] = ["chat/completions", "responses", "embeddings"];
const DEPLOYMENTS = "/openai/deployments/";

function operationOf(rest: string): AzureOperation | undefined {
  return OPERATIONS.find((op) => rest === op);
}

/**
 * The Azure route `path` (below any `/s/…` prefix) is, if any.
 * @example azureRoute("/openai/deployments/gpt-4o-prod/chat/completions") // { operation: "chat/completions", api: "classic", deployment: "gpt-4o-prod" }
 */
export function azureRoute(path: string): AzureRoute | undefined {
  if (!path.startsWith("/openai/")) return undefined;
  if (path === "/openai/responses") return { operation: "responses", api: "classic" };
  if (path.startsWith("/openai/v1/")) {
    const operation = operationOf(path.slice("/openai/v1/".length));
    return operation ? { operation, api: "v1" } : undefined;
  }
  if (!path.startsWith(DEPLOYMENTS)) return undefined;
  const rest = path.slice(DEPLOYMENTS.length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return undefined;
  const operation = operationOf(rest.slice(slash + 1));
  return operation ? { operation, api: "classic", deployment: safeDecode(rest.slice(0, slash)) } : undefined;
}

/** Whether `path` is an Azure route for `operation` (a surface's `matchPath`). */
export function isAzurePath(operation: AzureOperation): (path: string) => boolean {
  return (path) => azureRoute(path)?.operation === operation;
}
