/**
 * Gemini's image output plan (src/providers/gemini/media-output.ts): which requests ask for an image, the size each
 * model family draws for a ratio and size, the output tokens, the refusals; and where the image part goes among the
 * reply's parts (render-json.ts).
 */
import { describe, expect, it } from "vitest";
import type { Reply } from "../../src/canonical/outcome";
import {
  DEFAULT_IMAGE_PLAN,
  imageFamily,
  isSpeechModel,
  mediaPlan,
  replyMedia,
  speechBase64Length,
  speechLength,
  speechPieces,
  type InlineMedia,
  mediaPieceRanges,
} from "../../src/providers/gemini/media-output";
import { renderGenerateContentJson, renderSpeechRaw, replyParts, usageMetadata, wirePart } from "../../src/providers/gemini/render-json";
import { resolveReply } from "../../src/scenario/engine";
import type { CanonicalRequest } from "../../src/canonical/request";

const PKG = "google.ai.generativelanguage.v1beta";
/** A generateContent request to `model` whose one user message is `text`. */
const generateContent = (model: string, text: string) =>
  ({ provider: "gemini", endpoint: "generateContent", model, stream: false, system: "", messages: [{ role: "user", text }], tools: [], reasoning: "disabled", headers: {} }) as CanonicalRequest;
const plan = (model: string, config?: Record<string, unknown>) => mediaPlan(model, config, PKG);
const size = (model: string, imageConfig: Record<string, unknown>) => {
  const p = plan(model, { responseModalities: ["IMAGE"], imageConfig });
  if (p === undefined || !("width" in p)) throw new Error(`no plan: ${JSON.stringify(p)}`);
  return [p.width, p.height, p.tokens];
};

describe("mediaPlan", () => {
  it("names the families by model id", () => {
    expect(["gemini-2.5-flash-image", "gemini-2.5-flash-image-preview", "gemini-2.0-flash-preview-image-generation", "gemini-2.0-flash-exp"].map(imageFamily)).toEqual([
      "flash-2.5",
      "flash-2.5",
      "flash-2.5",
      "flash-2.5",
    ]);
    expect(["gemini-3-pro-image-preview", "gemini-3.1-flash-image-preview", "gemini-2.5-flash", "gemini-3-pro-preview"].map(imageFamily)).toEqual(["pro-3", "flash-3.1", undefined, undefined]);
  });

  it("asks for an image when IMAGE is named, or of an image model asked nothing; text unless only IMAGE is named", () => {
    expect(plan("gemini-2.5-flash-image")).toEqual({ kind: "image", width: 1024, height: 1024, tokens: 1290, text: true });
    expect(plan("gemini-2.5-flash-image", { responseModalities: ["image"] })).toEqual({ kind: "image", width: 1024, height: 1024, tokens: 1290, text: false });
    expect(plan("gemini-2.5-flash-image", { responseModalities: ["TEXT"] })).toBeUndefined();
    expect(plan("gemini-2.5-flash", {})).toBeUndefined();
    expect(plan("gemini-2.5-flash", { responseModalities: ["TEXT"] })).toBeUndefined();
  });

  it("draws each family's size for the ratio and size, with its token count", () => {
    expect(size("gemini-2.5-flash-image", { aspectRatio: "21:9" })).toEqual([1536, 672, 1290]);
    expect(size("gemini-2.5-flash-image", { aspectRatio: "2:3", imageSize: "4K" })).toEqual([832, 1248, 1290]);
    expect(size("gemini-3-pro-image-preview", { aspectRatio: "16:9" })).toEqual([1376, 768, 1120]);
    expect(size("gemini-3-pro-image-preview", { aspectRatio: "4:5", imageSize: "2K" })).toEqual([1856, 2304, 1120]);
    expect(size("gemini-3-pro-image-preview", { aspectRatio: "9:16", imageSize: "4K" })).toEqual([3072, 5504, 2000]);
    expect(size("gemini-3.1-flash-image-preview", { aspectRatio: "1:8", imageSize: "512" })).toEqual([192, 1536, 1120]);
    expect(size("gemini-3.1-flash-image-preview", { aspectRatio: "4:1", imageSize: "1K" })).toEqual([2048, 512, 1120]);
  });

  it("refuses IMAGE of a text model, an unknown modality, a ratio or size the model lacks", () => {
    expect(plan("gemini-2.5-flash", { responseModalities: ["IMAGE", "TEXT"] })).toEqual({
      code: "invalid_request",
      message: "Model does not support the requested response modalities: image,text",
    });
    const unknown = plan("gemini-2.5-flash-image", { responseModalities: ["TEXT", 7] }) as { message: string };
    expect(unknown.message).toBe(`Invalid value at 'generation_config.response_modalities[1]' (type.googleapis.com/${PKG}.GenerationConfig.Modality), 7`);
    expect((plan("gemini-3-pro-image-preview", { imageConfig: { aspectRatio: "8:1" } }) as { message: string }).message).toBe(
      'Unsupported aspect ratio "8:1" for model gemini-3-pro-image-preview. Supported aspect ratios: 1:1, 2:3, 3:2, 3:4, 4:3, 4:5, 5:4, 9:16, 16:9, 21:9.',
    );
    expect((plan("gemini-3-pro-image-preview", { imageConfig: { imageSize: "512" } }) as { message: string }).message).toBe(
      'Unsupported image size "512" for model gemini-3-pro-image-preview. Supported image sizes: 1K, 2K, 4K.',
    );
    expect((plan("gemini-2.5-flash-image", { imageConfig: { imageSize: "8K" } }) as { message: string }).message).toBe(
      'Unsupported image size "8K" for model gemini-2.5-flash-image. Supported image sizes: 1K.',
    );
  });
});

describe("speech", () => {
  const request = generateContent("gemini-2.5-flash-preview-tts", "one two three four five");
  const ctx = { wire: { media: { kind: "audio", text: false } }, request } as never;
  const speech = (durationMs?: number): Reply => ({ ...resolveReply(undefined, { respond: { speech: durationMs === undefined ? {} : { durationMs } } } as never, request, "seed") });

  it("TTS models answer AUDIO only; AUDIO of another model, or TEXT of a TTS model, is refused", () => {
    expect(["gemini-2.5-flash-preview-tts", "gemini-2.5-pro-preview-tts", "gemini-2.5-flash-tts", "gemini-2.5-flash"].map(isSpeechModel)).toEqual([true, true, true, false]);
    expect(plan("gemini-2.5-flash-preview-tts", { responseModalities: ["AUDIO"] })).toEqual({ kind: "audio", text: false });
    expect(plan("gemini-2.5-flash-preview-tts")).toEqual({ kind: "audio", text: false });
    expect(plan("gemini-2.5-flash", { responseModalities: ["AUDIO"] })).toEqual({ code: "invalid_request", message: "Model does not support the requested response modalities: audio" });
    expect(plan("gemini-2.5-flash-preview-tts", { responseModalities: ["TEXT"] })).toEqual({ code: "invalid_request", message: "Model does not support the requested response modalities: text" });
  });

  it("is 24 kHz 16-bit PCM as long as scripted, else the prompt's words at 2.5 a second; 32 tokens a second", () => {
    const scripted = replyMedia(speech(1500), ctx)!;
    expect([scripted.modality, scripted.mimeType, scripted.tokens]).toEqual(["AUDIO", "audio/L16;codec=pcm;rate=24000", 48]);
    const bytes = Buffer.from(scripted.data, "base64");
    expect(bytes.length).toBe(1.5 * 24_000 * 2);
    expect(bytes.readInt16LE(0)).toBe(0);
    expect(bytes.readInt16LE(30)).toBe(1000);
    // Five words: two seconds.
    const spoken = replyMedia(speech(), ctx)!;
    expect(Buffer.from(spoken.data, "base64").length).toBe(2 * 24_000 * 2);
    expect(spoken.tokens).toBe(64);
  });

  it("its pieces join to the whole, a second each, and their length is known without making them", () => {
    const reply = speech(2_250);
    const pieces = [...speechPieces(speechLength(reply, ctx))];
    expect(pieces.map((p) => p.length)).toEqual([64_000, 64_000, 16_000]);
    expect(pieces.join("")).toBe(replyMedia(reply, ctx)!.data);
    expect(speechBase64Length(speechLength(reply, ctx))).toBe(144_000);
    expect(speechBase64Length(speechLength(speech(1), ctx))).toBe(Buffer.from(replyMedia(speech(1), ctx)!.data, "base64").toString("base64").length);
  });
});

describe("a long speech answer sent as it is made", () => {
  const request = generateContent("gemini-2.5-flash-preview-tts", "x");
  const ctx = { wire: { method: "generateContent", media: { kind: "audio", text: false } }, request } as never;

  it("is byte for byte the whole body, past 1 MiB only; a text holding the mark's characters does not move it", () => {
    const reply = (durationMs: number, text?: string): Reply => ({
      ...resolveReply(undefined, { respond: { speech: { durationMs }, ...(text !== undefined ? { text } : {}) } } as never, request, "seed"),
    });
    expect(renderSpeechRaw(reply(10_000), ctx)).toBeUndefined();
    for (const r of [reply(20_500), reply(20_500, '"data":"\u0000mockllm:speech\u0000"')]) {
      const raw = renderSpeechRaw(r, ctx)!;
      const pieces = (raw.body as { pieces: () => Iterator<string> }).pieces;
      const joined = [...({ [Symbol.iterator]: pieces } as Iterable<string>)].join("");
      expect(joined.length).toBeGreaterThan(1024 * 1024);
      expect(joined).toBe(JSON.stringify(renderGenerateContentJson(r, ctx)));
    }
  });
});

describe("the image among the parts", () => {
  const request = generateContent("gemini-3-pro-image-preview", "x");
  const image: InlineMedia = { modality: "IMAGE", mimeType: "image/png", data: "iVBO", tokens: 1120 };
  const reply = (respond: Record<string, unknown>): Reply => resolveReply(undefined, { respond } as never, request, "seed");

  it("comes after the text; alone (no empty text part) it carries a Gemini 3 model's signature", () => {
    const withText = replyParts({ ...reply({ text: "Here", image: {} }), model: "gemini-3-pro-image-preview" }, image).map(wirePart);
    expect(withText.map((p) => Object.keys(p))).toEqual([["text", "thoughtSignature"], ["inlineData"]]);
    const alone = replyParts({ ...reply({ image: {} }), model: "gemini-3-pro-image-preview" }, image).map(wirePart);
    expect(alone).toEqual([{ inlineData: { mimeType: "image/png", data: "iVBO" }, thoughtSignature: expect.any(String) }]);
  });

  it("counts its tokens on top of the text's, by modality", () => {
    const r = { ...reply({ text: "Here", usage: { inputTokens: 5, outputTokens: 3 } }) };
    expect(usageMetadata(r, 1, { modality: "IMAGE", tokens: 1290 })).toEqual({
      promptTokenCount: 5,
      candidatesTokenCount: 1293,
      totalTokenCount: 1298,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: 5 }],
      candidatesTokensDetails: [
        { modality: "IMAGE", tokenCount: 1290 },
        { modality: "TEXT", tokenCount: 3 },
      ],
    });
    expect(DEFAULT_IMAGE_PLAN).toEqual({ kind: "image", width: 1024, height: 1024, tokens: 1290, text: true });
  });
});

describe("mediaPieceRanges", () => {
  it("an image whole; speech a second (64,000 base64 characters) a piece; never no piece", () => {
    expect(mediaPieceRanges("IMAGE", 200_000)).toEqual([[0, 200_000]]);
    expect(mediaPieceRanges("AUDIO", 64_000)).toEqual([[0, 64_000]]);
    expect(mediaPieceRanges("AUDIO", 140_000)).toEqual([
      [0, 64_000],
      [64_000, 128_000],
      [128_000, 140_000],
    ]);
    expect(mediaPieceRanges("AUDIO", 0)).toEqual([[0, 0]]);
  });
});
