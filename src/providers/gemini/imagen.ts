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
import { base64 } from "../../util/base64";
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

/** `record`'s value at `key` (`where` names the record) when `ok` takes it, else `fallback` when absent; the 400 naming it otherwise. */
function param<T>(record: Record<string, unknown>, where: string, key: string, ok: (v: unknown) => v is T, expected: string, fallback: T): T | ApiError {
  const v = record[key];
  if (v === undefined || v === null) return fallback;
  return ok(v) ? v : invalid(`Invalid value for ${where}.${key}: ${echoed(JSON.stringify(v) ?? String(v))}; ${expected}.`);
}

const refused = (v: unknown): v is ApiError => typeof v === "object" && v !== null;
const isBoolean = (v: unknown): v is boolean => typeof v === "boolean";
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 4;
const isRatio = (v: unknown): v is string => typeof v === "string" && Object.hasOwn(SIZES, v);
const isSize = (v: unknown): v is "1K" | "2K" => v === "1K" || v === "2K";
const isMime = (v: unknown): v is "image/png" | "image/jpeg" => v === "image/png" || v === "image/jpeg";

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
    const count = param(parameters, "parameters", "sampleCount", isCount, "it must be an integer from 1 to 4", 4);
    if (refused(count)) return { ok: false, error: count };
    const ratio = param(parameters, "parameters", "aspectRatio", isRatio, `it must be one of ${Object.keys(SIZES).join(", ")}`, "1:1");
    if (refused(ratio)) return { ok: false, error: ratio };
    const size = param(parameters, "parameters", "sampleImageSize", isSize, 'it must be "1K" or "2K"', "1K");
    if (refused(size)) return { ok: false, error: size };
    const enhance = param(parameters, "parameters", "enhancePrompt", isBoolean, "it must be a boolean", false);
    if (refused(enhance)) return { ok: false, error: enhance };
    const options = isRecord(parameters.outputOptions) ? parameters.outputOptions : {};
    const mime = param(options, "parameters.outputOptions", "mimeType", isMime, 'it must be "image/png" or "image/jpeg"', "image/png");
    if (refused(mime)) return { ok: false, error: mime };
    const base = SIZES[ratio]!;
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
      count,
      width: base[0] * scale,
      height: base[1] * scale,
      format: mime === "image/jpeg" ? "jpeg" : "png",
      enhance,
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
