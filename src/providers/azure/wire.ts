/**
 * What an Azure surface adds to the OpenAI surface it wraps: the route's deployment and `api-version`, kept on the
 * parsed wire (under a symbol, so no client field can clash) for the renderers, and the canonical request as Azure
 * serves it: `provider: "azure"`, and `model` the deployment on a deployment route (the path's deployment is what
 * answers there; Azure ignores the body's `model`), else the body's `model` (which names the deployment on
 * `/openai/responses` and the v1 routes).
 */
import type { ProviderSurface, RenderContext } from "../types";
import { azureRoute, type AzureOperation } from "./paths";

export const AZURE = Symbol("azure");

export interface AzureTarget {
  operation: AzureOperation;
  /** The request's `api-version` (`v1` on a v1 route that sent none). */
  apiVersion: string;
  /** The deployment that answers: the path's, else the body's `model`. */
  deployment: string;
}

export type AzureWire<W> = W & { [AZURE]?: AzureTarget };

/** The Azure target of a rendered request (a default when the wire came from elsewhere, as in unit tests). */
export function azureTarget<W>(ctx: RenderContext<AzureWire<W>>, operation: AzureOperation): AzureTarget {
  return ctx.wire[AZURE] ?? { operation, apiVersion: "v1", deployment: ctx.request.model };
}

/** `body` with the path's deployment as `model` when it sends none (Azure's deployment routes do not need one). */
function withModel(body: unknown, deployment: string | undefined): unknown {
  if (deployment === undefined || typeof body !== "object" || body === null || Array.isArray(body) || "model" in body) return body;
  return { ...body, model: deployment };
}

/**
 * The OpenAI surface's parse, as Azure serves it.
 * @example azureParse(openaiChat.parse, "chat/completions")(body, headers, { path: "/openai/deployments/prod/chat/completions", query })
 */
export function azureParse<W extends object>(parse: ProviderSurface<W>["parse"], operation: AzureOperation): ProviderSurface<AzureWire<W>>["parse"] {
  return (body, headers, target) => {
    const route = azureRoute(target.path);
    const deployment = route?.deployment;
    const parsed = parse(withModel(body, deployment), headers, target);
    if (!parsed.ok) return parsed;
    const model = deployment ?? parsed.request.model;
    const azure: AzureTarget = { operation: route?.operation ?? operation, apiVersion: target.query.get("api-version") ?? "v1", deployment: model };
    return { ok: true, wire: { ...parsed.wire, [AZURE]: azure }, request: { ...parsed.request, provider: "azure", model } };
  };
}
