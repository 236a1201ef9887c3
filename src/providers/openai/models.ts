/**
 * `GET /v1/models` and `GET /v1/models/{id}` in OpenAI's shape: the models the scenarios mention, plus the default,
 * then the caller's fine-tuned models; `DELETE /v1/models/{id}` of one of those.
 * The listing every OpenAI-compatible client reads, so it answers last, after the providers whose clients tell
 * themselves apart on the same path (Gemini's key, Anthropic's headers).
 */
import { makeRequestId } from "../../http/ids";
import { jsonResponse } from "../../http/json";
import { safeDecode } from "../../http/url";
import type { Runtime } from "../../runtime/types";
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
 * `DELETE /v1/models/{model}` of a model the caller does not own: only a fine-tuned model its owner made can be
 * deleted — another fine-tuned id (`ft:…`) is the real API's 404 `model_not_found`; any other model is one nobody may
 * delete, the real API's 403 for an operation the key may not do.
 */
function deleteRefusal(id: string): ApiError {
  if (id.startsWith("ft:") || !acceptedModelId(id)) return modelNotFound(id);
  return apiError("permission", "You have insufficient permissions for this operation.");
}

/** The models the caller made (its fine-tuned ones): listed after the scenarios', and deletable by it. */
export interface OwnModels {
  list(rt: Runtime): Promise<{ id: string; created: number }[]>;
  /** Whether `id` was one of them (and is now deleted). */
  delete(rt: Runtime, id: string): Promise<boolean>;
}

const ownModel = (m: { id: string; created: number }) => ({ id: m.id, object: "model", created: m.created, owned_by: "org-mockllm" });

/**
 * The OpenAI-shaped model routes, with the caller's own models (`own`) beside the scenarios'.
 * @example GET /v1/models → { object: "list", data: [{ id: "mockllm-default", object: "model", … }, { id: "ft:gpt-4o-mini:personal::AbC12345", … }] }
 */
export function openaiModelsRoute(own: OwnModels): SideRoute {
  return {
    paths: ["/v1/models"],
    order: 100,
    async serve(request, path, ctx) {
      if (path !== "/v1/models" && !path.startsWith("/v1/models/")) return undefined;
      const withRequestId = (res: Response) => {
        res.headers.set("x-request-id", makeRequestId(`${request.method} ${request.url}`));
        return res;
      };
      const id = path === "/v1/models" ? undefined : safeDecode(path.slice("/v1/models/".length));
      if (request.method === "DELETE" && id !== undefined) {
        if (id.startsWith("ft:") && (await own.delete(ctx.rt, id))) return withRequestId(jsonResponse({ id, object: "model", deleted: true }));
        return ctx.refuse(deleteRefusal(id));
      }
      if (request.method !== "GET") return undefined;
      if (id === undefined) {
        const named = await ctx.modelIds();
        const made = (await own.list(ctx.rt)).filter((m) => !named.includes(m.id));
        return withRequestId(jsonResponse({ object: "list", data: [...named.map(openAIModel), ...made.map(ownModel)] }));
      }
      const mine = id.startsWith("ft:") ? (await own.list(ctx.rt)).find((m) => m.id === id) : undefined;
      if (mine !== undefined) return withRequestId(jsonResponse(ownModel(mine)));
      // Every model the surfaces answer (src/canonical/model-id.ts) and every model a scenario names; the rest as the
      // real lookup's 404.
      if (!acceptedModelId(id) && !(await ctx.modelIds()).includes(id)) return ctx.refuse(modelNotFound(id));
      return withRequestId(jsonResponse(openAIModel(id)));
    },
  };
}
