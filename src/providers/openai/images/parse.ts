/**
 * `POST /v1/images/*` → canonical request: the prompt is the user message (a variation's: the image's file name),
 * so `lastUserMessage` matchers work. The real API's limits per model: `n`, `size`, prompt length, formats.
 */
import { headerRecord } from "../../../http/headers";
import type { CanonicalRequest } from "../../../canonical/request";
import type { ApiError } from "../../../http/errors";
import { formFiles, type FileSummary } from "../../../http/multipart";
import type { ParseResult, RequestTarget } from "../../types";
import { firstWireIssue } from "../../wire-issues";
import { imagesWire, type ImageFamily, type ImagesRequest, type ImagesRoute } from "./wire";
import { unsupportedValue } from "../request-error";

const SIZES: Record<ImageFamily, string[]> = {
  "dall-e-2": ["256x256", "512x512", "1024x1024"],
  "dall-e-3": ["1024x1024", "1792x1024", "1024x1792"],
  "gpt-image": ["1024x1024", "1024x1536", "1536x1024", "auto"],
};
const PROMPT_LIMIT: Record<ImageFamily, number> = { "dall-e-2": 1000, "dall-e-3": 4000, "gpt-image": 32000 };
const QUALITIES: Record<ImageFamily, string[]> = {
  "dall-e-2": ["standard"],
  "dall-e-3": ["standard", "hd"],
  "gpt-image": ["low", "medium", "high", "auto"],
};
/** Most images one edit takes (GPT image models); DALL·E 2 takes one square PNG under 4 MB. */
export const MAX_EDIT_IMAGES = 16;
export const DALL_E_2_IMAGE_BYTES = 4 * 1024 * 1024;
export const GPT_IMAGE_BYTES = 50 * 1024 * 1024;

function invalid(message: string, param: string | null, code?: string): ApiError {
  return { code: "invalid_request", message, ...(param !== null ? { param } : {}), ...(code !== undefined ? { providerCode: code } : {}) };
}

export function familyOf(model: string): ImageFamily {
  return model === "dall-e-2" || model === "dall-e-3" ? model : "gpt-image";
}

function routeOf(path: string): ImagesRoute {
  return path.endsWith("/edits") ? "edits" : path.endsWith("/variations") ? "variations" : "generations";
}

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp"]);
const EXTENSION_TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", webp: "image/webp" };

/** The file's image type: its part's content type, else its extension's. */
function imageType(f: FileSummary): string {
  if (IMAGE_TYPES.has(f.type)) return f.type;
  return EXTENSION_TYPES[f.filename.split(".").pop()?.toLowerCase() ?? ""] ?? f.type;
}

function checkImages(family: ImageFamily, images: FileSummary[], param: string): ApiError | undefined {
  if (images.length === 0) return invalid(`Missing required parameter: '${param}'.`, param, "missing_required_parameter");
  if (family !== "gpt-image") {
    const bad = images.length > 1 || images.some((f) => imageType(f) !== "image/png" || f.size >= DALL_E_2_IMAGE_BYTES);
    return bad ? invalid("Uploaded image must be a PNG and less than 4 MB.", param) : undefined;
  }
  if (images.length > MAX_EDIT_IMAGES) return invalid(`Invalid '${param}': too many images. Expected at most ${MAX_EDIT_IMAGES}, got ${images.length}.`, param);
  for (const f of images) {
    const type = imageType(f);
    if (!IMAGE_TYPES.has(type)) {
      return invalid(`Invalid file '${param}': unsupported mimetype ('${type}'). Supported file formats are 'image/jpeg', 'image/png', and 'image/webp'.`, param, "unsupported_file_mimetype");
    }
    if (f.size > GPT_IMAGE_BYTES) return invalid(`Invalid file '${param}': file too large (${f.size} bytes). Each image must be under 50 MB.`, param);
  }
  return undefined;
}

/** The mock's own base for image files: the request's origin and its `/s/…` prefix. */
function fileBase(target: RequestTarget): string {
  const url = new URL(target.url ?? "http://localhost/");
  const prefix = url.pathname.endsWith(target.path) ? url.pathname.slice(0, url.pathname.length - target.path.length) : "";
  return `${url.origin}${prefix}/v1/images/files/`;
}

/** Parameters only the GPT image models take (the API reference's list for `model`'s default). */
const GPT_IMAGE_PARAMS = ["output_format", "output_compression", "background", "stream", "partial_images", "moderation", "input_fidelity"] as const;

/**
 * The model a request without `model` gets, as the API reference says: "Defaults to `dall-e-2` unless a parameter
 * specific to the GPT image models is used" — then `gpt-image-1` (docs/providers/openai-images.md).
 * @example defaultImageModel({ prompt: "a cat", stream: true }) // "gpt-image-1"
 */
export function defaultImageModel(body: Record<string, unknown>): string {
  return GPT_IMAGE_PARAMS.some((k) => body[k] !== undefined && body[k] !== null && body[k] !== false) ? "gpt-image-1" : "dall-e-2";
}

export function parseImagesRequest(raw: unknown, headers: Headers, target: RequestTarget): ParseResult<ImagesRequest> {
  const parsed = imagesWire().ImagesBodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = firstWireIssue(parsed.error);
    return { ok: false, error: invalid(issue.message, issue.param) };
  }
  const body = parsed.data;
  const route = routeOf(target.path);
  const images = route === "generations" ? [] : formFiles(raw, "image");
  const model = body.model ?? defaultImageModel(body);
  const family = familyOf(model);
  if (route === "variations" && family !== "dall-e-2") return { ok: false, error: invalid(`Invalid value for 'model' = ${model}: variations support only dall-e-2.`, "model", "invalid_value") };
  if (route === "edits" && family === "dall-e-3")
    return { ok: false, error: invalid("Invalid value for 'model' = dall-e-3: edits support dall-e-2 and the GPT image models.", "model", "invalid_value") };
  if (route !== "generations") {
    const bad = checkImages(family, images, "image");
    if (bad) return { ok: false, error: bad };
    const masks = formFiles(raw, "mask");
    const badMask = masks.length > 0 ? checkImages(family === "gpt-image" ? "gpt-image" : "dall-e-2", masks, "mask") : undefined;
    if (badMask) return { ok: false, error: badMask };
  }
  const prompt = body.prompt ?? "";
  if (route !== "variations" && prompt === "") return { ok: false, error: invalid("Missing required parameter: 'prompt'.", "prompt", "missing_required_parameter") };
  const limit = PROMPT_LIMIT[family];
  if (prompt.length > limit) {
    return {
      ok: false,
      error: invalid(`Invalid 'prompt': string too long. Expected a string with maximum length ${limit}, but got a string with length ${prompt.length} instead.`, "prompt", "string_above_max_length"),
    };
  }
  const n = body.n ?? 1;
  if (n < 1) return { ok: false, error: invalid(`Invalid 'n': integer below minimum value. Expected a value >= 1, but got ${n} instead.`, "n", "integer_below_min_value") };
  if (n > 10) return { ok: false, error: invalid(`Invalid 'n': integer above maximum value. Expected a value <= 10, but got ${n} instead.`, "n", "integer_above_max_value") };
  if (family === "dall-e-3" && n !== 1) return { ok: false, error: invalid("You must provide n=1 for this model.", "n") };
  const size = body.size ?? (family === "gpt-image" ? "auto" : "1024x1024");
  if (!SIZES[family].includes(size)) return { ok: false, error: unsupportedValue(size, SIZES[family], "size") };
  const quality = body.quality ?? (family === "gpt-image" ? "auto" : "standard");
  if (!QUALITIES[family].includes(quality)) return { ok: false, error: unsupportedValue(quality, QUALITIES[family], "quality") };
  const gptOnly = (["output_format", "output_compression", "background", "stream", "partial_images"] as const).find((k) => body[k] !== undefined && body[k] !== null && body[k] !== false);
  if (family !== "gpt-image" && gptOnly !== undefined) return { ok: false, error: invalid(`Unknown parameter: '${gptOnly}'.`, gptOnly, "unknown_parameter") };
  if (family === "gpt-image" && body.response_format !== undefined && body.response_format !== null) {
    return { ok: false, error: invalid("Unknown parameter: 'response_format'.", "response_format", "unknown_parameter") };
  }
  const compression = body.output_compression;
  if (compression !== undefined && compression !== null && (compression < 0 || compression > 100)) {
    return { ok: false, error: invalid(`Invalid 'output_compression': expected a value between 0 and 100, but got ${compression} instead.`, "output_compression", "invalid_value") };
  }
  if (body.background === "transparent" && body.output_format === "jpeg") {
    return { ok: false, error: invalid("Transparent background is not supported for output_format 'jpeg'. Use 'png' or 'webp'.", "background", "invalid_value") };
  }
  const partialImages = body.partial_images ?? 0;
  if (partialImages < 0 || partialImages > 3)
    return { ok: false, error: invalid(`Invalid 'partial_images': expected a value between 0 and 3, but got ${partialImages} instead.`, "partial_images", "invalid_value") };
  const [w, h] = (size === "auto" ? "1024x1024" : size).split("x").map(Number);
  const text = route === "variations" ? (images[0]?.filename ?? "") : prompt;
  const request: CanonicalRequest = {
    provider: "openai",
    endpoint: "images",
    model,
    stream: body.stream === true,
    system: "",
    messages: [{ role: "user", text }],
    tools: [],
    reasoning: "disabled",
    headers: headerRecord(headers),
  };
  const wire: ImagesRequest = {
    route,
    body,
    model,
    family,
    prompt,
    n,
    width: w!,
    height: h!,
    size: size === "auto" ? "1024x1024" : size,
    quality: quality === "auto" ? "medium" : quality,
    background: body.background === "transparent" ? "transparent" : "opaque",
    format: body.output_format ?? "png",
    responseFormat: family === "gpt-image" ? "b64_json" : (body.response_format ?? "url"),
    partialImages,
    images,
    fileBase: fileBase(target),
  };
  return { ok: true, wire, request };
}
