/**
 * Gemini's native image output (the "Nano Banana" models, what `@google/genai` now recommends over Imagen and what
 * `@ai-sdk/google`'s `google.image('gemini-…-image')` calls): `generateContent` with `generationConfig.responseModalities`
 * naming `IMAGE`, or an image model asked nothing (it answers text and an image), gets an `inlineData` part holding a
 * PNG at the size `imageConfig` (`aspectRatio`, `imageSize`) picks for the model, in one flat colour — the step's
 * `respond.image.color`, else one derived from the prompt, as OpenAI's images are (../openai/images/picture.ts).
 *
 * The sizes and output token counts per model family are the tables Google's image-generation page publishes
 * (docs/providers/fidelity.md "Gemini image output" says which figures were read and which are reconstructed).
 */
import type { Reply } from "../../canonical/outcome";
import { lastUserMessage } from "../../canonical/request";
import { base64 } from "../../http/base64";
import type { ApiError } from "../../http/errors";
import { apiError } from "../../http/errors";
import { encodePicture, pictureColor } from "../openai/images/picture";
import type { RenderContext } from "../types";
import { invalidValue, violationsError } from "./field-violations";
import type { GeminiWire } from "./wire";

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
  width: number;
  height: number;
  /** Output tokens of the image (`candidatesTokensDetails`' IMAGE count). */
  tokens: number;
  /** The request allows text beside the image (`TEXT` among the modalities, or none named). */
  text: boolean;
}

/** The picture a scripted `respond.image` gets on a request that asked for no image: 1:1 at 1K, 2.5 Flash Image's count. */
export const DEFAULT_IMAGE_PLAN: ImagePlan = { width: 1024, height: 1024, tokens: 1290, text: true };

const MODALITIES = new Set(["TEXT", "IMAGE", "AUDIO"]);

/**
 * The image answer a generateContent request asks for, the API's 400 for what it refuses, or undefined when it asks
 * for none: `responseModalities` values the enum lacks (the proto parser's field violation), `IMAGE` asked of a model
 * without image output (`Model does not support the requested response modalities: image`), and an `aspectRatio` or
 * `imageSize` the model does not offer.
 * @example imagePlan("gemini-2.5-flash-image", { responseModalities: ["IMAGE"] }, "google.ai.generativelanguage.v1beta") // { width: 1024, height: 1024, tokens: 1290, text: false }
 */
export function imagePlan(model: string, config: Record<string, unknown> | undefined, pkg: string): ImagePlan | ApiError | undefined {
  const family = imageFamily(model);
  const named = config?.responseModalities;
  let image = family !== undefined;
  let text = true;
  if (Array.isArray(named) && named.length > 0) {
    const modalities: string[] = [];
    const violations = named.flatMap((v, i) => {
      const up = typeof v === "string" ? v.toUpperCase() : undefined;
      if (up !== undefined && MODALITIES.has(up)) {
        modalities.push(up);
        return [];
      }
      return [invalidValue(`generation_config.response_modalities[${i}]`, `type.googleapis.com/${pkg}.GenerationConfig.Modality`, v)];
    });
    const refused = violationsError(violations);
    if (refused) return refused;
    image = modalities.includes("IMAGE");
    text = modalities.includes("TEXT");
    if (image && family === undefined) {
      return apiError("invalid_request", `Model does not support the requested response modalities: ${modalities.map((m) => m.toLowerCase()).join(",")}`);
    }
  }
  if (!image || family === undefined) return undefined;
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
  return { width: base[0] * scale, height: base[1] * scale, tokens: imageTokens(family, family === "flash-2.5" ? "1K" : size), text };
}

/** An image part as sent: `inlineData`'s type and base64 bytes, and the output tokens it counts. */
export interface InlineImage {
  mimeType: "image/png";
  data: string;
  tokens: number;
}

/**
 * The image a reply answers with (`reply.image`: scripted, or the default responder's for a request asking for one),
 * drawn at the request's plan (DEFAULT_IMAGE_PLAN when it asked for none); undefined when the reply has none.
 * @example replyImage({ ...reply, image: { color: "#ff0000" } }, ctx)?.mimeType // "image/png"
 */
export function replyImage(reply: Reply, ctx: RenderContext<GeminiWire> | undefined): InlineImage | undefined {
  if (reply.image === undefined) return undefined;
  const plan = ctx?.wire.image ?? DEFAULT_IMAGE_PLAN;
  const hex = pictureColor((ctx === undefined ? undefined : lastUserMessage(ctx.request)) ?? "", 0, reply.image.color);
  const bytes = encodePicture({ width: plan.width, height: plan.height, hex, transparent: false, format: "png" });
  return { mimeType: "image/png", data: base64(bytes), tokens: plan.tokens };
}
