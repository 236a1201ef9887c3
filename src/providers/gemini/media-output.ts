/**
 * Gemini's media answers on `generateContent`. **Images** (the "Nano Banana" models, what `@google/genai` now
 * recommends over Imagen and what `@ai-sdk/google`'s `google.image('gemini-…-image')` calls): `responseModalities`
 * naming `IMAGE`, or an image model asked nothing (it answers text and an image), gets an `inlineData` PNG at the size
 * `imageConfig` (`aspectRatio`, `imageSize`) picks for the model, in one flat colour — the step's
 * `respond.image.color`, else one derived from the prompt, as OpenAI's images are (../openai/images/picture.ts).
 * **Speech** (the TTS models, `@ai-sdk/google`'s `google.speech(…)`): `responseModalities: ["AUDIO"]` gets an
 * `inlineData` part of 24 kHz 16-bit PCM (`audio/L16;codec=pcm;rate=24000`), OpenAI's speech tone
 * (../openai/audio/pcm.ts), as long as `respond.speech.durationMs` says, else the prompt's words at 2.5 a second.
 *
 * The sizes and output token counts per model family are the tables Google's image-generation page publishes
 * (docs/providers/fidelity.md "Gemini image and speech output" says which figures were read and which are reconstructed).
 */
import type { Reply } from "../../canonical/outcome";
import { lastUserMessage, type CanonicalRequest } from "../../canonical/request";
import { base64 } from "../../util/base64";
import type { ApiError } from "../../http/errors";
import { apiError } from "../../http/errors";
import { encodePicture, pictureColor } from "../openai/images/picture";
import { pcm, SAMPLE_RATE, sampleCount } from "../openai/audio/pcm";
import { speechLengthMs } from "../openai/audio/speech";
import { lazily } from "../../util/memo";
import { invalidValue, violationsError } from "./field-violations";

/** The families whose sizes differ: 2.5 Flash Image (1K only), 3 Pro Image (1K/2K/4K), 3.1 Flash Image (512 to 4K, 14 ratios). */
type ImageFamily = "flash-2.5" | "pro-3" | "flash-3.1";

/** `aspectRatio` → [width, height] at 1K for each family (2K and 4K double and quadruple them). */
const SIZES_2_5: Record<string, [number, number]> = {
  "1:1": [1024, 1024],
  "2:3": [832, 1248],
  "3:2": [1248, 832],
  "3:4": [864, 1184],
  "4:3": [1184, 864],
  "4:5": [896, 1152],
  "5:4": [1152, 896],
  "9:16": [768, 1344],
  "16:9": [1344, 768],
  "21:9": [1536, 672],
};
const SIZES_3: Record<string, [number, number]> = {
  "1:1": [1024, 1024],
  "2:3": [848, 1264],
  "3:2": [1264, 848],
  "3:4": [896, 1200],
  "4:3": [1200, 896],
  "4:5": [928, 1152],
  "5:4": [1152, 928],
  "9:16": [768, 1376],
  "16:9": [1376, 768],
  "21:9": [1584, 672],
};
const SIZES_3_1: Record<string, [number, number]> = { ...SIZES_3, "1:4": [512, 2048], "4:1": [2048, 512], "1:8": [384, 3072], "8:1": [3072, 384] };

const FAMILIES: Record<ImageFamily, { sizes: Record<string, [number, number]>; imageSizes: readonly string[] }> = {
  "flash-2.5": { sizes: SIZES_2_5, imageSizes: ["1K"] },
  "pro-3": { sizes: SIZES_3, imageSizes: ["1K", "2K", "4K"] },
  "flash-3.1": { sizes: SIZES_3_1, imageSizes: ["512", "1K", "2K", "4K"] },
};

/** Output tokens of one image: 2.5 Flash Image's 1,290 at every ratio; the Gemini 3 models' 1,120 up to 2K and 2,000 at 4K. */
function imageTokens(family: ImageFamily, size: string): number {
  if (family === "flash-2.5") return 1290;
  return size === "4K" ? 2000 : 1120;
}

/** The model's image family, or undefined for a model without image output (`gemini-2.5-flash`, …). */
export function imageFamily(model: string): ImageFamily | undefined {
  const m = model.toLowerCase();
  if (/^gemini-3(?:\.\d+)?-pro-image/.test(m)) return "pro-3";
  if (/^gemini-3(?:\.\d+)?-flash-image/.test(m)) return "flash-3.1";
  if (m.includes("image") || m.startsWith("gemini-2.0-flash-exp")) return "flash-2.5";
  return undefined;
}

/** What an image answer is drawn at and counted as, and whether text may come with it. */
export interface ImagePlan {
  kind: "image";
  width: number;
  height: number;
  /** Output tokens of the image (`candidatesTokensDetails`' IMAGE count). */
  tokens: number;
  /** The request allows text beside the image (`TEXT` among the modalities, or none named). */
  text: boolean;
}

/** A speech answer (a TTS model): audio only. */
export interface SpeechPlan {
  kind: "audio";
  text: false;
}

export type MediaPlan = ImagePlan | SpeechPlan;

/** The picture a scripted `respond.image` gets on a request that asked for no image: 1:1 at 1K, 2.5 Flash Image's count. */
export const DEFAULT_IMAGE_PLAN: ImagePlan = { kind: "image", width: 1024, height: 1024, tokens: 1290, text: true };

const MODALITIES = new Set(["TEXT", "IMAGE", "AUDIO"]);

/** Whether `model` is a speech model (`gemini-2.5-flash-preview-tts`, …): it answers audio and nothing else. */
export function isSpeechModel(model: string): boolean {
  return /(?:^|-)tts(?:-|$)/i.test(model);
}

/** The request's `responseModalities`, upper-cased; undefined when none are named; the proto parser's 400 for a value the enum lacks. */
function namedModalities(config: Record<string, unknown> | undefined, pkg: string): string[] | ApiError | undefined {
  const named = config?.responseModalities;
  if (!Array.isArray(named) || named.length === 0) return undefined;
  const modalities: string[] = [];
  const violations = named.flatMap((v, i) => {
    const up = typeof v === "string" ? v.toUpperCase() : undefined;
    if (up !== undefined && MODALITIES.has(up)) {
      modalities.push(up);
      return [];
    }
    return [invalidValue(`generation_config.response_modalities[${i}]`, `type.googleapis.com/${pkg}.GenerationConfig.Modality`, v)];
  });
  return violationsError(violations) ?? modalities;
}

/**
 * The media answer a generateContent request asks for, the API's 400 for what it refuses, or undefined when it asks
 * for text: `responseModalities` values the enum lacks (the proto parser's field violation); a modality the model
 * does not produce — `IMAGE` of a model without image output, `AUDIO` of a model that is not a TTS model, anything but
 * `AUDIO` of a TTS model (`Model does not support the requested response modalities: image`); an `aspectRatio` or
 * `imageSize` the model does not draw. An image model asked nothing answers text and an image, a TTS model audio.
 * @example mediaPlan("gemini-2.5-flash-image", { responseModalities: ["IMAGE"] }, "google.ai.generativelanguage.v1beta") // { kind: "image", width: 1024, height: 1024, tokens: 1290, text: false }
 */
export function mediaPlan(model: string, config: Record<string, unknown> | undefined, pkg: string): MediaPlan | ApiError | undefined {
  const family = imageFamily(model);
  const speech = isSpeechModel(model);
  const modalities = namedModalities(config, pkg);
  if (modalities !== undefined && !Array.isArray(modalities)) return modalities;
  if (modalities !== undefined) {
    const image = modalities.includes("IMAGE");
    const audio = modalities.includes("AUDIO");
    const unsupported = speech ? modalities.some((m) => m !== "AUDIO") : (image && family === undefined) || audio;
    if (unsupported) return apiError("invalid_request", `Model does not support the requested response modalities: ${modalities.map((m) => m.toLowerCase()).join(",")}`);
    if (audio) return { kind: "audio", text: false };
    if (!image) return undefined;
  } else if (speech) {
    return { kind: "audio", text: false };
  }
  if (family === undefined) return undefined;
  return imageSize(model, family, config, modalities === undefined || modalities.includes("TEXT"));
}

/** The image plan for the model's family and `imageConfig`, or the 400 for a ratio or size it does not draw. */
function imageSize(model: string, family: ImageFamily, config: Record<string, unknown> | undefined, text: boolean): ImagePlan | ApiError {
  const { sizes, imageSizes } = FAMILIES[family];
  const imageConfig = config?.imageConfig;
  const asked = typeof imageConfig === "object" && imageConfig !== null ? (imageConfig as Record<string, unknown>) : {};
  const ratio = asked.aspectRatio ?? "1:1";
  const base = typeof ratio === "string" ? sizes[ratio] : undefined;
  if (base === undefined) {
    return apiError("invalid_request", `Unsupported aspect ratio ${JSON.stringify(ratio)} for model ${model}. Supported aspect ratios: ${Object.keys(sizes).join(", ")}.`);
  }
  const size = asked.imageSize ?? "1K";
  // 2.5 Flash Image draws one size per ratio: any size the Gemini 3 models know is answered at its 1K.
  const known = family === "flash-2.5" ? FAMILIES["flash-3.1"].imageSizes : imageSizes;
  if (typeof size !== "string" || !known.includes(size)) {
    return apiError("invalid_request", `Unsupported image size ${JSON.stringify(size)} for model ${model}. Supported image sizes: ${imageSizes.join(", ")}.`);
  }
  const scale = family === "flash-2.5" ? 1 : size === "512" ? 0.5 : size === "2K" ? 2 : size === "4K" ? 4 : 1;
  return { kind: "image", width: base[0] * scale, height: base[1] * scale, tokens: imageTokens(family, size), text };
}

/** What a media answer reads of its request: the plan parsed from it (generateContent's or an interaction's) and the prompt. */
export interface MediaContext {
  wire: { media?: MediaPlan };
  request: CanonicalRequest;
}

/** A media part as sent: `inlineData`'s type and base64 bytes, the output tokens it counts and their modality. */
export interface InlineMedia {
  modality: "IMAGE" | "AUDIO";
  mimeType: string;
  data: string;
  tokens: number;
}

/** The media type of Gemini's speech: 24 kHz 16-bit little-endian mono PCM. */
export const SPEECH_MIME_TYPE = `audio/L16;codec=pcm;rate=${SAMPLE_RATE}`;
/** Audio's tokens a second (Google's token counting for audio: 32 a second). */
const AUDIO_TOKENS_PER_SECOND = 32;
/** Base64 characters of a second of speech (48,000 bytes): a stream's speech chunk. */
const SPEECH_PIECE_CHARS = (SAMPLE_RATE * 2 * 4) / 3;
/** One second of the tone as base64: 48,000 bytes (a multiple of 3), the same every second (400 whole periods). */
const SECOND_BASE64 = lazily(() => base64(pcm(SAMPLE_RATE)));

/**
 * Where a stream cuts a media part's base64 (`length` characters): an image whole, speech a second a piece; always at
 * least one piece (`[start, end)` each). generateContent's chunks and an interaction's deltas follow it.
 * @example mediaPieceRanges("AUDIO", 100_000) // [[0, 64000], [64000, 100000]]
 */
export function mediaPieceRanges(modality: InlineMedia["modality"], length: number): [number, number][] {
  if (modality === "IMAGE" || length <= SPEECH_PIECE_CHARS) return [[0, length]];
  const out: [number, number][] = [];
  for (let at = 0; at < length; at += SPEECH_PIECE_CHARS) out.push([at, Math.min(length, at + SPEECH_PIECE_CHARS)]);
  return out;
}

/** A speech answer's length: its whole seconds, the samples after them, and its tokens. */
export interface SpeechLength {
  seconds: number;
  rest: number;
  tokens: number;
}

/**
 * A speech answer's length: `respond.speech.durationMs`, else the prompt's words at 2.5 a second (OpenAI's speech's
 * rule and bounds, `speechLengthMs`).
 */
export function speechLength(reply: Reply, ctx: MediaContext | undefined): SpeechLength {
  const samples = sampleCount(speechLengthMs(reply.speech, (ctx === undefined ? undefined : lastUserMessage(ctx.request)) ?? ""));
  return { seconds: Math.floor(samples / SAMPLE_RATE), rest: samples % SAMPLE_RATE, tokens: Math.max(1, Math.ceil((samples / SAMPLE_RATE) * AUDIO_TOKENS_PER_SECOND)) };
}

/**
 * A speech answer's base64 in pieces of at most a second each (the pieces join to the whole: each second is a multiple
 * of 3 bytes), made as they are read.
 * @example [...speechPieces(speechLength(reply, ctx))].join("") // the data of replyMedia's audio part
 */
export function* speechPieces({ seconds, rest }: SpeechLength): Generator<string> {
  for (let i = 0; i < seconds; i++) yield SECOND_BASE64();
  if (rest > 0) yield base64(pcm(rest));
}

/** The bytes of a speech answer's base64, without making it. */
export function speechBase64Length({ seconds, rest }: SpeechLength): number {
  return seconds * SECOND_BASE64().length + Math.ceil((rest * 2) / 3) * 4;
}

/** A speech answer's part: its base64 whole, or `data` standing in for it (a body sent as it is made). */
export function speechMedia(length: SpeechLength, data = [...speechPieces(length)].join("")): InlineMedia {
  return { modality: "AUDIO", mimeType: SPEECH_MIME_TYPE, data, tokens: length.tokens };
}

/**
 * The media a reply answers with: `reply.image` (scripted, or the default responder's for a request asking for one),
 * drawn at the request's plan (DEFAULT_IMAGE_PLAN when it asked for none); else `reply.speech`, as audio; undefined
 * when the reply has neither.
 * @example replyMedia({ ...reply, image: { color: "#ff0000" } }, ctx)?.mimeType // "image/png"
 */
export function replyMedia(reply: Reply, ctx: MediaContext | undefined): InlineMedia | undefined {
  if (reply.image !== undefined) {
    const plan = ctx?.wire.media?.kind === "image" ? ctx.wire.media : DEFAULT_IMAGE_PLAN;
    const hex = pictureColor((ctx === undefined ? undefined : lastUserMessage(ctx.request)) ?? "", 0, reply.image.color);
    const bytes = encodePicture({ width: plan.width, height: plan.height, hex, transparent: false, format: "png" });
    return { modality: "IMAGE", mimeType: "image/png", data: base64(bytes), tokens: plan.tokens };
  }
  return reply.speech === undefined ? undefined : speechMedia(speechLength(reply, ctx));
}
