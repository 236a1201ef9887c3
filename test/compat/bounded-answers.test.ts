/**
 * Answers whose size grows with a request field (issue 51, point 2), through the official `openai` SDK on both
 * runtimes: `audio.speech.create` past 1 MiB is streamed in bounded chunks (no content-length, chunked) with the same
 * bytes the whole encoders build, its default length capped at 5 minutes and a scripted one at 10; the SSE form sends
 * the same audio as deltas. `embeddings.create` with many inputs × dimensions past 1 MiB is streamed a vector at a
 * time, the same JSON. Memory and CPU figures: bench/bounded-answers.mjs.
 */
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SPEECH_MAX_MS, SPEECH_MAX_MS } from "../../src/providers/openai/audio/speech";
import { mp3, wav } from "../../src/providers/openai/audio/pcm";
import { hashVector, toBase64 } from "../../src/providers/openai/embeddings/render";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const client = (path = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });
const WORDS_2048 = Array.from({ length: 2048 }, () => "a").join(" ");
const samples = (ms: number) => (ms * 24_000) / 1000;

beforeAll(async () => {
  h = await startHarness();
  await h.upload(
    { name: "long-speech", steps: [{ consume: false, respond: { speech: { durationMs: 600_000 } } }] },
    { name: "long-broken", steps: [{ consume: false, failures: [{ kind: "invalid_response" }], respond: { speech: { durationMs: 600_000 } } }] },
    { name: "long-cut", steps: [{ consume: false, failures: [{ kind: "network_error" }], respond: { speech: { durationMs: 600_000 } } }] },
  );
});
afterAll(() => h?.stop());

describe("audio.speech.create: long audio", () => {
  it("2,048 words at speed 0.25 (55 minutes before): 5 minutes of WAV, streamed, byte for byte the whole file", async () => {
    const { data, response } = await client().audio.speech.create({ model: "gpt-4o-mini-tts", voice: "alloy", input: WORDS_2048, speed: 0.25, response_format: "wav" }).withResponse();
    const bytes = new Uint8Array(await data.arrayBuffer());
    expect([response.status, response.headers.get("content-type"), response.headers.get("content-length")]).toEqual([200, "audio/wav", null]);
    expect(bytes.length).toBe(44 + samples(DEFAULT_SPEECH_MAX_MS) * 2);
    expect(Buffer.from(bytes).equals(Buffer.from(wav(samples(DEFAULT_SPEECH_MAX_MS))))).toBe(true);
  });

  it("a short answer is sent whole, as before (content-length)", async () => {
    const { data, response } = await client().audio.speech.create({ model: "tts-1", voice: "alloy", input: "Hello there", response_format: "wav" }).withResponse();
    const bytes = new Uint8Array(await data.arrayBuffer());
    expect([bytes.length, response.headers.get("content-length")]).toEqual([44 + 19_200 * 2, String(44 + 19_200 * 2)]);
  });

  it("a scripted 10 minutes is answered in full (mp3), streamed", async () => {
    const res = await client("/s/long-speech/a").audio.speech.create({ model: "tts-1", voice: "alloy", input: "hi", response_format: "mp3" });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes).equals(Buffer.from(mp3(samples(SPEECH_MAX_MS))))).toBe(true);
  });

  it("scripted failures cut a streamed answer as a whole one: invalid_response its first half, network_error breaks off", async () => {
    const speech = (scenario: string) =>
      fetch(`${h.url}/s/${scenario}/f/v1/audio/speech`, {
        method: "POST",
        headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
        body: JSON.stringify({ model: "tts-1", voice: "alloy", input: "hi", response_format: "mp3" }),
      });
    const whole = mp3(samples(SPEECH_MAX_MS));
    const half = new Uint8Array(await (await speech("long-broken")).arrayBuffer());
    expect(Buffer.from(half).equals(Buffer.from(whole.subarray(0, Math.floor(whole.length / 2))))).toBe(true);
    const cut = await speech("long-cut");
    expect(cut.status).toBe(200);
    await expect(cut.arrayBuffer()).rejects.toThrow();
  });

  it("stream_format sse: the capped audio as deltas of 24,000 bytes, then done with its usage", async () => {
    const res = await client().audio.speech.create({ model: "gpt-4o-mini-tts", voice: "alloy", input: WORDS_2048, speed: 0.25, response_format: "mp3", stream_format: "sse" });
    const text = await res.text();
    const events = text
      .split("\n\n")
      .filter((e) => e.startsWith("data: "))
      .map((e) => JSON.parse(e.slice(6)) as { type: string; audio?: string; usage?: unknown });
    const audio = Buffer.concat(events.filter((e) => e.type === "speech.audio.delta").map((e) => Buffer.from(e.audio!, "base64")));
    const expected = mp3(samples(DEFAULT_SPEECH_MAX_MS));
    expect([audio.equals(Buffer.from(expected)), events.length, events.at(-1)]).toEqual([
      true,
      Math.ceil(expected.length / 24_000) + 1,
      { type: "speech.audio.done", usage: { input_tokens: 1024, output_tokens: 3750, total_tokens: 4774 } },
    ]);
  });
});

describe("embeddings.create: many inputs × dimensions", () => {
  const inputs = Array.from({ length: 200 }, (_, i) => `input ${i}`);

  it.each(["float", "base64"] as const)("200 × 3,072 (%s): streamed, the same JSON a whole answer has", async (format) => {
    const res = await fetch(`${h.url}/v1/embeddings`, {
      method: "POST",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: JSON.stringify({ model: "text-embedding-3-large", input: inputs, dimensions: 3072, encoding_format: format }),
    });
    const text = await res.text();
    expect([res.status, res.headers.get("content-type"), res.headers.get("content-length")]).toEqual([200, "application/json", null]);
    const body = JSON.parse(text) as { object: string; data: { object: string; index: number; embedding: number[] | string }[]; model: string; usage: unknown };
    expect(JSON.stringify(body)).toBe(text);
    expect([body.object, body.data.length, body.model, body.usage]).toEqual(["list", 200, "text-embedding-3-large", { prompt_tokens: 500, total_tokens: 500 }]);
    const vector = hashVector({ kind: "text", text: "input 7" }, 3072);
    expect(body.data[7]).toEqual({ object: "embedding", index: 7, embedding: format === "base64" ? toBase64(vector) : vector });
  });

  it("through the SDK (base64 decoded by it), and a small request answered whole as before", async () => {
    const res = await client().embeddings.create({ model: "text-embedding-3-large", input: inputs, dimensions: 3072 });
    expect(res.data.map((d) => d.index)).toEqual(inputs.map((_, i) => i));
    expect(res.data[199]!.embedding).toEqual(hashVector({ kind: "text", text: "input 199" }, 3072));
    const small = await fetch(`${h.url}/v1/embeddings`, {
      method: "POST",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: JSON.stringify({ model: "text-embedding-3-small", input: "hi" }),
    });
    const whole = (await small.json()) as { data: { embedding: number[] }[] };
    expect(whole.data[0]!.embedding).toEqual(hashVector({ kind: "text", text: "hi" }, 1536));
  });
});
