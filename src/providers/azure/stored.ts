/**
 * Azure's stored-response routes: `GET`/`DELETE /openai/responses/{id}?api-version=…` (where `AzureOpenAI` sends
 * `responses.retrieve`/`delete`) and `/openai/v1/responses/{id}`. The same stored responses OpenAI's routes serve
 * (any response a Responses call stored, whichever route created it), behind Azure's gateway: its `api-version` and
 * auth checks in its own shape, the service's errors (a bad or unknown id) relayed in OpenAI's, Azure's headers.
 */
import { handleStoredResponse, type StoredResponsesGateway } from "../openai/responses";
import type { SideRoute } from "../types";
import { azureHeaders, azureRequestId, checkAzureGateway, renderAzureError, renderAzureServiceError } from "./errors";
import { azureStoredResponse, type AzureApi } from "./paths";

function gateway(api: AzureApi): StoredResponsesGateway {
  return {
    requestId: azureRequestId,
    check: (request, requestId) => {
      const refused = checkAzureGateway(request.headers, new URL(request.url).searchParams, api);
      return refused ? renderAzureError(refused, requestId) : undefined;
    },
    // An unknown response is the service's answer (OpenAI's shape, relayed); a wrong method is the gateway's.
    renderError: (error, requestId) => (error.code === "not_found" ? renderAzureServiceError(error, requestId) : renderAzureError(error, requestId)),
    headers: azureHeaders,
    path: (id) => (api === "v1" ? `/openai/v1/responses/${id}` : `/openai/responses/${id}`),
  };
}

export const azureStoredResponses: SideRoute = {
  knows: (path) => azureStoredResponse(path) !== undefined,
  serve(request, path, ctx) {
    const stored = azureStoredResponse(path);
    return stored === undefined ? undefined : handleStoredResponse(request, ctx.rt, stored.id, gateway(stored.api));
  },
};
