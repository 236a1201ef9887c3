/**
 * Azure OpenAI Responses: `POST /openai/responses?api-version=…` (where `AzureOpenAI` sends it: the deployment is
 * the body's `model`), `/openai/deployments/{deployment}/responses?api-version=…` and `/openai/v1/responses`.
 * OpenAI's parse, stored state and renderers, unchanged on the wire: Azure's Responses answers carry no content-filter
 * annotations in any public recording (protocols.md 10.3.4), and its `model` is the deployment name the request sent
 * (openai/openai-python#3271).
 */
import { openaiResponses } from "../openai/responses";
import type { ResponsesRequest } from "../openai/responses/wire";
import type { ProviderSurface } from "../types";
import { azureCommon } from "./common";
import { azureParse, type AzureWire } from "./wire";

type Wire = AzureWire<ResponsesRequest>;
const prepare = openaiResponses.prepare!;

export const azureResponses: ProviderSurface<Wire> = {
  ...openaiResponses,
  ...azureCommon<ResponsesRequest>("responses"),
  parse: azureParse(openaiResponses.parse, "responses"),
  // Resolving `previous_response_id` rebuilds the canonical request: keep it Azure's (the wire keeps its Azure target).
  prepare: async (wire, request, rt) => {
    const prepared = await prepare(wire, request, rt);
    if (!prepared.ok) return prepared;
    return { ...prepared, request: { ...prepared.request, provider: request.provider, model: request.model } };
  },
};
