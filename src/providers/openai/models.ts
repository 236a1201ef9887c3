/**
 * `GET /v1/models` and `GET /v1/models/{id}` in OpenAI's shape: the models the scenarios mention, plus the default.
 * The listing every OpenAI-compatible client reads, so it answers last, after the providers whose clients tell
 * themselves apart on the same path (Gemini's key, Anthropic's headers).
 */
import { makeRequestId } from "../../http/ids";
import { jsonResponse } from "../../http/json";
import { safeDecode } from "../../http/url";
import type { SideRoute } from "../types";
import { echoed } from "../../util/text";
import { acceptedModelId } from "../../canonical/model-id";
import { apiError, type ApiError } from "../../http/errors";

/** Fixed so the listing is the same bytes every time. */
const CREATED = 1_735_689_600; // 2025-01-01T00:00:00Z

export function openAIModel(id: string) {
  return { id, object: "model", created: CREATED, owned_by: "mockllm" };
}

/** The real lookup's 404 for a model it does not know: `The model 'x' does not exist`, code `model_not_found`. */
function modelNotFound(id: string): ApiError {
  return apiError("not_found", `The model '${echoed(id)}' does not exist`, { param: "model", providerCode: "model_not_found" });
}

/**
 * `DELETE /v1/models/{model}`: only a fine-tuned model its owner made can be deleted, and mockllm holds none — a
 * fine-tuned id (`ft:…`) is the real API's 404 `model_not_found`; any other model is one nobody may delete, the
 * real API's 403 for an operation the key may not do.
 */
function deleteRefusal(id: string): ApiError {
  if (id.startsWith("ft:") || !acceptedModelId(id)) return modelNotFound(id);
  return apiError("permission", "You have insufficient permissions for this operation.");
}

/** @example GET /v1/models → { object: "list", data: [{ id: "mockllm-default", object: "model", … }] } */
export const openaiModels: SideRoute = {
  paths: ["/v1/models"],
  order: 100,
  async serve(request, path, ctx) {
    if (path !== "/v1/models" && !path.startsWith("/v1/models/")) return undefined;
    const withRequestId = (res: Response) => {
      res.headers.set("x-request-id", makeRequestId(`${request.method} ${request.url}`));
      return res;
    };
    if (request.method === "DELETE" && path !== "/v1/models") return ctx.refuse(deleteRefusal(safeDecode(path.slice("/v1/models/".length))));
    if (request.method !== "GET") return undefined;
    if (path === "/v1/models") return withRequestId(jsonResponse({ object: "list", data: (await ctx.modelIds()).map(openAIModel) }));
    const id = safeDecode(path.slice("/v1/models/".length));
    // Every model the surfaces answer (src/canonical/model-id.ts) and every model a scenario names; the rest as the
    // real lookup's 404.
    if (!acceptedModelId(id) && !(await ctx.modelIds()).includes(id)) return ctx.refuse(modelNotFound(id));
    return withRequestId(jsonResponse(openAIModel(id)));
  },
};
