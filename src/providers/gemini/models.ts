/**
 * `GET /v1beta/models` and `GET /v1beta/models/{model}` (js-genai `models.list()` / `models.get()`): the models the
 * scenarios mention, plus the default, in Gemini's `Model` shape; `get` answers for any model id. Under `/v1/models` only for requests carrying a
 * Gemini key (`x-goog-api-key` or `?key=`), since OpenAI and Anthropic clients list models there too.
 */
import type { Runtime } from "../../runtime/types";
import { makeRequestId } from "../../http/ids";
import { safeDecode } from "../../http/url";
import { checkGeminiAuth, renderGeminiError } from "./errors";
import { jsonResponse } from "../../http/json";

const LIST = /^\/(v1beta|v1|v1alpha)\/models\/?$/;
const ONE = /^\/(v1beta|v1|v1alpha)\/models\/([^/:]+)$/;

/** A Gemini `Model` resource for `id` (an embedding model's, `…embedding…`, lists the embedding methods). */
export function geminiModel(id: string) {
  const embeds = id.includes("embedding");
  return {
    name: `models/${id}`,
    version: "001",
    displayName: id,
    description: `mockllm scripted model ${id}`,
    inputTokenLimit: embeds ? 2_048 : 1_048_576,
    outputTokenLimit: embeds ? 1 : 65_536,
    supportedGenerationMethods: embeds ? ["embedContent", "batchEmbedContents", "countTokens"] : ["generateContent", "countTokens"],
    temperature: 1,
    topP: 0.95,
    topK: 64,
    maxTemperature: 2,
    thinking: true,
  };
}

function json(body: unknown, status = 200): Response {
  const headers = { "content-type": "application/json; charset=UTF-8", "x-request-id": makeRequestId(JSON.stringify(body)) };
  return jsonResponse(body, status, headers);
}

/**
 * The response for a Gemini model-listing request, or undefined when `path` is not one.
 * @example await geminiModelsRoute(request, "/v1beta/models", rt, modelIds) // { models: [{ name: "models/mockllm-default", … }] }
 */
export async function geminiModelsRoute(request: Request, path: string, rt: Runtime, modelIds: (rt: Runtime) => Promise<string[]>): Promise<Response | undefined> {
  if (request.method !== "GET") return undefined;
  const list = LIST.exec(path);
  const one = list ? undefined : ONE.exec(path);
  const version = (list ?? one)?.[1];
  if (version === undefined) return undefined;
  const query = new URL(request.url).searchParams;
  const geminiKey = request.headers.has("x-goog-api-key") || query.has("key");
  if (version === "v1" && !geminiKey) return undefined;

  const denied = checkGeminiAuth(request.headers, { query });
  if (denied) {
    const r = renderGeminiError(denied, "");
    return json(r.body, r.status);
  }
  const ids = await modelIds(rt);
  if (list) return json({ models: ids.map(geminiModel) });
  // Any model answers, as any model answers generateContent.
  const id = safeDecode(one![2]!);
  return json(geminiModel(id));
}
