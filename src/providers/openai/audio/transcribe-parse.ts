/**
 * `POST /v1/audio/transcriptions` and `/translations` (multipart) → canonical request. The user message is the
 * uploaded file's name (what tells a test's recordings apart: match it with `lastUserMessage`); `prompt` is the
 * system prompt. The real API's checks: the file's extension, the model's response formats, streaming models.
 */
import { z } from "zod";
import type { CanonicalRequest } from "../../../canonical/request";
import { headerRecord } from "../../../http/headers";
import { formFiles, formStrings, type FileSummary } from "../../../http/multipart";
import type { ParseResult, RequestTarget } from "../../types";
import { invalidAudio as invalid, parseAudioBody } from "./body";
import { echoed } from "../../../util/text";
import { lazily } from "../../../util/memo";
import { unsupportedValue } from "../request-error";

export const TRANSCRIPT_FORMATS = ["json", "text", "srt", "verbose_json", "vtt", "diarized_json"] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];
export const AUDIO_EXTENSIONS = ["flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm"];

/** Built on the first transcription or translation (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const transcriptionWire = lazily(() => {
  const flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((s) => s === "true")]);
  const decimal = z.union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+(\.\d+)?$/, "expected a number")
      .transform(Number),
  ]);

  const TranscriptionBodySchema = z.looseObject({
    model: z.string().min(1),
    language: z.string().nullish(),
    prompt: z.string().nullish(),
    response_format: z.enum(TRANSCRIPT_FORMATS).nullish(),
    temperature: decimal.nullish(),
    stream: flag.nullish(),
  });
  return { TranscriptionBodySchema };
});

export interface TranscriptionRequest {
  task: "transcribe" | "translate";
  body: z.output<ReturnType<typeof transcriptionWire>["TranscriptionBodySchema"]>;
  file: FileSummary;
  format: TranscriptFormat;
  /** `timestamp_granularities[]` asked for `word`. */
  words: boolean;
  /** Models billed by duration (whisper) answer `usage.type: "duration"`; the GPT-4o models by tokens. */
  whisper: boolean;
}

const REQUIRED = ["model"];

/** The response formats a model answers. */
function formatsFor(model: string, task: "transcribe" | "translate"): TranscriptFormat[] {
  if (task === "translate" || model.startsWith("whisper")) return ["json", "text", "srt", "verbose_json", "vtt"];
  if (model.includes("diarize")) return ["json", "text", "diarized_json"];
  return ["json", "text"];
}

export function parseTranscriptionRequest(raw: unknown, headers: Headers, target: RequestTarget): ParseResult<TranscriptionRequest> {
  const task = target.path.endsWith("/translations") ? "translate" : "transcribe";
  const parsed = parseAudioBody(transcriptionWire().TranscriptionBodySchema, raw, REQUIRED);
  if (!parsed.ok) return parsed;
  const body = parsed.body;
  const file = formFiles(raw, "file")[0];
  if (file === undefined) return { ok: false, error: invalid("Missing required parameter: 'file'.", "file", "missing_required_parameter") };
  const ext = file.filename.includes(".") ? file.filename.split(".").pop()!.toLowerCase() : "";
  if (!AUDIO_EXTENSIONS.includes(ext)) {
    return { ok: false, error: invalid(`Invalid file format. Supported formats: [${AUDIO_EXTENSIONS.map((e) => `'${e}'`).join(", ")}]`, null) };
  }
  const format = body.response_format ?? "json";
  const allowed = formatsFor(body.model, task);
  if (!allowed.includes(format)) {
    return {
      ok: false,
      error: invalid(`response_format '${format}' is not compatible with model '${echoed(body.model)}'. Use ${allowed.map((f) => `'${f}'`).join(" or ")}.`, "response_format", "unsupported_value"),
    };
  }
  const granularities = formStrings(raw, "timestamp_granularities");
  const badGranularity = granularities.find((g) => g !== "word" && g !== "segment");
  if (badGranularity !== undefined) return { ok: false, error: unsupportedValue(badGranularity, ["word", "segment"], "timestamp_granularities") };
  if (granularities.length > 0 && format !== "verbose_json") {
    return { ok: false, error: invalid("timestamp_granularities is only supported with response_format 'verbose_json'.", "timestamp_granularities") };
  }
  const whisper = body.model.startsWith("whisper");
  // whisper-1 ignores `stream` (the API reference: "not supported for the whisper-1 model and will be ignored").
  const stream = body.stream === true && !whisper && task === "transcribe";
  const request: CanonicalRequest = {
    provider: "openai",
    endpoint: "transcriptions",
    model: body.model,
    stream,
    system: body.prompt ?? "",
    messages: [{ role: "user", text: file.filename }],
    tools: [],
    reasoning: "disabled",
    headers: headerRecord(headers),
  };
  return { ok: true, wire: { task, body, file, format, words: granularities.includes("word"), whisper }, request };
}
