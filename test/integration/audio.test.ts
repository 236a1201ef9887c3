/**
 * OpenAI audio on both runtimes: speech as real WAV/PCM/FLAC/MP3 bytes of a duration that follows the text, its SSE
 * form; transcriptions and translations from multipart uploads in every response format, streamed; limits, garbage,
 * scripting, the journal.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, upload } from "./helpers";
import { fromBase64, parseWav } from "./media-helpers";

const AUTH = { authorization: "Bearer sk-test" };

function speech(body: unknown, prefix = ""): Promise<Response> {
  return call(`${prefix}/v1/audio/speech`, { method: "POST", headers: { ...AUTH, "content-type": "application/json" }, body: JSON.stringify(body) });
}

function transcribe(fields: Record<string, string | string[]>, file: [string, string, number] | null = ["clip.wav", "audio/wav", 44], path = "/v1/audio/transcriptions"): Promise<Response> {
  const form = new FormData();
  if (file) form.append("file", new Blob([new Uint8Array(file[2])], { type: file[1] }), file[0]);
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) form.append(k, x);
  return call(path, { method: "POST", headers: AUTH, body: form });
}

beforeAll(async () => {
  await upload({
    name: "voice",
    steps: [
      { id: "tts", match: { endpoint: "speech" }, respond: { speech: { durationMs: 500 } } },
      { id: "stt", match: { endpoint: "transcriptions", lastUserMessage: "meeting.mp3" }, respond: { transcript: { text: "Bonjour tout le monde. Merci.", language: "french", durationSeconds: 4 } } },
      {
        id: "flaky",
        match: { endpoint: "transcriptions" },
        failures: [{ kind: "http", status: 503, body: { error: { message: "busy", type: "server_error" } } }],
        respond: { transcript: "second try" },
      },
    ],
  });
}, 60_000);

describe("speech", () => {
  it("wav: a 24 kHz mono 16-bit RIFF file whose length follows the words (2.5 per second) and speed", async () => {
    const res = await speech({ model: "gpt-4o-mini-tts", input: "one two three four five", voice: "alloy", response_format: "wav" });
    expect(res.headers.get("content-type")).toBe("audio/wav");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(parseWav(bytes)).toEqual({ riffSize: 36 + 96_000, channels: 1, sampleRate: 24_000, byteRate: 48_000, bitsPerSample: 16, dataBytes: 96_000 });
    expect(bytes.length).toBe(44 + 96_000);
    const fast = new Uint8Array(await (await speech({ model: "tts-1", input: "one two three four five", voice: "alloy", response_format: "wav", speed: 2 })).arrayBuffer());
    expect(parseWav(fast).dataBytes).toBe(48_000);
    const samples = new DataView(bytes.buffer, 44);
    const peak = Math.max(...Array.from({ length: 60 }, (_, i) => Math.abs(samples.getInt16(i * 2, true))));
    expect(peak).toBe(1000);
  });

  it("pcm is the same samples without a header; flac and mp3 carry their own framing; opus is refused", async () => {
    const body = { model: "tts-1", input: "hello there", voice: "nova" };
    const pcm = new Uint8Array(await (await speech({ ...body, response_format: "pcm" })).arrayBuffer());
    const wav = new Uint8Array(await (await speech({ ...body, response_format: "wav" })).arrayBuffer());
    expect(pcm).toEqual(wav.subarray(44));
    const flacRes = await speech({ ...body, response_format: "flac" });
    expect(flacRes.headers.get("content-type")).toBe("audio/flac");
    const flac = new Uint8Array(await flacRes.arrayBuffer());
    expect(String.fromCharCode(...flac.subarray(0, 4))).toBe("fLaC");
    const mp3Res = await speech(body); // mp3 is the default
    expect(mp3Res.headers.get("content-type")).toBe("audio/mpeg");
    const mp3 = new Uint8Array(await mp3Res.arrayBuffer());
    expect(mp3.length).toBe(Math.ceil(19_200 / 576) * 96);
    expect([...mp3.subarray(0, 4)]).toEqual([0xff, 0xf3, 0x44, 0xc0]);
    const opus = await speech({ ...body, response_format: "opus" });
    expect(opus.status).toBe(400);
    expect(((await opus.json()) as any).error).toMatchObject({ param: "response_format", type: "invalid_request_error" });
  });

  it("stream_format sse: base64 deltas that add up to the file, then done with usage", async () => {
    const res = await speech({ model: "gpt-4o-mini-tts", input: "a b c d e", voice: "coral", response_format: "pcm", stream_format: "sse" });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = (await res.text())
      .trim()
      .split("\n\n")
      .map((b) => JSON.parse(b.slice("data: ".length)));
    expect(events.map((e) => e.type)).toEqual([...new Array(4).fill("speech.audio.delta"), "speech.audio.done"]);
    expect(events.slice(0, -1).reduce((n, e) => n + fromBase64(e.audio).length, 0)).toBe(96_000);
    expect(events.at(-1).usage).toEqual({ input_tokens: 3, output_tokens: 25, total_tokens: 28 });
    const tts1 = await speech({ model: "tts-1", input: "a", voice: "coral", stream_format: "sse" });
    expect(tts1.status).toBe(400);
  });

  it("limits: input over 4096 characters, speed out of range, a missing voice", async () => {
    const cases: [unknown, string][] = [
      [{ model: "tts-1", input: "x".repeat(4097), voice: "alloy" }, "Invalid 'input': string too long. Expected a string with maximum length 4096, but got a string with length 4097 instead."],
      [{ model: "tts-1", input: "x", voice: "alloy", speed: 5 }, "Invalid 'speed': expected a value between 0.25 and 4.0, but got 5 instead."],
      [{ model: "tts-1", input: "x" }, "Missing required parameter: 'voice'."],
    ];
    for (const [body, message] of cases) {
      const res = await speech(body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error.message).toBe(message);
    }
  });
});

describe("transcriptions", () => {
  it("json by default, with whisper's duration usage; the GPT-4o models' token usage", async () => {
    expect(await (await transcribe({ model: "whisper-1" })).json()).toEqual({ text: "The quick brown fox jumps over the lazy dog.", usage: { type: "duration", seconds: 4 } });
    expect(await (await transcribe({ model: "gpt-4o-transcribe" })).json()).toEqual({
      text: "The quick brown fox jumps over the lazy dog.",
      usage: { type: "tokens", input_tokens: 36, input_token_details: { text_tokens: 0, audio_tokens: 36 }, output_tokens: 11, total_tokens: 47 },
    });
  });

  it("verbose_json with segments and words; text, srt and vtt as text/plain", async () => {
    const v = (await (await transcribe({ model: "whisper-1", response_format: "verbose_json", "timestamp_granularities[]": ["word", "segment"], language: "en" })).json()) as any;
    expect(v).toMatchObject({ task: "transcribe", language: "english", duration: 3.6, text: "The quick brown fox jumps over the lazy dog." });
    expect(v.segments).toHaveLength(1);
    expect(v.segments[0]).toMatchObject({
      id: 0,
      seek: 0,
      start: 0,
      end: 3.6,
      text: " The quick brown fox jumps over the lazy dog.",
      temperature: 0,
      avg_logprob: -0.25,
      compression_ratio: 1.2,
      no_speech_prob: 0.01,
    });
    expect(v.segments[0].tokens).toHaveLength(9);
    // Token ids are vocabulary indices: whole numbers in [0, 50,000), never negative.
    for (const t of v.segments[0].tokens) expect(Number.isInteger(t) && t >= 0 && t < 50_000, String(t)).toBe(true);
    expect(v.words[0]).toEqual({ word: "The", start: 0, end: 0.4 });
    expect(v.words.at(-1)).toEqual({ word: "dog", start: 3.2, end: 3.6 });
    const text = await transcribe({ model: "whisper-1", response_format: "text" });
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await text.text()).toBe("The quick brown fox jumps over the lazy dog.\n");
    expect(await (await transcribe({ model: "whisper-1", response_format: "srt" })).text()).toBe("1\n00:00:00,000 --> 00:00:03,600\nThe quick brown fox jumps over the lazy dog.\n\n");
    expect(await (await transcribe({ model: "whisper-1", response_format: "vtt" })).text()).toBe("WEBVTT\n\n00:00:00.000 --> 00:00:03.600\nThe quick brown fox jumps over the lazy dog.\n\n");
  });

  it("translations answer in English with task translate; no words", async () => {
    const v = (await (await transcribe({ model: "whisper-1", response_format: "verbose_json" }, ["fr.mp3", "audio/mpeg", 10], "/v1/audio/translations")).json()) as any;
    expect(v).toMatchObject({ task: "translate", language: "english" });
    expect(v.words).toBeUndefined();
    expect(await (await transcribe({ model: "whisper-1" }, ["fr.mp3", "audio/mpeg", 10], "/v1/audio/translations")).json()).toEqual({ text: "The quick brown fox jumps over the lazy dog." });
  });

  it("streams deltas then done for gpt-4o-mini-transcribe; whisper-1 ignores stream", async () => {
    const res = await transcribe({ model: "gpt-4o-mini-transcribe", stream: "true" });
    const events = (await res.text())
      .trim()
      .split("\n\n")
      .map((b) => JSON.parse(b.slice("data: ".length)));
    expect(
      events
        .slice(0, -1)
        .map((e) => e.delta)
        .join(""),
    ).toBe("The quick brown fox jumps over the lazy dog.");
    expect(events.slice(0, 2)).toEqual([
      { type: "transcript.text.delta", delta: "The" },
      { type: "transcript.text.delta", delta: " quick" },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "transcript.text.done", text: "The quick brown fox jumps over the lazy dog." });
    const whisper = await transcribe({ model: "whisper-1", stream: "true" });
    expect(whisper.headers.get("content-type")).toBe("application/json");
  });

  it("the real API's 400s and the 25 MB limit's 413", async () => {
    const cases: [Record<string, string>, [string, string, number] | null, string][] = [
      [{ model: "whisper-1" }, ["notes.txt", "text/plain", 3], "Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']"],
      [{ model: "whisper-1" }, null, "Missing required parameter: 'file'."],
      [{}, ["a.wav", "audio/wav", 3], "Missing required parameter: 'model'."],
      [{ model: "gpt-4o-transcribe", response_format: "srt" }, ["a.wav", "audio/wav", 3], "response_format 'srt' is not compatible with model 'gpt-4o-transcribe'. Use 'json' or 'text'."],
      [{ model: "whisper-1", "timestamp_granularities[]": "word" }, ["a.wav", "audio/wav", 3], "timestamp_granularities is only supported with response_format 'verbose_json'."],
    ];
    for (const [fields, file, message] of cases) {
      const res = await transcribe(fields, file);
      expect(res.status, message).toBe(400);
      expect(((await res.json()) as any).error.message).toBe(message);
    }
    const big = await transcribe({ model: "whisper-1" }, ["long.wav", "audio/wav", 26_214_400]);
    expect(big.status).toBe(413);
    const err = ((await big.json()) as any).error;
    expect(err.message).toMatch(/^Maximum content size limit \(26214400\) exceeded \(\d+ bytes read\)$/);
    expect([err.type, err.param, err.code]).toEqual(["server_error", null, null]);
    const json = await call("/v1/audio/transcriptions", { method: "POST", headers: { ...AUTH, "content-type": "application/json" }, body: "{}" });
    expect(json.status).toBe(400);
  });
});

describe("scripted", () => {
  it("speech duration, the transcript by file name, a 503 then its answer; journalled without the bytes", async () => {
    const tts = new Uint8Array(await (await speech({ model: "tts-1", input: "anything at all", voice: "echo", response_format: "wav" }, "/s/voice/run1")).arrayBuffer());
    expect(parseWav(tts).dataBytes).toBe(24_000);
    const fr = (await (await transcribe({ model: "whisper-1", response_format: "verbose_json" }, ["meeting.mp3", "audio/mpeg", 1000], "/s/voice/run1/v1/audio/transcriptions")).json()) as any;
    expect(fr).toMatchObject({ language: "french", duration: 4, text: "Bonjour tout le monde. Merci." });
    expect(fr.segments.map((s: any) => [s.start, s.end, s.text])).toEqual([
      [0, 3.2, " Bonjour tout le monde."],
      [3.2, 4, " Merci."],
    ]);
    const busy = await transcribe({ model: "whisper-1" }, ["x.wav", "audio/wav", 5], "/s/voice/run1/v1/audio/transcriptions");
    expect([busy.status, await busy.json()]).toEqual([503, { error: { message: "busy", type: "server_error" } }]);
    const ok = await transcribe({ model: "whisper-1", response_format: "text" }, ["x.wav", "audio/wav", 5], "/s/voice/run1/v1/audio/transcriptions");
    expect(await ok.text()).toBe("second try\n");
    const journal = (await (await admin("/sessions/voice/run1/requests")).json()) as any[];
    expect(journal.map((j) => [j.step, j.status])).toEqual([
      ["tts", 200],
      ["stt", 200],
      ["flaky", 503],
      ["flaky", 200],
    ]);
    expect(journal[1].request.body).toEqual({ file: { filename: "meeting.mp3", type: "audio/mpeg", size: 1000 }, model: "whisper-1", response_format: "verbose_json" });
    expect(((await (await admin("/sessions/voice/run1/verify")).json()) as any).ok).toBe(true);
  });
});
