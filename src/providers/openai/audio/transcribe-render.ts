/**
 * Transcription answers: the step's `respond.transcript`, else DEFAULT_TRANSCRIPT, as `json`, `verbose_json`
 * (segments per sentence and words spread evenly over the duration), `diarized_json`, or plain text (`text`, `srt`,
 * `vtt`), and the `transcript.text.delta` / `.done` stream of the GPT-4o models.
 */
import type { Reply } from "../../../canonical/outcome";
import { stableHash } from "../../../util/hash";
import type { Failure } from "../../../scenario/schema";
import { transcriptText } from "../../../scenario/surface-replies";
import type { RawBody, RenderContext, SseEvent } from "../../types";
import { SPEECH_WORDS_PER_SECOND } from "./speech";
import type { TranscriptionRequest } from "./transcribe-parse";

export { DEFAULT_TRANSCRIPT } from "../../../scenario/surface-replies";

/** ISO 639-1 codes → the full English names whisper's `verbose_json` answers with. */
const LANGUAGES: Record<string, string> = {
  en: "english",
  fr: "french",
  de: "german",
  es: "spanish",
  it: "italian",
  pt: "portuguese",
  nl: "dutch",
  ru: "russian",
  ja: "japanese",
  zh: "chinese",
  ko: "korean",
  ar: "arabic",
  hi: "hindi",
  pl: "polish",
  tr: "turkish",
};

interface Transcript {
  text: string;
  language: string;
  /** Seconds. */
  duration: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== "");
}

/** The transcript: scripted text, language and duration, else the defaults (duration: words / 2.5 per second). */
export function transcriptOf(reply: Reply, w: TranscriptionRequest): Transcript {
  const scripted = reply.transcript;
  const text = transcriptText(scripted);
  const asked = w.task === "translate" ? "en" : (w.body.language ?? "en");
  const language = (typeof scripted === "object" ? scripted.language : undefined) ?? LANGUAGES[asked.toLowerCase()] ?? asked;
  const scriptedDuration = typeof scripted === "object" ? scripted.durationSeconds : undefined;
  const duration = scriptedDuration ?? round2(Math.max(1, wordsOf(text).length) / SPEECH_WORDS_PER_SECOND);
  return { text, language, duration };
}

interface Segment {
  id: number;
  start: number;
  end: number;
  text: string;
}

/** One segment per sentence, each lasting in proportion to its words. */
function segmentsOf(t: Transcript): Segment[] {
  const sentences = t.text.split(/(?<=[.!?])\s+/).filter((s) => s.trim() !== "");
  const total = Math.max(1, wordsOf(t.text).length);
  let words = 0;
  return sentences.map((text, id) => {
    const start = round2((t.duration * words) / total);
    words += wordsOf(text).length;
    return { id, start, end: round2((t.duration * words) / total), text };
  });
}

function wordTimings(t: Transcript): { word: string; start: number; end: number }[] {
  const words = wordsOf(t.text)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((w) => w !== "");
  return words.map((word, i) => ({ word, start: round2((t.duration * i) / words.length), end: round2((t.duration * (i + 1)) / words.length) }));
}

function usage(t: Transcript, w: TranscriptionRequest): Record<string, unknown> {
  if (w.whisper) return { type: "duration", seconds: Math.ceil(t.duration) };
  const audio = Math.ceil(t.duration * 10);
  const output = Math.max(1, Math.ceil(t.text.length / 4));
  return { type: "tokens", input_tokens: audio, input_token_details: { text_tokens: 0, audio_tokens: audio }, output_tokens: output, total_tokens: audio + output };
}

function verbose(t: Transcript, w: TranscriptionRequest): Record<string, unknown> {
  const segments = segmentsOf(t).map((s) => ({
    id: s.id,
    seek: 0,
    start: s.start,
    end: s.end,
    text: ` ${s.text}`,
    tokens: wordsOf(s.text).map((word) => (stableHash(word) >>> 0) % 50_000),
    temperature: 0,
    avg_logprob: -0.25,
    compression_ratio: 1.2,
    no_speech_prob: 0.01,
  }));
  return {
    task: w.task,
    language: t.language,
    duration: t.duration,
    text: t.text,
    segments,
    ...(w.words && w.task === "transcribe" ? { words: wordTimings(t) } : {}),
    usage: { type: "duration", seconds: Math.ceil(t.duration) },
  };
}

export function renderTranscriptionJson(reply: Reply, ctx: RenderContext<TranscriptionRequest>): unknown {
  const w = ctx.wire;
  const t = transcriptOf(reply, w);
  if (w.format === "verbose_json") return verbose(t, w);
  if (w.format === "diarized_json") {
    const segments = segmentsOf(t).map((s) => ({ type: "transcript.text.segment", id: `seg_${s.id}`, start: s.start, end: s.end, text: s.text, speaker: "A" }));
    return { task: "transcribe", duration: t.duration, text: t.text, segments, usage: usage(t, w) };
  }
  return w.task === "translate" ? { text: t.text } : { text: t.text, usage: usage(t, w) };
}

/** `00:00:02,950` (srt) or `00:00:02.950` (vtt). */
function timestamp(seconds: number, separator: "," | "."): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** `text`, `srt` and `vtt` are plain text (`text/plain`, so the SDK hands back a string). */
export function renderTranscriptionRaw(reply: Reply, ctx: RenderContext<TranscriptionRequest>): RawBody | undefined {
  const w = ctx.wire;
  if (w.format !== "text" && w.format !== "srt" && w.format !== "vtt") return undefined;
  const t = transcriptOf(reply, w);
  const segments = segmentsOf(t);
  const body =
    w.format === "text"
      ? `${t.text}\n`
      : w.format === "srt"
        ? segments.map((s, i) => `${i + 1}\n${timestamp(s.start, ",")} --> ${timestamp(s.end, ",")}\n${s.text}\n\n`).join("")
        : `WEBVTT\n\n${segments.map((s) => `${timestamp(s.start, ".")} --> ${timestamp(s.end, ".")}\n${s.text}\n\n`).join("")}`;
  return { body, contentType: "text/plain; charset=utf-8" };
}

/** `stream: true` (GPT-4o transcribe models): one `transcript.text.delta` per word, then `transcript.text.done`. */
export function renderTranscriptionEvents(reply: Reply, ctx: RenderContext<TranscriptionRequest>): SseEvent[] {
  const t = transcriptOf(reply, ctx.wire);
  const pieces = t.text.split(/(?=\s+\S)/);
  const deltas = pieces.map((delta): SseEvent => ({ data: JSON.stringify({ type: "transcript.text.delta", delta }), words: 1 }));
  return [...deltas, { data: JSON.stringify({ type: "transcript.text.done", text: t.text, usage: usage(t, ctx.wire) }) }];
}

export function renderTranscriptionStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  const message = failure.message ?? "The server had an error while processing your request. Sorry about that!";
  return { data: JSON.stringify({ type: "error", error: { message, type: failure.errorType ?? "server_error", param: null, code: null } }) };
}
