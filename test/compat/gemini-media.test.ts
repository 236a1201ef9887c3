/**
 * Gemini's native image and speech output through the clients that ask for them: `@google/genai`'s `generateContent`
 * with `responseModalities` / `imageConfig` (Gemini API and Vertex express mode), its stream, and the `ai` SDK's
 * `generateImage` with `google.image(…)`, `generateText`'s `files` and `generateSpeech` with `google.speech(…)`; the
 * sizes per model family and ratio, the audio's length, the usage by modality, scripted colours, lengths and text, and
 * the API's refusals.
 */
import { inflateSync } from "node:zlib";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { GoogleGenAI } from "@google/genai";
import { generateImage, generateSpeech, generateText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "gi-scripted",
    steps: [
      { match: { endpoint: "generateContent", lastUserMessage: { contains: "red" } }, respond: { text: "Here is your red square.", image: { color: "#ff0000" } } },
      { match: { lastUserMessage: { contains: "blue" } }, respond: { image: { color: "#0000ff" } } },
    ],
  },
  { name: "gs-scripted", steps: [{ consume: false, respond: { speech: { durationMs: 2500 } } }] },
  { name: "imagen-scripted", steps: [{ match: { endpoint: "images" }, respond: { image: { color: "#00ff00", revisedPrompt: "A green field, photographed at dawn" } } }] },
];

const genai = (base = h.url) => new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: base } });
const express = (base = h.url) => new GoogleGenAI({ vertexai: true, apiKey: "express-key", httpOptions: { baseUrl: base } });

/** A JPEG's width and height (its SOF0 segment). */
function jpegSize(bytes: Uint8Array): [number, number] {
  const b = Buffer.from(bytes);
  expect(b.readUInt16BE(0)).toBe(0xffd8);
  for (let at = 2; at < b.length; at += 2 + b.readUInt16BE(at + 2)) {
    if (b[at + 1] === 0xc0) return [b.readUInt16BE(at + 7), b.readUInt16BE(at + 5)];
  }
  throw new Error("no SOF0");
}

/** A PNG's width, height and the RGB of its first pixel (the image is one colour). */
function png(bytes: Uint8Array): { width: number; height: number; rgb: string } {
  const b = Buffer.from(bytes);
  expect(b.subarray(1, 4).toString()).toBe("PNG");
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  let at = 8;
  const idat: Buffer[] = [];
  while (at < b.length) {
    const length = b.readUInt32BE(at);
    if (b.subarray(at + 4, at + 8).toString() === "IDAT") idat.push(b.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  expect(raw.length).toBe(height * (1 + width * 3));
  return { width, height, rgb: raw.subarray(1, 4).toString("hex") };
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS, { name: "gs-long", steps: [{ respond: { speech: { durationMs: 30_000 } } }] });
});
afterAll(() => h?.stop());

describe("@google/genai", () => {
  it("responseModalities IMAGE: one inlineData PNG at the ratio's size, the image's tokens by modality, no text", async () => {
    const res = await genai().models.generateContent({ model: "gemini-2.5-flash-image", contents: "A bicycle", config: { responseModalities: ["IMAGE"], imageConfig: { aspectRatio: "16:9" } } });
    const parts = res.candidates![0]!.content!.parts!;
    expect(parts.map((p) => Object.keys(p))).toEqual([["inlineData"]]);
    expect(parts[0]!.inlineData!.mimeType).toBe("image/png");
    const image = png(Buffer.from(parts[0]!.inlineData!.data!, "base64"));
    expect([image.width, image.height]).toEqual([1344, 768]);
    expect(res.candidates![0]!.finishReason).toBe("STOP");
    expect(res.usageMetadata).toEqual({
      promptTokenCount: res.usageMetadata!.promptTokenCount,
      candidatesTokenCount: 1290,
      totalTokenCount: res.usageMetadata!.promptTokenCount! + 1290,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: res.usageMetadata!.promptTokenCount }],
      candidatesTokensDetails: [{ modality: "IMAGE", tokenCount: 1290 }],
    });
    // The same prompt draws the same picture; another prompt another colour.
    const again = await genai().models.generateContent({ model: "gemini-2.5-flash-image", contents: "A bicycle", config: { responseModalities: ["IMAGE"], imageConfig: { aspectRatio: "16:9" } } });
    expect(again.candidates![0]!.content!.parts![0]!.inlineData!.data).toBe(parts[0]!.inlineData!.data);
    const other = await genai().models.generateContent({ model: "gemini-2.5-flash-image", contents: "A boat", config: { responseModalities: ["IMAGE"] } });
    const otherImage = png(Buffer.from(other.candidates![0]!.content!.parts![0]!.inlineData!.data!, "base64"));
    expect([otherImage.width, otherImage.height]).toEqual([1024, 1024]);
    expect(otherImage.rgb).not.toBe(image.rgb);
  });

  it("an image model asked nothing answers text, then the image; Gemini 3 Pro Image at 2K and 4K", async () => {
    const res = await genai().models.generateContent({ model: "gemini-3-pro-image-preview", contents: "A cat", config: { imageConfig: { aspectRatio: "21:9", imageSize: "2K" } } });
    const parts = res.candidates![0]!.content!.parts!;
    expect(parts.map((p) => Object.keys(p).sort())).toEqual([["text", "thoughtSignature"], ["inlineData"]]);
    const image = png(Buffer.from(parts[1]!.inlineData!.data!, "base64"));
    expect([image.width, image.height]).toEqual([3168, 1344]);
    const usage = res.usageMetadata!;
    expect(usage.candidatesTokensDetails).toEqual([
      { modality: "IMAGE", tokenCount: 1120 },
      { modality: "TEXT", tokenCount: usage.candidatesTokenCount! - 1120 },
    ]);
    const big = await genai().models.generateContent({ model: "gemini-3-pro-image-preview", contents: "A cat", config: { responseModalities: ["IMAGE"], imageConfig: { imageSize: "4K" } } });
    const bigImage = png(Buffer.from(big.candidates![0]!.content!.parts![0]!.inlineData!.data!, "base64"));
    expect([bigImage.width, bigImage.height]).toEqual([4096, 4096]);
    expect(big.usageMetadata!.candidatesTokenCount).toBe(2000);
  });

  it("a stream sends the text in pieces, then the image whole in its own chunk, the image's tokens counted at the end", async () => {
    const chunks: { parts: string[]; candidates?: number }[] = [];
    for await (const c of await genai().models.generateContentStream({ model: "gemini-2.5-flash-image", contents: "A kite", config: { responseModalities: ["TEXT", "IMAGE"] } })) {
      chunks.push({ parts: c.candidates![0]!.content!.parts!.map((p) => Object.keys(p).join("+")), candidates: c.usageMetadata?.candidatesTokenCount });
    }
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.slice(0, -1).every((c) => c.parts.join() === "text")).toBe(true);
    expect(chunks.at(-1)!.parts).toEqual(["inlineData"]);
    const textTokens = chunks.at(-2)!.candidates!;
    expect(chunks.at(-1)!.candidates).toBe(textTokens + 1290);
  });

  it("a scenario scripts the colour and the text beside it; an image alone has no empty text part", async () => {
    const res = await genai(`${h.url}/s/gi-scripted/s1`).models.generateContent({ model: "gemini-2.5-flash-image", contents: "Draw red", config: { responseModalities: ["TEXT", "IMAGE"] } });
    const parts = res.candidates![0]!.content!.parts!;
    expect(parts[0]).toEqual({ text: "Here is your red square." });
    expect(png(Buffer.from(parts[1]!.inlineData!.data!, "base64")).rgb).toBe("ff0000");
    const blue = await genai(`${h.url}/s/gi-scripted/s1`).models.generateContent({
      model: "gemini-2.5-flash-image",
      contents: "Now blue",
      config: { responseModalities: ["IMAGE"], imageConfig: { aspectRatio: "3:4" } },
    });
    const blueParts = blue.candidates![0]!.content!.parts!;
    expect(blueParts.map((p) => Object.keys(p))).toEqual([["inlineData"]]);
    expect(png(Buffer.from(blueParts[0]!.inlineData!.data!, "base64"))).toEqual({ width: 864, height: 1184, rgb: "0000ff" });
    const journal = await h.journal("gi-scripted", "s1");
    expect(journal.map((e) => [e.endpoint, e.step, e.outcome])).toEqual([
      ["generateContent", "step-1", "response"],
      ["generateContent", "step-2", "response"],
    ]);
  });

  it("refuses IMAGE of a text model, an unknown modality, and a ratio or size the model does not draw", async () => {
    const refused = async (model: string, config: Record<string, unknown>) => {
      const err = (await genai()
        .models.generateContent({ model, contents: "x", config })
        .catch((e: unknown) => e)) as { status: number; message: string };
      expect(err.status).toBe(400);
      return JSON.parse(err.message).error as { message: string; status: string };
    };
    expect(await refused("gemini-2.5-flash", { responseModalities: ["TEXT", "IMAGE"] })).toMatchObject({
      message: "Model does not support the requested response modalities: text,image",
      status: "INVALID_ARGUMENT",
    });
    expect((await refused("gemini-2.5-flash-image", { responseModalities: ["VIDEO"] })).message).toBe(
      `Invalid value at 'generation_config.response_modalities[0]' (type.googleapis.com/google.ai.generativelanguage.v1.GenerationConfig.Modality), "VIDEO"`,
    );
    expect((await refused("gemini-2.5-flash-image", { imageConfig: { aspectRatio: "7:5" } })).message).toMatch(
      /^Unsupported aspect ratio "7:5" for model gemini-2\.5-flash-image\. Supported aspect ratios: 1:1, 2:3, /,
    );
    expect((await refused("gemini-3-pro-image-preview", { imageConfig: { imageSize: "2k" } })).message).toBe(
      'Unsupported image size "2k" for model gemini-3-pro-image-preview. Supported image sizes: 1K, 2K, 4K.',
    );
    // A text model asked for text only is not an image request.
    const text = await genai().models.generateContent({ model: "gemini-2.5-flash", contents: "x", config: { responseModalities: ["TEXT"] } });
    expect(text.candidates![0]!.content!.parts!.every((p) => p.text !== undefined)).toBe(true);
  });

  it("Vertex AI (express mode) answers the same image", async () => {
    const res = await express(`${h.url}/s/gi-scripted/vx`).models.generateContent({ model: "gemini-2.5-flash-image", contents: "red please", config: { responseModalities: ["TEXT", "IMAGE"] } });
    const parts = res.candidates![0]!.content!.parts!;
    expect(parts[0]!.text).toBe("Here is your red square.");
    expect(png(Buffer.from(parts[1]!.inlineData!.data!, "base64"))).toEqual({ width: 1024, height: 1024, rgb: "ff0000" });
  });
});

describe("ai SDK with @ai-sdk/google", () => {
  it("generateImage with google.image(…) gets the picture at the aspect ratio, and the image's usage", async () => {
    const google = createGoogleGenerativeAI({ apiKey: "k", baseURL: `${h.url}/v1beta` });
    const res = await generateImage({ model: google.image("gemini-2.5-flash-image"), prompt: "A lighthouse", aspectRatio: "4:3" });
    expect(res.images).toHaveLength(1);
    expect(res.images[0]!.mediaType).toBe("image/png");
    expect(png(res.images[0]!.uint8Array)).toMatchObject({ width: 1184, height: 864 });
    expect(res.usage.outputTokens).toBe(1290);
  });

  it("generateText with TEXT and IMAGE returns the text and the image as a file; 3.1 Flash Image's 8:1 at 4K", async () => {
    const google = createGoogleGenerativeAI({ apiKey: "k", baseURL: `${h.url}/s/gi-scripted/ai/v1beta` });
    const res = await generateText({
      model: google("gemini-3.1-flash-image-preview"),
      prompt: "red banner",
      providerOptions: { google: { responseModalities: ["TEXT", "IMAGE"], imageConfig: { aspectRatio: "8:1", imageSize: "4K" } } },
    });
    expect(res.text).toBe("Here is your red square.");
    expect(res.files).toHaveLength(1);
    expect(png(res.files[0]!.uint8Array)).toEqual({ width: 12288, height: 1536, rgb: "ff0000" });
  });
});

describe("speech (TTS models)", () => {
  const tts = (base = h.url) =>
    genai(base).models.generateContent({
      model: "gemini-2.5-flash-preview-tts",
      contents: "Say cheerfully: have a wonderful day",
      config: { responseModalities: ["AUDIO"], speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } } } },
    });

  it("@google/genai: one inlineData part of 24 kHz PCM, the prompt's words at 2.5 a second, 32 tokens a second", async () => {
    const res = await tts();
    const parts = res.candidates![0]!.content!.parts!;
    expect(parts.map((p) => Object.keys(p))).toEqual([["inlineData"]]);
    expect(parts[0]!.inlineData!.mimeType).toBe("audio/L16;codec=pcm;rate=24000");
    // Six words: 2.4 s, 57,600 samples.
    const pcm = Buffer.from(parts[0]!.inlineData!.data!, "base64");
    expect(pcm.length).toBe(2 * 57_600);
    expect(res.usageMetadata!.candidatesTokenCount).toBe(77);
    expect(res.usageMetadata!.candidatesTokensDetails).toEqual([{ modality: "AUDIO", tokenCount: 77 }]);
  });

  it("a scenario scripts the length; a stream sends the audio a second a chunk, joined the same", async () => {
    const whole = await tts(`${h.url}/s/gs-scripted/a`);
    const data = whole.candidates![0]!.content!.parts![0]!.inlineData!.data!;
    expect(Buffer.from(data, "base64").length).toBe(2.5 * 48_000);
    const chunks: string[] = [];
    let tokens = 0;
    for await (const c of await genai(`${h.url}/s/gs-scripted/a`).models.generateContentStream({ model: "gemini-2.5-flash-preview-tts", contents: "hi", config: { responseModalities: ["AUDIO"] } })) {
      chunks.push(c.candidates![0]!.content!.parts![0]!.inlineData!.data!);
      tokens = c.usageMetadata!.candidatesTokenCount!;
    }
    expect(chunks.map((d) => d.length)).toEqual([64_000, 64_000, 32_000]);
    expect(chunks.join("")).toBe(data);
    expect(tokens).toBe(80);
  });

  it("a long answer is sent as it is made, the same bytes", async () => {
    const res = await fetch(`${h.url}/s/gs-long/a/v1beta/models/gemini-2.5-flash-preview-tts:generateContent`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": "k" },
      body: JSON.stringify({ contents: [{ parts: [{ text: "x" }] }], generationConfig: { responseModalities: ["AUDIO"] } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { candidates: { content: { parts: { inlineData: { data: string } }[] } }[]; usageMetadata: { candidatesTokenCount: number } };
    const pcm = Buffer.from(body.candidates[0]!.content.parts[0]!.inlineData.data, "base64");
    expect(pcm.length).toBe(30 * 48_000);
    expect(pcm.subarray(48_000, 48_120)).toEqual(pcm.subarray(0, 120));
    expect(body.usageMetadata.candidatesTokenCount).toBe(960);
  });

  it("the ai SDK's generateSpeech with google.speech(…) gets WAV of that audio", async () => {
    const google = createGoogleGenerativeAI({ apiKey: "k", baseURL: `${h.url}/s/gs-scripted/ai/v1beta` });
    const res = await generateSpeech({ model: google.speech("gemini-2.5-flash-preview-tts"), text: "Hello there", voice: "Kore" });
    const wav = Buffer.from(res.audio.uint8Array);
    expect(wav.subarray(0, 4).toString()).toBe("RIFF");
    expect(wav.readUInt32LE(24)).toBe(24_000);
    expect(wav.length).toBe(44 + 2.5 * 48_000);
  });

  it("refuses AUDIO of a text model, and TEXT of a TTS model", async () => {
    const err = (await genai()
      .models.generateContent({ model: "gemini-2.5-flash", contents: "x", config: { responseModalities: ["AUDIO"] } })
      .catch((e: unknown) => e)) as { status: number; message: string };
    expect([err.status, JSON.parse(err.message).error.message]).toEqual([400, "Model does not support the requested response modalities: audio"]);
  });
});

describe("Imagen (:predict)", () => {
  const vertex = (base = h.url) => new GoogleGenAI({ vertexai: true, apiKey: "express-key", httpOptions: { baseUrl: base } });

  it("@google/genai generateImages on Vertex: sampleCount pictures at the ratio's size, PNG by default, the colours differ by index", async () => {
    const res = await vertex().models.generateImages({ model: "imagen-4.0-generate-001", prompt: "A lighthouse", config: { numberOfImages: 3, aspectRatio: "9:16" } });
    const images = res.generatedImages!.map((g) => png(Buffer.from(g.image!.imageBytes!, "base64")));
    expect(images.map((i) => [i.width, i.height])).toEqual([
      [768, 1408],
      [768, 1408],
      [768, 1408],
    ]);
    expect(new Set(images.map((i) => i.rgb)).size).toBe(3);
    expect(res.generatedImages!.map((g) => [g.image!.mimeType, g.enhancedPrompt])).toEqual([
      ["image/png", undefined],
      ["image/png", undefined],
      ["image/png", undefined],
    ]);
    // Imagen's default is four pictures.
    const four = await vertex().models.generateImages({ model: "imagen-4.0-generate-001", prompt: "A lighthouse" });
    expect(four.generatedImages).toHaveLength(4);
    // The same prompt's first picture has the same colour, whatever its size.
    expect(png(Buffer.from(four.generatedImages![0]!.image!.imageBytes!, "base64"))).toEqual({ width: 1024, height: 1024, rgb: images[0]!.rgb });
  });

  it("a scenario scripts the colour and the enhanced prompt; JPEG at 2K when asked", async () => {
    const res = await vertex(`${h.url}/s/imagen-scripted/a`).models.generateImages({
      model: "imagen-4.0-ultra-generate-001",
      prompt: "A field",
      config: { numberOfImages: 1, aspectRatio: "4:3", imageSize: "2K", outputMimeType: "image/jpeg", enhancePrompt: true },
    });
    const image = res.generatedImages![0]!;
    expect([image.image!.mimeType, image.enhancedPrompt]).toEqual(["image/jpeg", "A green field, photographed at dawn"]);
    expect(jpegSize(Buffer.from(image.image!.imageBytes!, "base64"))).toEqual([2560, 1792]);
    const journal = await h.journal("imagen-scripted", "a");
    expect(journal.map((e) => [e.provider, e.endpoint, e.step, e.outcome])).toEqual([["vertex", "images", "step-1", "response"]]);
  });

  it("the Gemini API's path answers the same body; refusals are 400s naming the parameter", async () => {
    const post = (body: unknown) =>
      fetch(`${h.url}/v1beta/models/imagen-4.0-generate-001:predict`, { method: "POST", headers: { "content-type": "application/json", "x-goog-api-key": "k" }, body: JSON.stringify(body) });
    const ok = await post({ instances: [{ prompt: "A kite" }], parameters: { sampleCount: 1 } });
    const body = (await ok.json()) as { predictions: { bytesBase64Encoded: string; mimeType: string }[] };
    expect(body.predictions.map((p) => [p.mimeType, png(Buffer.from(p.bytesBase64Encoded, "base64")).width])).toEqual([["image/png", 1024]]);
    const refused = async (b: unknown) => {
      const r = await post(b);
      return [r.status, ((await r.json()) as { error: { message: string } }).error.message];
    };
    expect(await refused({ instances: [{ prompt: "A kite" }], parameters: { sampleCount: 5 } })).toEqual([400, "Invalid value for parameters.sampleCount: 5; it must be an integer from 1 to 4."]);
    expect(await refused({ instances: [] })).toEqual([400, "instances must hold exactly one instance: { prompt }."]);
    expect(await refused({ instances: [{ prompt: "x" }], parameters: { sampleImageSize: "4K" } })).toEqual([400, 'Invalid value for parameters.sampleImageSize: "4K"; it must be "1K" or "2K".']);
    expect(await refused({ instances: [{ prompt: "x" }], parameters: { storageUri: "gs://b/o" } })).toEqual([
      400,
      "mockllm does not write to Cloud Storage: send no parameters.storageUri, and the images come back inline.",
    ]);
  });
});
