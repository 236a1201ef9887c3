/**
 * `POST /v1/audio/speech` (JSON) → canonical request (the input is the user message, `instructions` the system
 * prompt) and the answer: real audio bytes of a duration that follows the text — `wav`, `pcm` and `flac` a quiet
 * tone, `mp3` silence (pcm.ts, flac.ts); `opus` and `aac` are refused with a 400 saying so. `stream_format: "sse"`
 * sends the bytes base64 in `speech.audio.delta` events, then `speech.audio.done` with usage.
 */
import { z } from "zod";
import type { Reply } from "../../../canonical/outcome";
import type { CanonicalRequest } from "../../../canonical/request";
import { base64 } from "../../../util/base64";
import { headerRecord } from "../../../http/headers";
import type { Failure } from "../../../scenario/schema";
import type { ParseResult, RawBody, RenderContext, SseEvent } from "../../types";
import { invalidAudio as invalid, parseAudioBody } from "./body";
import { flac } from "./flac";
import { mp3, pcm, sampleCount, wav } from "./pcm";
import { flacSource, mp3Source, pcmSource, wavSource } from "./source";
import { isByteSource, LazyEvent, WHOLE_BODY_LIMIT, type ByteSource } from "../../../http/byte-source";
import { echoed, wordCount } from "../../../util/text";
import type { SpeechReply } from "../../../scenario/surface-replies";
import { lazily } from "../../../util/memo";

export const MAX_SPEECH_INPUT = 4096;
/** Words per second of the default duration (at speed 1). */
export const SPEECH_WORDS_PER_SECOND = 2.5;

const FORMATS = ["mp3", "opus", "aac", "flac", "wav", "pcm"] as const;
type SpeechFormat = (typeof FORMATS)[number];
/** The formats mockllm encodes. */
export const REAL_SPEECH_FORMATS: SpeechFormat[] = ["wav", "pcm", "flac", "mp3"];
const CONTENT_TYPES: Record<SpeechFormat, string> = { mp3: "audio/mpeg", opus: "audio/ogg", aac: "audio/aac", flac: "audio/flac", wav: "audio/wav", pcm: "audio/pcm" };

/** Built on the first speech request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const speechWire = lazily(() => {
  const SpeechBodySchema = z.looseObject({
    model: z.string().min(1),
    input: z.string(),
    voice: z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) })]),
    instructions: z.string().nullish(),
    response_format: z.enum(FORMATS).nullish(),
    speed: z.number().nullish(),
    stream_format: z.enum(["sse", "audio"]).nullish(),
  });
  return { SpeechBodySchema };
});

export interface SpeechRequest {
  body: z.output<ReturnType<typeof speechWire>["SpeechBodySchema"]>;
  format: SpeechFormat;
  speed: number;
}

const REQUIRED = ["model", "input", "voice"];

export function parseSpeechRequest(raw: unknown, headers: Headers): ParseResult<SpeechRequest> {
  const parsed = parseAudioBody(speechWire().SpeechBodySchema, raw, REQUIRED);
  if (!parsed.ok) return parsed;
  const body = parsed.body;
  if (body.input.length > MAX_SPEECH_INPUT) {
    return {
      ok: false,
      error: invalid(
        `Invalid 'input': string too long. Expected a string with maximum length ${MAX_SPEECH_INPUT}, but got a string with length ${body.input.length} instead.`,
        "input",
        "string_above_max_length",
      ),
    };
  }
  const speed = body.speed ?? 1;
  if (speed < 0.25 || speed > 4) return { ok: false, error: invalid(`Invalid 'speed': expected a value between 0.25 and 4.0, but got ${speed} instead.`, "speed", "invalid_value") };
  const format = body.response_format ?? "mp3";
  if (!REAL_SPEECH_FORMATS.includes(format)) {
    return { ok: false, error: invalid(`mockllm does not encode response_format '${format}': ask for 'wav', 'pcm', 'flac' or 'mp3' (silent).`, "response_format", "unsupported_value") };
  }
  const sse = body.stream_format === "sse";
  if (sse && body.model.startsWith("tts-1")) return { ok: false, error: invalid(`stream_format 'sse' is not supported for model '${echoed(body.model)}'.`, "stream_format", "unsupported_value") };
  const request: CanonicalRequest = {
    provider: "openai",
    endpoint: "speech",
    model: body.model,
    stream: sse,
    system: body.instructions ?? "",
    messages: [{ role: "user", text: body.input }],
    tools: [],
    reasoning: "disabled",
    headers: headerRecord(headers),
  };
  return { ok: true, wire: { body, format, speed }, request };
}

/**
 * Longest default audio: 5 minutes (14.4 MB of WAV, streamed). Words / 2.5 per second at `speed: 0.25` made 2,048
 * words 55 minutes (157 MB of WAV) from a 4 KB request.
 */
export const DEFAULT_SPEECH_MAX_MS = 5 * 60_000;
/** Longest audio a step may script (`respond.speech.durationMs`, whose schema stops there too): 10 minutes. */
export const SPEECH_MAX_MS = 10 * 60_000;

/**
 * An audio's length for the text it speaks: the step's `respond.speech.durationMs` (at most SPEECH_MAX_MS), else the
 * text's words at 2.5 per second, divided by `speed` (at most DEFAULT_SPEECH_MAX_MS). OpenAI's speech and Gemini's
 * (../../gemini/media-output.ts).
 * @example speechLengthMs(undefined, "one two three four five") // 2000
 */
export function speechLengthMs(scripted: SpeechReply | undefined, text: string, speed = 1): number {
  if (scripted?.durationMs !== undefined) return Math.min(scripted.durationMs, SPEECH_MAX_MS);
  return Math.min(Math.round((Math.max(1, wordCount(text)) / SPEECH_WORDS_PER_SECOND / speed) * 1000), DEFAULT_SPEECH_MAX_MS);
}

/** The audio's length for `POST /v1/audio/speech`: `speechLengthMs` of its `input` at its `speed`. */
export function speechDurationMs(reply: Reply, w: SpeechRequest): number {
  return speechLengthMs(reply.speech, w.body.input, w.speed);
}

export function speechAudio(reply: Reply, w: SpeechRequest): Uint8Array {
  const samples = sampleCount(speechDurationMs(reply, w));
  return w.format === "wav" ? wav(samples) : w.format === "flac" ? flac(samples) : w.format === "mp3" ? mp3(samples) : pcm(samples);
}

/** The same audio produced on demand, a slice at a time (source.ts). */
export function speechSource(reply: Reply, w: SpeechRequest): ByteSource {
  const samples = sampleCount(speechDurationMs(reply, w));
  return w.format === "wav" ? wavSource(samples) : w.format === "flac" ? flacSource(samples) : w.format === "mp3" ? mp3Source(samples) : pcmSource(samples);
}

/** The audio whole when small, else (past WHOLE_BODY_LIMIT) its source, streamed in bounded chunks. */
function speechBody(reply: Reply, w: SpeechRequest): Uint8Array | ByteSource {
  const source = speechSource(reply, w);
  return source.byteLength > WHOLE_BODY_LIMIT ? source : speechAudio(reply, w);
}

export function renderSpeechRaw(reply: Reply, ctx: RenderContext<SpeechRequest>): RawBody {
  return { body: speechBody(reply, ctx.wire), contentType: CONTENT_TYPES[ctx.wire.format] };
}

/** What the JSON renderer answers if asked (never for a reply: `renderRaw` always answers). */
export function renderSpeechJson(reply: Reply, ctx: RenderContext<SpeechRequest>): unknown {
  return { audio: base64(speechAudio(reply, ctx.wire)) };
}

/** Bytes per `speech.audio.delta` event: half a second of 16-bit audio. */
const DELTA_BYTES = 24_000;

export function renderSpeechEvents(reply: Reply, ctx: RenderContext<SpeechRequest>): SseEvent[] {
  const audio = speechBody(reply, ctx.wire);
  const events: SseEvent[] = [];
  if (isByteSource(audio)) {
    // Each delta made as it is written: the transcript never holds the audio nor its base64.
    for (let i = 0; i < audio.byteLength; i += DELTA_BYTES) {
      const at = i;
      events.push(new LazyEvent(() => JSON.stringify({ type: "speech.audio.delta", audio: base64(audio.read(at, DELTA_BYTES)) })));
    }
  } else {
    for (let i = 0; i < audio.length; i += DELTA_BYTES) {
      events.push({ data: JSON.stringify({ type: "speech.audio.delta", audio: base64(audio.subarray(i, i + DELTA_BYTES)) }) });
    }
  }
  const input = Math.max(1, Math.ceil(ctx.wire.body.input.length / 4));
  const output = Math.ceil(speechDurationMs(reply, ctx.wire) / 80);
  events.push({ data: JSON.stringify({ type: "speech.audio.done", usage: { input_tokens: input, output_tokens: output, total_tokens: input + output } }) });
  return events;
}

export function renderSpeechStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  const message = failure.message ?? "The server had an error while processing your request. Sorry about that!";
  return { data: JSON.stringify({ type: "error", error: { message, type: failure.errorType ?? "server_error", param: null, code: null } }) };
}
