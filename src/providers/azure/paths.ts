/**
 * Azure OpenAI's routes (contract section 10): which operation a path asks for, the deployment it names, and whether
 * it is a classic route (dated `api-version` required) or a v1 route (no dated version).
 * - `/openai/deployments/{deployment}/{operation}` (classic, deployment in the path): chat, embeddings, responses,
 *   legacy completions, images and audio — the operations `AzureOpenAI` puts a deployment in front of (its
 *   `_deployments_endpoints`);
 * - `/openai/responses` (classic, where `AzureOpenAI` sends Responses calls: the deployment is the body's `model`);
 * - `/openai/v1/{operation}` (v1, the deployment is the body's `model`);
 * - stored responses: `/openai/responses/{id}` (classic) and `/openai/v1/responses/{id}` (v1).
 */
import { safeDecode } from "../../http/url";

export type AzureOperation = "chat/completions" | "completions" | "responses" | "embeddings" | "images/generations" | "images/edits" | "audio/speech" | "audio/transcriptions" | "audio/translations";

export type AzureApi = "classic" | "v1";

export interface AzureRoute {
  operation: AzureOperation;
  /** `classic`: the dated-`api-version` API; `v1`: the versionless one. */
  api: AzureApi;
  /** The deployment named in the path (deployment routes only). */
  deployment?: string;
}

const OPERATIONS: readonly AzureOperation[] = [
  "chat/completions",
  "completions",
  "responses",
  "embeddings",
  "images/generations",
  "images/edits",
  "audio/speech",
  "audio/transcriptions",
  "audio/translations",
];
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

/** Whether `path` is an Azure route for one of `operations` (a surface's `matchPath`). */
export function isAzurePath(operations: readonly AzureOperation[]): (path: string) => boolean {
  return (path) => {
    const operation = azureRoute(path)?.operation;
    return operation !== undefined && operations.includes(operation);
  };
}

const STORED = /^\/openai\/(v1\/)?responses\/([^/]+)$/;
/** `…/responses/compact` and `…/responses/input_tokens` are operations, not response ids. */
const NOT_IDS: ReadonlySet<string> = new Set(["compact", "input_tokens"]);

/**
 * The stored response `path` names, if it is one: `GET`/`DELETE /openai/responses/{id}` or `/openai/v1/responses/{id}`.
 * @example azureStoredResponse("/openai/v1/responses/resp_1") // { id: "resp_1", api: "v1" }
 */
export function azureStoredResponse(path: string): { id: string; api: AzureApi } | undefined {
  const m = STORED.exec(path);
  if (!m || NOT_IDS.has(m[2]!)) return undefined;
  return { id: safeDecode(m[2]!), api: m[1] ? "v1" : "classic" };
}
