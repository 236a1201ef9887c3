/**
 * Gemini embeddings: `POST /{version}/models/{model}:embedContent` (`{ content, taskType?, title?,
 * outputDimensionality? }` → `{ embedding: { values } }`) and `:batchEmbedContents` (`{ requests: [ … ] }` →
 * `{ embeddings: [ { values } ] }`, at most 100 requests), what `@google/genai`'s `models.embedContent` (always the batch
 * method) and `@ai-sdk/google`'s embedding model call. Each content is one input (its text parts joined with "\n"), a
 * user message the scenario can match; the vectors are the step's `respond.embeddings` or the deterministic hash
 * vectors OpenAI's surface sends (openai/embeddings/render.ts), as many values as the model gives (3,072 for
 * `gemini-embedding-001`, 768 for `text-embedding-004` and `embedding-001`) or `outputDimensionality`.
 */
import type { Reply } from "../../canonical/outcome";
import { inputsRequest } from "../../canonical/request";
import { apiError, type ApiError } from "../../http/errors";
import { headerRecord } from "../../http/headers";
import { isRecord } from "../../http/json";
import { WHOLE_BODY_LIMIT } from "../../http/byte-source";
import { safeDecode } from "../../http/url";
import type { Failure } from "../../scenario/schema";
import type { ParseResult, ProviderSurface, RawBody, RenderContext, SseEvent, RequestTarget } from "../types";
import { FLOAT_JSON_BYTES, vectorFor } from "../openai/embeddings/render";
import { checkGeminiAuth, GEMINI_FAILURE_MESSAGES, geminiFailureHeaders, renderGeminiError, renderGeminiLimited } from "./errors";
import { renderGenerateContentStreamError } from "./render-stream";
import { camelizeKeys } from "./wire";

const PATH = /^\/(?:v1beta|v1alpha|v1)\/models\/([^/:]+)(?::|%3A)(embedContent|batchEmbedContents)$/i;

/** Most requests one `batchEmbedContents` takes. */
const MAX_BATCH = 100;
/** Most values an embedding may have. */
const MAX_DIMENSIONS = 3072;

export interface GeminiEmbeddingsWire {
  method: "embedContent" | "batchEmbedContents";
  texts: string[];
  /** Each text's vector length: its request's `outputDimensionality`, else the model's. */
  dimensions: number[];
}

/** The values a model's embeddings have unless `outputDimensionality` says fewer. */
export function modelDimensions(model: string): number {
  return /^(?:models\/)?(?:text-embedding-00\d|embedding-001|embedding-gecko)/.test(model) ? 768 : MAX_DIMENSIONS;
}

export function contentText(content: unknown): string | undefined {
  if (!isRecord(content) || !Array.isArray(content.parts)) return undefined;
  return content.parts.flatMap((p) => (isRecord(p) && typeof p.text === "string" ? [p.text] : [])).join("\n");
}

/** One `EmbedContentRequest`: its text, or the error naming the field at `at`. */
function oneRequest(r: unknown, at: string, fallbackDims: number | undefined): { text: string; dims?: number } | ApiError {
  if (!isRecord(r)) return apiError("invalid_request", `* ${at}: request is not an object.`);
  const text = contentText(r.content);
  if (text === undefined) return apiError("invalid_request", `* ${at}.content: content is not specified`);
  const dims = r.outputDimensionality ?? fallbackDims;
  if (dims !== undefined && (typeof dims !== "number" || !Number.isInteger(dims) || dims < 1 || dims > MAX_DIMENSIONS)) {
    return apiError("invalid_request", `* ${at}.output_dimensionality: must be between 1 and ${MAX_DIMENSIONS}.`);
  }
  return { text, ...(dims !== undefined ? { dims } : {}) };
}

export function parseGeminiEmbeddings(raw: unknown, headers: Headers, target: RequestTarget): ParseResult<GeminiEmbeddingsWire> {
  const where = PATH.exec(target.path);
  if (!where) return { ok: false, error: apiError("not_found", `Unknown request URL: ${target.path}.`) };
  const model = safeDecode(where[1]!);
  const method = where[2]!.toLowerCase() === "embedcontent" ? "embedContent" : "batchEmbedContents";
  const body = camelizeKeys(raw);
  if (!isRecord(body)) return { ok: false, error: apiError("invalid_request", "Invalid JSON payload received. Expected an object.") };
  const items: { text: string; dims?: number }[] = [];
  if (method === "embedContent") {
    const one = oneRequest(body, "EmbedContentRequest", undefined);
    if ("code" in one) return { ok: false, error: one };
    items.push(one);
  } else {
    const requests = body.requests;
    if (!Array.isArray(requests) || requests.length === 0) return { ok: false, error: apiError("invalid_request", "* BatchEmbedContentsRequest.requests: requests is not specified") };
    if (requests.length > MAX_BATCH) {
      return { ok: false, error: apiError("invalid_request", `* BatchEmbedContentsRequest.requests: at most ${MAX_BATCH} requests can be in one batch`) };
    }
    for (const [i, r] of requests.entries()) {
      const one = oneRequest(r, `BatchEmbedContentsRequest.requests[${i}]`, undefined);
      if ("code" in one) return { ok: false, error: one };
      items.push(one);
    }
  }
  const full = modelDimensions(model);
  const request = inputsRequest(
    "gemini",
    "embeddings",
    model,
    items.map((i) => i.text),
    headerRecord(headers),
  );
  return { ok: true, wire: { method, texts: items.map((i) => i.text), dimensions: items.map((i) => i.dims ?? full) }, request };
}

function values(reply: Reply, wire: GeminiEmbeddingsWire, index: number): number[] {
  return vectorFor(reply, { kind: "text", text: wire.texts[index]! }, index, wire.dimensions[index]!);
}

export function renderGeminiEmbeddingsJson(reply: Reply, ctx: RenderContext<GeminiEmbeddingsWire>): unknown {
  const { wire } = ctx;
  if (wire.method === "embedContent") return { embedding: { values: values(reply, wire, 0) } };
  return { embeddings: wire.texts.map((_, i) => ({ values: values(reply, wire, i) })) };
}

/** A large batch's answer as pieces made as they are sent, byte for byte the JSON of `renderGeminiEmbeddingsJson`. */
export function renderGeminiEmbeddingsRaw(reply: Reply, ctx: RenderContext<GeminiEmbeddingsWire>): RawBody | undefined {
  const { wire } = ctx;
  if (wire.method === "embedContent" || wire.dimensions.reduce((n, d) => n + d, 0) * FLOAT_JSON_BYTES <= WHOLE_BODY_LIMIT) return undefined;
  function* pieces(): Generator<string> {
    yield '{"embeddings":[';
    for (let i = 0; i < wire.texts.length; i++) yield (i > 0 ? "," : "") + JSON.stringify({ values: values(reply, wire, i) });
    yield "]}";
  }
  return { body: { pieces }, contentType: "application/json" };
}

/** Embeddings never stream: a client that asks anyway gets the body as one event. */
function renderEvents(reply: Reply, ctx: RenderContext<GeminiEmbeddingsWire>): SseEvent[] {
  return [{ data: JSON.stringify(renderGeminiEmbeddingsJson(reply, ctx)) }];
}

export const geminiEmbeddings: ProviderSurface<GeminiEmbeddingsWire> = {
  provider: "gemini",
  endpoint: "embeddings",
  paths: [],
  matchPath: (path) => PATH.test(path),
  requestIdHeader: "x-request-id",
  checkHeaders: checkGeminiAuth,
  parse: parseGeminiEmbeddings,
  failureMessages: GEMINI_FAILURE_MESSAGES,
  renderError: renderGeminiError,
  failureHeaders: geminiFailureHeaders,
  renderLimited: (limit, retryAfterMs) => renderGeminiLimited(limit, retryAfterMs),
  renderJson: renderGeminiEmbeddingsJson,
  renderRaw: renderGeminiEmbeddingsRaw,
  renderEvents,
  renderStreamError: (failure: Extract<Failure, { kind: "stream_error" }>) => renderGenerateContentStreamError(failure),
};
