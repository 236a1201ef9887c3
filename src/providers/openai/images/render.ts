/**
 * Images answers: `b64_json` (the file's bytes) or `url` (a file the mock serves itself, files.ts), DALL·E's
 * `revised_prompt`, the GPT image models' `usage`, `output_format`, `quality`, `size`, `background`, and their
 * partial-image stream events.
 */
import type { Reply } from "../../../canonical/outcome";
import { lastUserMessage } from "../../../canonical/request";
import { base64 } from "../../../util/base64";
import type { Failure } from "../../../scenario/schema";
import type { RenderContext, SseEvent } from "../../types";
import { encodePicture, pictureColor, pictureId, type Picture } from "./picture";
import type { ImagesRequest } from "./wire";

/** Output tokens per image by quality, square and rectangular (the real API's published table). */
const OUTPUT_TOKENS: Record<string, [number, number]> = { low: [272, 408], medium: [1056, 1584], high: [4160, 6240] };
/** Input image tokens charged per uploaded image (an estimate: the low-fidelity base). */
export const INPUT_IMAGE_TOKENS = 65;

function pictures(reply: Reply, ctx: RenderContext<ImagesRequest>): Picture[] {
  const w = ctx.wire;
  const seed = lastUserMessage(ctx.request) ?? w.prompt;
  return Array.from({ length: w.n }, (_, i) => ({
    width: w.width,
    height: w.height,
    hex: pictureColor(seed, i, reply.image?.color),
    transparent: w.background === "transparent",
    format: w.format,
  }));
}

/** `usage` of a GPT image answer: text tokens ≈ characters / 4, output tokens from the size and quality table. */
export function imagesUsage(w: ImagesRequest): Record<string, unknown> {
  const text = Math.max(1, Math.ceil(w.prompt.length / 4));
  const image = w.images.length * INPUT_IMAGE_TOKENS;
  const out = (OUTPUT_TOKENS[w.quality] ?? OUTPUT_TOKENS.medium!)[w.width === w.height ? 0 : 1] * w.n;
  return {
    input_tokens: text + image,
    input_tokens_details: { text_tokens: text, image_tokens: image },
    output_tokens: out,
    output_tokens_details: { text_tokens: 0, image_tokens: out },
    total_tokens: text + image + out,
  };
}

/** The fields GPT image answers (and their events) carry beside the image. */
function gptFields(w: ImagesRequest): Record<string, unknown> {
  return { background: w.background, output_format: w.format, quality: w.quality, size: w.size };
}

export function renderImagesJson(reply: Reply, ctx: RenderContext<ImagesRequest>): unknown {
  const w = ctx.wire;
  const data = pictures(reply, ctx).map((p) => {
    const item: Record<string, unknown> = w.responseFormat === "url" ? { url: `${w.fileBase}${pictureId(p)}` } : { b64_json: base64(encodePicture(p)) };
    if (w.family === "dall-e-3") item.revised_prompt = reply.image?.revisedPrompt ?? w.prompt;
    return item;
  });
  if (w.family !== "gpt-image") return { created: ctx.created, data };
  return { created: ctx.created, ...gptFields(w), data, usage: imagesUsage(w) };
}

/**
 * `stream: true` (GPT image models): `partial_images` partial events per image, then its `completed` event (named
 * `image_edit.*` for edits), each with an `event:` line matching its type.
 */
export function renderImagesEvents(reply: Reply, ctx: RenderContext<ImagesRequest>): SseEvent[] {
  const w = ctx.wire;
  const prefix = w.route === "edits" ? "image_edit" : "image_generation";
  const event = (type: string, fields: Record<string, unknown>): SseEvent => ({ event: type, data: JSON.stringify({ type, ...fields }) });
  return pictures(reply, ctx).flatMap((p) => {
    const b64 = base64(encodePicture(p));
    const partials = Array.from({ length: w.partialImages }, (_, i) => event(`${prefix}.partial_image`, { b64_json: b64, created_at: ctx.created, ...gptFields(w), partial_image_index: i }));
    return [...partials, event(`${prefix}.completed`, { b64_json: b64, created_at: ctx.created, ...gptFields(w), usage: imagesUsage(w) })];
  });
}

export function renderImagesStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  const message = failure.message ?? "The server had an error while processing your request. Sorry about that!";
  return { event: "error", data: JSON.stringify({ type: "error", error: { message, type: failure.errorType ?? "server_error", param: null, code: null } }) };
}
