/**
 * Images and audio with the official `openai` SDK on both runtimes: `images.generate` (b64 and a url it fetches),
 * `images.edit` with `toFile`, `audio.speech.create` (a WAV it parses), `audio.transcriptions.create` in every
 * response format and streamed, `audio.translations.create`, and a scripted 429 the SDK surfaces.
 */
import { inflateSync } from "node:zlib";
import OpenAI, { RateLimitError, toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const client = (path = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });

/** Width, height and the first pixel of a PNG, decoded with node:zlib (an inflater mockllm does not share). */
function png(bytes: Buffer): { width: number; height: number; pixel: number[] } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const idatLen = bytes.readUInt32BE(33);
  const raw = inflateSync(bytes.subarray(41, 41 + idatLen));
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), pixel: [...raw.subarray(1, 4)] };
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload({
    name: "media-sdk",
    steps: [
      { id: "img", match: { endpoint: "images" }, respond: { image: { color: "#102030" } } },
      { id: "stt", match: { endpoint: "transcriptions" }, failures: [{ kind: "rate_limit", retryAfterMs: 1000 }], respond: { transcript: "scripted words" } },
    ],
  });
});
afterAll(() => h?.stop());

describe("images", () => {
  it("generate: b64_json decodes as a PNG of the asked size", async () => {
    const res = await client().images.generate({ model: "gpt-image-1", prompt: "a lighthouse", size: "1024x1536", quality: "low" });
    const img = png(Buffer.from(res.data![0]!.b64_json!, "base64"));
    expect([img.width, img.height]).toEqual([1024, 1536]);
    expect(res.usage).toMatchObject({ output_tokens: 408, input_tokens: 3 });
    expect(res.size).toBe("1024x1536");
  });

  it("generate: a url the client can fetch", async () => {
    const res = await client().images.generate({ model: "dall-e-3", prompt: "a cat", response_format: "url" });
    expect(res.data![0]!.revised_prompt).toBe("a cat");
    const file = await fetch(res.data![0]!.url!);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(png(Buffer.from(await file.arrayBuffer())).width).toBe(1024);
  });

  it("edit with toFile, scripted colour", async () => {
    const image = await toFile(Buffer.from([0x89, 0x50, 0x4e, 0x47]), "in.png", { type: "image/png" });
    const res = await client("/s/media-sdk/e1").images.edit({ model: "gpt-image-1", image, prompt: "make it dark", size: "1024x1024" });
    expect(png(Buffer.from(res.data![0]!.b64_json!, "base64"))).toEqual({ width: 1024, height: 1024, pixel: [0x10, 0x20, 0x30] });
  });

  it("stream: partial and completed events", async () => {
    const stream = await client().images.generate({ model: "gpt-image-1", prompt: "sea", stream: true, partial_images: 1 });
    const types: string[] = [];
    for await (const e of stream) types.push(e.type);
    expect(types).toEqual(["image_generation.partial_image", "image_generation.completed"]);
  });
});

describe("audio", () => {
  it("speech.create: a WAV with OpenAI's 24 kHz mono 16-bit format", async () => {
    const res = await client().audio.speech.create({ model: "gpt-4o-mini-tts", voice: "alloy", input: "Hello there, how are you?", response_format: "wav" });
    const wav = Buffer.from(await res.arrayBuffer());
    expect(wav.toString("ascii", 0, 4)).toBe("RIFF");
    expect([wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34), wav.readUInt32LE(40)]).toEqual([1, 24_000, 16, 96_000]);
  });

  it("transcriptions.create in every response format", async () => {
    const file = () => toFile(Buffer.alloc(64), "clip.wav", { type: "audio/wav" });
    const c = client();
    const json = await c.audio.transcriptions.create({ model: "whisper-1", file: await file() });
    expect(json.text).toBe("The quick brown fox jumps over the lazy dog.");
    const text = await c.audio.transcriptions.create({ model: "whisper-1", file: await file(), response_format: "text" });
    expect(text).toBe("The quick brown fox jumps over the lazy dog.\n");
    const srt = await c.audio.transcriptions.create({ model: "whisper-1", file: await file(), response_format: "srt" });
    expect(srt).toBe("1\n00:00:00,000 --> 00:00:03,600\nThe quick brown fox jumps over the lazy dog.\n\n");
    const vtt = await c.audio.transcriptions.create({ model: "whisper-1", file: await file(), response_format: "vtt" });
    expect(vtt.startsWith("WEBVTT\n\n00:00:00.000 --> 00:00:03.600\n")).toBe(true);
    const verbose = await c.audio.transcriptions.create({ model: "whisper-1", file: await file(), response_format: "verbose_json", timestamp_granularities: ["word", "segment"] });
    expect([verbose.language, verbose.duration, verbose.segments?.length, verbose.words?.length]).toEqual(["english", 3.6, 1, 9]);
    const translated = await c.audio.translations.create({ model: "whisper-1", file: await file() });
    expect(translated.text).toBe("The quick brown fox jumps over the lazy dog.");
  });

  it("transcriptions.create streamed: deltas then done", async () => {
    const stream = await client().audio.transcriptions.create({ model: "gpt-4o-mini-transcribe", file: await toFile(Buffer.alloc(8), "a.mp3"), stream: true });
    const seen: string[] = [];
    for await (const e of stream) seen.push(e.type === "transcript.text.delta" ? e.delta : `[${e.type}]`);
    expect(seen).toEqual(["The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog.", "[transcript.text.done]"]);
  });

  it("a scripted 429 surfaces as RateLimitError, then the scripted transcript", async () => {
    const c = client("/s/media-sdk/t1");
    const err = await c.audio.transcriptions.create({ model: "whisper-1", file: await toFile(Buffer.alloc(8), "a.wav") }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((await c.audio.transcriptions.create({ model: "whisper-1", file: await toFile(Buffer.alloc(8), "a.wav") })).text).toBe("scripted words");
  });
});
