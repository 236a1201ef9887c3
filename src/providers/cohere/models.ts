/**
 * Cohere's model listing for its own clients: `GET /v1/models` (`co.models.list()`: `{ models, next_page_token? }`)
 * and `GET /v1/models/{model}` (`co.models.get`), in Cohere's `GetModelResponse` shape. The path is OpenAI's too, so
 * only requests from Cohere's SDKs (`X-Fern-SDK-Name: cohere-ai` in TypeScript, `cohere` in Python) are answered
 * here; every other one goes on to the other listings. The models are the ones the scenarios mention and the
 * default, as on the other surfaces; `get` answers for any name.
 */
import { apiError } from "../../http/errors";
import { header } from "../../http/headers";
import { jsonResponse } from "../../http/json";
import { safeDecode } from "../../http/url";
import type { SideRoute } from "../types";
import { checkCohereAuth, cohereTraceId, renderCohereError } from "./errors";

const MODELS = "/v1/models";
/** Most models one page lists (Cohere's `page_size` maximum), and the default. */
const MAX_PAGE = 1000;
const DEFAULT_PAGE = 20;

/** Whether a request comes from one of Cohere's SDKs. */
function fromCohereSdk(request: Request): boolean {
  const sdk = header(request.headers, "x-fern-sdk-name");
  return sdk === "cohere-ai" || sdk === "cohere";
}

/** What a model of this name is for, by its family: embed, rerank, else chat. */
function endpointsOf(name: string): string[] {
  if (/embed/i.test(name)) return ["embed"];
  if (/rerank/i.test(name)) return ["rerank"];
  return ["chat"];
}

/**
 * A model as Cohere describes it.
 * @example cohereModel("command-a-03-2025").endpoints // ["chat"]
 */
export function cohereModel(name: string) {
  const endpoints = endpointsOf(name);
  const chat = endpoints[0] === "chat";
  return {
    name,
    endpoints,
    finetuned: false,
    context_length: chat ? (/command-a/i.test(name) ? 256000 : 128000) : endpoints[0] === "embed" ? 512 : 4096,
    tokenizer_url: `https://storage.googleapis.com/cohere-public/tokenizers/${name}.json`,
    default_endpoints: [],
    features: chat ? ["json_mode", "json_schema", "safety_modes", "strict_tools", "tool_results", "tools"] : [],
  };
}

function respond(body: unknown, seed: string, status = 200): Response {
  return jsonResponse(body, status, { "x-debug-trace-id": cohereTraceId(seed) });
}

function refuse(error: Parameters<typeof renderCohereError>[0], seed: string): Response {
  const r = renderCohereError(error, "");
  return respond(r.body, seed, r.status);
}

/** `GET /v1/models?page_size=&page_token=&endpoint=`: the models, `endpoint` filtering them, a page at a time. */
function list(url: URL, ids: string[]): Response {
  const q = url.searchParams;
  const size = q.has("page_size") ? Number(q.get("page_size")) : DEFAULT_PAGE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) return refuse(apiError("invalid_request", `invalid request: page_size must be between 1 and ${MAX_PAGE}`), url.pathname);
  const start = q.has("page_token") ? Number(q.get("page_token")) : 0;
  if (!Number.isInteger(start) || start < 0) return refuse(apiError("invalid_request", "invalid request: page_token is invalid"), url.pathname);
  const endpoint = q.get("endpoint");
  const models = ids.map(cohereModel).filter((m) => endpoint === null || m.endpoints.includes(endpoint));
  const page = models.slice(start, start + size);
  const next = start + size < models.length ? { next_page_token: String(start + size) } : {};
  return respond({ models: page, ...next }, url.pathname);
}

export const cohereModelsRoute: SideRoute = {
  // Before OpenAI's listing (which takes every other request), as Anthropic's and Gemini's are.
  order: 5,
  async serve(request, path, ctx) {
    if (request.method !== "GET" || !fromCohereSdk(request) || !(path === MODELS || path.startsWith(`${MODELS}/`))) return undefined;
    const auth = checkCohereAuth(request.headers);
    if (auth) return refuse(auth, path);
    const url = new URL(request.url);
    if (path === MODELS) return list(url, await ctx.modelIds());
    const name = safeDecode(path.slice(MODELS.length + 1));
    if (name === "" || name.includes("/")) return refuse(apiError("not_found", `model '${name}' not found`), path);
    return respond(cohereModel(name), path);
  },
};
