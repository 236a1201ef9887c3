/**
 * What every Azure surface shares: the gateway (auth, `api-version`, error shape, request ids, headers, 429) and the
 * prompt block's 400. Each surface adds the OpenAI parse and renderers it wraps.
 */
import { openAIRateLimitHeaders } from "../openai/rate-limits";
import type { Failure } from "../../scenario/schema";
import type { ProviderSurface, RenderContext } from "../types";
import { renderAzurePromptBlock } from "./content-filter";
import { DEPLOYMENT_NAME, azureFailureHeaders, azureHeaders, azureRequestId, checkAzureRequest, rateLimitMessage, renderAzureError } from "./errors";
import { isAzurePath, type AzureOperation } from "./paths";
import { azureTarget, type AzureWire } from "./wire";

type Common =
  | "provider"
  | "paths"
  | "matchPath"
  | "requestIdHeader"
  | "requestId"
  | "checkHeaders"
  | "renderError"
  | "renderPromptBlock"
  | "failureHeaders"
  | "requestFailureMessage"
  | "responseHeaders"
  | "rateLimitHeaders";

/** The rate-limit headers a successful answer carries (a deployment with requests and tokens to spare). */
const REMAINING = { "x-ratelimit-remaining-requests": "99", "x-ratelimit-remaining-tokens": "99000" } as const;

/** `operations`: the routes the surface serves (images: generations and edits); the first is the default. */
export function azureCommon<W>(...operations: [AzureOperation, ...AzureOperation[]]): Pick<ProviderSurface<AzureWire<W>>, Common> {
  const operation = operations[0];
  return {
    provider: "azure",
    paths: [],
    matchPath: isAzurePath(operations),
    requestIdHeader: "x-request-id",
    requestId: azureRequestId,
    checkHeaders: checkAzureRequest,
    renderError: renderAzureError,
    renderPromptBlock: renderAzurePromptBlock,
    failureHeaders: azureFailureHeaders,
    rateLimitHeaders: openAIRateLimitHeaders,
    requestFailureMessage: (failure: Failure, ctx: RenderContext<AzureWire<W>>) => {
      if (failure.kind !== "rate_limit") return undefined;
      const target = azureTarget(ctx, operation);
      return rateLimitMessage(target.operation, target.apiVersion, Math.ceil((failure.retryAfterMs ?? 0) / 1000));
    },
    responseHeaders: (ctx: RenderContext<AzureWire<W>>) => {
      const deployment = azureTarget(ctx, operation).deployment;
      // A v1 route's deployment is the body's `model`, any string: only a name a header can carry is echoed.
      const headers: Record<string, string> = { ...azureHeaders(ctx.requestId), ...REMAINING };
      if (DEPLOYMENT_NAME.test(deployment)) headers["x-ms-deployment-name"] = deployment;
      return headers;
    },
  };
}
