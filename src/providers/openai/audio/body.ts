/**
 * What `POST /v1/audio/speech` and the transcription routes check first, as the real API does: a required field that
 * is absent is named (`Missing required parameter: 'model'.`), then the body's first issue against the route's schema.
 */
import type { z } from "zod";
import type { ApiError } from "../../../http/errors";
import { firstWireIssue } from "../../wire-issues";

/**
 * A 400 `invalid_request_error`, its `param` and code when known.
 * @example invalidAudio("Missing required parameter: 'file'.", "file", "missing_required_parameter")
 */
export function invalidAudio(message: string, param: string | null, code?: string): ApiError {
  return { code: "invalid_request", message, ...(param !== null ? { param } : {}), ...(code !== undefined ? { providerCode: code } : {}) };
}

/**
 * The body parsed with `schema`, or the error for the first required field absent, else for the first issue.
 * @example parseAudioBody(speechWire().SpeechBodySchema, { model: "tts-1" }, ["model", "input", "voice"]) // { ok: false, error: { message: "Missing required parameter: 'input'.", … } }
 */
export function parseAudioBody<S extends z.ZodType>(schema: S, raw: unknown, required: readonly string[]): { ok: true; body: z.output<S> } | { ok: false; error: ApiError } {
  const absent = required.find((k) => typeof raw === "object" && raw !== null && !(k in raw));
  if (absent !== undefined) return { ok: false, error: invalidAudio(`Missing required parameter: '${absent}'.`, absent, "missing_required_parameter") };
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, body: parsed.data };
  const issue = firstWireIssue(parsed.error);
  return { ok: false, error: invalidAudio(issue.message, issue.param, issue.missing ? "missing_required_parameter" : undefined) };
}
