/**
 * Imagen: `…/models/imagen-…:predict`, what `@google/genai`'s `models.generateImages` sends on Vertex AI (and what the
 * Gemini API answered before `@google/genai` 3 moved its image generation to `generateContent`, media-output.ts):
 * `{ instances: [{ prompt }], parameters: { sampleCount, aspectRatio, sampleImageSize, outputOptions, enhancePrompt, … } }`
 * → `{ predictions: [{ bytesBase64Encoded, mimeType, prompt? }] }`. Each picture is one flat colour — the step's
 * `respond.image.color` (all of them), else one derived from the prompt and the picture's index — at Imagen's size for
 * the ratio (2K doubles it), PNG or JPEG as `outputOptions.mimeType` asks; `respond.image.revisedPrompt` is the
 * enhanced `prompt` an `enhancePrompt` request gets. Served on Vertex AI's publisher paths and the Gemini API's.
 */
import type { Reply } from "../../canonical/outcome";
import type { CanonicalRequest } from "../../canonical/request";
import { base64 } from "../../http/base64";
import { apiError, type ApiError } from "../../http/errors";
import { headerRecord } from "../../http/headers";
import { isRecord } from "../../http/json";
import { safeDecode } from "../../http/url";
import { echoed } from "../../util/text";
import { encodePicture, pictureColor } from "../openai/images/picture";
import type { ParseResult, ProviderSurface, RenderContext, RequestTarget, SseEvent } from "../types";
import { checkVertexAuth, vertexLimited } from "../vertex/errors";
import { checkGeminiAuth, GEMINI_FAILURE_MESSAGES, geminiFailureHeaders, renderGeminiError, renderGeminiLimited } from "./errors";
import { renderGenerateContentStreamError } from "./render-stream";

const GEMINI_PATH = /^\/(?:v1beta|v1|v1alpha)\/models\/(imagen[^/:]*)(?::|%3A)predict$/i;
const VERTEX_PATH = /^\/(?:v1|v1beta1)\/(?:projects\/[^/]+\/locations\/[^/]+\/)?publishers\/google\/models\/(imagen[^/:]*)(?::|%3A)predict$/i;

/** Imagen's sizes at 1K by aspect ratio (`sampleImageSize: "2K"` doubles them). */
const SIZES: Record<string, [number, number]> = {
  "1:1": [1024, 1024],
  "3:4": [896, 1280],
  "4:3": [1280, 896],
  "9:16": [768, 1408],
  "16:9": [1408, 768],
};

export interface ImagenWire {
  model: string;
  prompt: string;
  count: number;
  width: number;
  height: number;
  format: "png" | "jpeg";
  /** `enhancePrompt: true`: each prediction carries the prompt used (`prompt`). */
  enhance: boolean;
}

function invalid(message: string): ApiError {
  return apiError("invalid_request", message);
}

/** The parameters' value at `key` when it is of `type`, undefined when absent; an ApiError naming it otherwise. */
function param<T>(parameters: Record<string, unknown>, key: string, ok: (v: unknown) => v is T, expected: string): T | undefined | ApiError {
  const v = parameters[key];
  if (v === undefined || v === null) return undefined;
  return ok(v) ? v : invalid(`Invalid value for parameters.${key}: ${echoed(JSON.stringify(v) ?? String(v))}; ${expected}.`);
}

const isString = (v: unknown): v is string => typeof v === "string";
const isBoolean = (v: unknown): v is boolean => typeof v === "boolean";
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 4;

/** An Imagen `:predict` body → the pictures to draw, or the 400 for what Imagen refuses. */
function parseImagen(path: RegExp, provider: "gemini" | "vertex") {
  return (body: unknown, headers: Headers, target: RequestTarget): ParseResult<ImagenWire> => {
    const m = path.exec(target.path);
    if (!m) return { ok: false, error: apiError("not_found", `Unknown request URL: ${echoed(target.path)}.`) };
    const model = safeDecode(m[1]!);
    if (!isRecord(body)) return { ok: false, error: invalid("Invalid JSON payload received. Expected an object.") };
    const instances = body.instances;
    if (!Array.isArray(instances) || instances.length !== 1) return { ok: false, error: invalid("instances must hold exactly one instance: { prompt }.") };
    const instance = instances[0];
    if (!isRecord(instance) || typeof instance.prompt !== "string" || instance.prompt.trim() === "") return { ok: false, error: invalid("instances[0].prompt must be a non-empty string.") };
    const parameters = isRecord(body.parameters) ? body.parameters : {};
    if (parameters.mode === "upscale" || instance.image !== undefined) return { ok: false, error: invalid("mockllm serves Imagen's generation only: upscaling and editing an image are not served.") };
    if (parameters.storageUri !== undefined) return { ok: false, error: invalid("mockllm does not write to Cloud Storage: send no parameters.storageUri, and the images come back inline.") };
    const count = param(parameters, "sampleCount", isCount, "it must be an integer from 1 to 4");
    const ratio = param(parameters, "aspectRatio", isString, `it must be one of ${Object.keys(SIZES).join(", ")}`);
    const size = param(parameters, "sampleImageSize", isString, 'it must be "1K" or "2K"');
    const enhance = param(parameters, "enhancePrompt", isBoolean, "it must be a boolean");
    for (const v of [count, ratio, size, enhance]) if (typeof v === "object") return { ok: false, error: v };
    const base = SIZES[(ratio as string | undefined) ?? "1:1"];
    if (base === undefined) return { ok: false, error: invalid(`Invalid value for parameters.aspectRatio: "${echoed(ratio as string)}"; it must be one of ${Object.keys(SIZES).join(", ")}.`) };
    if (size !== undefined && size !== "1K" && size !== "2K")
      return { ok: false, error: invalid(`Invalid value for parameters.sampleImageSize: "${echoed(size as string)}"; it must be "1K" or "2K".`) };
    const options = isRecord(parameters.outputOptions) ? parameters.outputOptions : {};
    const mime = options.mimeType ?? "image/png";
    if (mime !== "image/png" && mime !== "image/jpeg")
      return { ok: false, error: invalid(`Invalid value for parameters.outputOptions.mimeType: ${echoed(JSON.stringify(mime) ?? "")}; it must be "image/png" or "image/jpeg".`) };
    const scale = size === "2K" ? 2 : 1;
    const prompt = instance.prompt;
    const request: CanonicalRequest = {
      provider,
      endpoint: "images",
      model,
      stream: false,
      system: "",
      messages: [{ role: "user", text: prompt }],
      tools: [],
      reasoning: "disabled",
      headers: headerRecord(headers),
    };
    const wire: ImagenWire = {
      model,
      prompt,
      count: (count as number | undefined) ?? 4,
      width: base[0] * scale,
      height: base[1] * scale,
      format: mime === "image/jpeg" ? "jpeg" : "png",
      enhance: enhance === true,
    };
    return { ok: true, wire, request };
  };
}

/** The predictions: one picture each, the scripted colour or the prompt's colour for its index. */
export function renderImagenJson(reply: Reply, ctx: RenderContext<ImagenWire>): unknown {
  const w = ctx.wire;
  const predictions = Array.from({ length: w.count }, (_, i) => {
    const hex = pictureColor(w.prompt, i, reply.image?.color);
    const bytes = encodePicture({ width: w.width, height: w.height, hex, transparent: false, format: w.format });
    return { bytesBase64Encoded: base64(bytes), mimeType: `image/${w.format}`, ...(w.enhance ? { prompt: reply.image?.revisedPrompt ?? w.prompt } : {}) };
  });
  return { predictions };
}

/** What the Gemini API's and Vertex AI's surfaces share: everything but their paths, auth and quota answer. */
const shared: Omit<ProviderSurface<ImagenWire>, "provider" | "matchPath" | "checkHeaders" | "parse" | "renderLimited"> = {
  endpoint: "images",
  paths: [],
  requestIdHeader: "x-request-id",
  failureMessages: GEMINI_FAILURE_MESSAGES,
  renderError: renderGeminiError,
  failureHeaders: geminiFailureHeaders,
  renderJson: renderImagenJson,
  renderEvents: (reply: Reply, ctx: RenderContext<ImagenWire>): SseEvent[] => [{ data: JSON.stringify(renderImagenJson(reply, ctx)) }],
  renderStreamError: renderGenerateContentStreamError,
};

/** Imagen on the Gemini API: `POST /v1beta/models/imagen-…:predict`. */
export const geminiImagen: ProviderSurface<ImagenWire> = {
  ...shared,
  provider: "gemini",
  matchPath: (path) => GEMINI_PATH.test(path),
  checkHeaders: checkGeminiAuth,
  parse: parseImagen(GEMINI_PATH, "gemini"),
  renderLimited: (limit, retryAfterMs) => renderGeminiLimited(limit, retryAfterMs),
};

/** Imagen on Vertex AI: `POST /{v1|v1beta1}/projects/{p}/locations/{l}/publishers/google/models/imagen-…:predict` (and express mode's). */
export const vertexImagen: ProviderSurface<ImagenWire> = {
  ...shared,
  provider: "vertex",
  matchPath: (path) => VERTEX_PATH.test(path),
  checkHeaders: checkVertexAuth,
  parse: parseImagen(VERTEX_PATH, "vertex"),
  renderLimited: (limit, _retryAfterMs, ctx) => vertexLimited("google", ctx.request.model, limit),
};
