/**
 * Embeddings on Vertex AI, for Google's publisher models: `…/publishers/google/models/{m}:predict` (the text embedding
 * models — `text-embedding-005`, `gemini-embedding-001` —, what `@google/genai` with `vertexai: true` calls:
 * `{ instances: [{ content, task_type?, title? }], parameters: { outputDimensionality? } }` →
 * `{ predictions: [{ embeddings: { statistics: { truncated, token_count }, values } }], metadata: { billableCharacterCount } }`)
 * and `:embedContent` (the Gemini models it sends there: `{ content, embedContentConfig? }` → `{ embedding: { values },
 * usageMetadata }`). The same inputs, scenario matching and vectors as the Gemini API's (../gemini/embeddings.ts);
 * Imagen's `:predict` is ../gemini/imagen.ts's, Veo's is not served.
 */
import type { Reply } from "../../canonical/outcome";
import { inputsRequest } from "../../canonical/request";
import { apiError, type ApiError } from "../../http/errors";
import { headerRecord } from "../../http/headers";
import { isRecord } from "../../http/json";
import { countTokensRoute } from "../gemini/count-tokens";
import { safeDecode } from "../../http/url";
import type { ParseResult, ProviderSurface, RawBody, RenderContext, RequestTarget, SseEvent } from "../types";
import { WHOLE_BODY_LIMIT } from "../../http/byte-source";
import { FLOAT_JSON_BYTES, promptTokens, vectorFor } from "../openai/embeddings/render";
import { contentText, modelDimensions } from "../gemini/embeddings";
import { GEMINI_FAILURE_MESSAGES, geminiFailureHeaders, renderGeminiError } from "../gemini/errors";
import { renderGenerateContentStreamError } from "../gemini/render-stream";
import { checkVertexAuth, vertexLimited } from "./errors";

const PATH = /^\/(?:v1|v1beta1)\/(?:projects\/[^/]+\/locations\/[^/]+\/)?publishers\/google\/models\/([^/:]+?)(?::|%3A)(predict|embedContent)$/i;

export interface VertexEmbeddingsWire {
  method: "predict" | "embedContent";
  texts: string[];
  dimensions: number;
}

/** A Vertex embedding path's model and method; image and video models' `:predict` is not an embedding. */
function target(path: string): { model: string; method: VertexEmbeddingsWire["method"] } | undefined {
  const m = PATH.exec(path);
  if (!m) return undefined;
  const model = safeDecode(m[1]!);
  const method = m[2]!.toLowerCase() === "predict" ? "predict" : "embedContent";
  if (method === "predict" && /^(?:imagen|veo|virtual-try-on)/.test(model)) return undefined;
  return { model, method };
}

function invalid(message: string): ApiError {
  return apiError("invalid_request", message);
}

function dimensionsOf(value: unknown, model: string): number | ApiError {
  if (value === undefined || value === null) return modelDimensions(model);
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 3072
    ? value
    : invalid(`Invalid value for outputDimensionality: ${JSON.stringify(value)}; it must be between 1 and 3072.`);
}

export function parseVertexEmbeddings(body: unknown, headers: Headers, where: RequestTarget): ParseResult<VertexEmbeddingsWire> {
  const t = target(where.path);
  if (!t) return { ok: false, error: apiError("not_found", `Unknown request URL: ${where.path}.`) };
  if (!isRecord(body)) return { ok: false, error: invalid("Invalid JSON payload received. Expected an object.") };
  let texts: string[];
  let dims: number | ApiError;
  if (t.method === "predict") {
    const instances = body.instances;
    if (!Array.isArray(instances) || instances.length === 0) return { ok: false, error: invalid("instances must be a non-empty list.") };
    if (instances.length > 250) return { ok: false, error: invalid(`A request may carry at most 250 instances; this one has ${instances.length}.`) };
    texts = [];
    for (const [i, instance] of instances.entries()) {
      if (!isRecord(instance) || typeof instance.content !== "string") return { ok: false, error: invalid(`instances[${i}].content must be a string.`) };
      texts.push(instance.content);
    }
    dims = dimensionsOf(isRecord(body.parameters) ? body.parameters.outputDimensionality : undefined, t.model);
  } else {
    const text = contentText(body.content);
    if (text === undefined) return { ok: false, error: invalid("content is not specified") };
    texts = [text];
    const config = isRecord(body.embedContentConfig) ? body.embedContentConfig : body;
    dims = dimensionsOf(config.outputDimensionality, t.model);
  }
  if (typeof dims !== "number") return { ok: false, error: dims };
  const request = inputsRequest("vertex", "embeddings", t.model, texts, headerRecord(headers));
  return { ok: true, wire: { method: t.method, texts, dimensions: dims }, request };
}

/** One text's deterministic token estimate (OpenAI's embeddings surface's: ⌈characters / 4⌉, at least 1). */
const tokens = (text: string) => promptTokens([{ kind: "text", text }]);

export function renderVertexEmbeddingsJson(reply: Reply, ctx: RenderContext<VertexEmbeddingsWire>): unknown {
  const { texts, dimensions, method } = ctx.wire;
  const vector = (i: number) => vectorFor(reply, { kind: "text", text: texts[i]! }, i, dimensions);
  if (method === "embedContent") {
    const n = tokens(texts[0]!);
    return { embedding: { values: vector(0) }, usageMetadata: { promptTokenCount: n, totalTokenCount: n } };
  }
  return {
    predictions: texts.map((text, i) => ({ embeddings: { statistics: { truncated: false, token_count: tokens(text) }, values: vector(i) } })),
    metadata: { billableCharacterCount: texts.reduce((n, t) => n + t.length, 0) },
  };
}

/** A large `:predict` answer as pieces made as they are sent, byte for byte the JSON of `renderVertexEmbeddingsJson`. */
export function renderVertexEmbeddingsRaw(reply: Reply, ctx: RenderContext<VertexEmbeddingsWire>): RawBody | undefined {
  const { texts, dimensions, method } = ctx.wire;
  if (method !== "predict" || texts.length * dimensions * FLOAT_JSON_BYTES <= WHOLE_BODY_LIMIT) return undefined;
  function* pieces(): Generator<string> {
    yield '{"predictions":[';
    for (const [i, text] of texts.entries()) {
      const values = vectorFor(reply, { kind: "text", text }, i, dimensions);
      yield (i > 0 ? "," : "") + JSON.stringify({ embeddings: { statistics: { truncated: false, token_count: tokens(text) }, values } });
    }
    yield `],"metadata":${JSON.stringify({ billableCharacterCount: texts.reduce((n, t) => n + t.length, 0) })}}`;
  }
  return { body: { pieces }, contentType: "application/json" };
}

export const vertexEmbeddings: ProviderSurface<VertexEmbeddingsWire> = {
  provider: "vertex",
  endpoint: "embeddings",
  paths: [],
  matchPath: (path) => target(path) !== undefined,
  requestIdHeader: "x-request-id",
  checkHeaders: checkVertexAuth,
  parse: parseVertexEmbeddings,
  failureMessages: GEMINI_FAILURE_MESSAGES,
  renderError: renderGeminiError,
  failureHeaders: geminiFailureHeaders,
  renderLimited: (limit, _retryAfterMs, ctx) => vertexLimited("google", ctx.request.model, limit),
  renderJson: renderVertexEmbeddingsJson,
  renderRaw: renderVertexEmbeddingsRaw,
  renderEvents: (reply, ctx): SseEvent[] => [{ data: JSON.stringify(renderVertexEmbeddingsJson(reply, ctx)) }],
  renderStreamError: (failure) => renderGenerateContentStreamError(failure),
};

/**
 * Gemini's token count on Vertex AI (`…/publishers/google/models/{m}:countTokens`, `models.countTokens` with
 * `vertexai: true`): `{ contents }` → `{ totalTokens, totalBillableCharacters }`, the Gemini API's estimate.
 */
export const vertexGeminiCountTokens = countTokensRoute(
  /^\/(?:v1|v1beta1)\/(?:projects\/[^/]+\/locations\/[^/]+\/)?publishers\/google\/models\/([^/:]+?)(?::|%3A)countTokens$/i,
  checkVertexAuth,
  ({ tokens, characters }) => ({ totalTokens: tokens, totalBillableCharacters: characters }),
);
