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

/** Fixed so the listing is the same bytes every time. */
const CREATED = 1_735_689_600; // 2025-01-01T00:00:00Z

export function openAIModel(id: string) {
  return { id, object: "model", created: CREATED, owned_by: "mockllm" };
}

/** @example GET /v1/models → { object: "list", data: [{ id: "mockllm-default", object: "model", … }] } */
export const openaiModels: SideRoute = {
  paths: ["/v1/models"],
  order: 100,
  async serve(request, path, ctx) {
    if (request.method !== "GET" || (path !== "/v1/models" && !path.startsWith("/v1/models/"))) return undefined;
    const ids = await ctx.modelIds();
    const withRequestId = (res: Response) => {
      res.headers.set("x-request-id", makeRequestId(`${request.method} ${request.url}`));
      return res;
    };
    if (path === "/v1/models") return withRequestId(jsonResponse({ object: "list", data: ids.map(openAIModel) }));
    const id = safeDecode(path.slice("/v1/models/".length));
    // `modelIds` lists the default model first, so every listed id (and the default) is found.
    if (!ids.includes(id)) {
      return ctx.refuse({ code: "not_found", message: `The model \`${echoed(id)}\` does not exist or you do not have access to it.` });
    }
    return withRequestId(jsonResponse(openAIModel(id)));
  },
};
