import type { ProviderSurface } from "../../types";
import { readFormBody } from "../../../http/multipart";
import type { ApiError } from "../../../http/errors";
import { checkOpenAIAuth, openAIFailureHeaders, renderOpenAIError } from "../errors";
import { openAIRateLimitHeaders } from "../rate-limits";
import { parseSpeechRequest, renderSpeechEvents, renderSpeechJson, renderSpeechRaw, renderSpeechStreamError, type SpeechRequest } from "./speech";
import { parseTranscriptionRequest, type TranscriptionRequest } from "./transcribe-parse";
import { renderTranscriptionEvents, renderTranscriptionJson, renderTranscriptionRaw, renderTranscriptionStreamError } from "./transcribe-render";

/** The real API's upload limit: 25 MiB for the whole request. */
export const MAX_AUDIO_UPLOAD_BYTES = 26_214_400;

/** The real API's answer past the limit: a 413 with `type: "server_error"` and no code. */
function uploadTooLarge(bytes: number | undefined): ApiError {
  const read = bytes ?? MAX_AUDIO_UPLOAD_BYTES + 1;
  return { code: "invalid_request", status: 413, type: "server_error", message: `Maximum content size limit (${MAX_AUDIO_UPLOAD_BYTES}) exceeded (${read} bytes read)` };
}

/** OpenAI text-to-speech: `POST /v1/audio/speech` (JSON), answered with audio bytes. */
export const openaiSpeech: ProviderSurface<SpeechRequest> = {
  provider: "openai",
  endpoint: "speech",
  paths: ["/v1/audio/speech", "/audio/speech"],
  requestIdHeader: "x-request-id",
  checkHeaders: checkOpenAIAuth,
  parse: parseSpeechRequest,
  renderError: renderOpenAIError,
  failureHeaders: openAIFailureHeaders,
  rateLimitHeaders: openAIRateLimitHeaders,
  renderJson: renderSpeechJson,
  renderRaw: renderSpeechRaw,
  renderEvents: renderSpeechEvents,
  renderStreamError: renderSpeechStreamError,
};

/** OpenAI speech-to-text: `POST /v1/audio/transcriptions` and `/translations` (multipart). */
export const openaiTranscriptions: ProviderSurface<TranscriptionRequest> = {
  provider: "openai",
  endpoint: "transcriptions",
  paths: ["/v1/audio/transcriptions", "/v1/audio/translations", "/audio/transcriptions", "/audio/translations"],
  requestIdHeader: "x-request-id",
  checkHeaders: checkOpenAIAuth,
  readBody: (request) => readFormBody(request, MAX_AUDIO_UPLOAD_BYTES, uploadTooLarge),
  parse: parseTranscriptionRequest,
  renderError: renderOpenAIError,
  failureHeaders: openAIFailureHeaders,
  rateLimitHeaders: openAIRateLimitHeaders,
  renderJson: renderTranscriptionJson,
  renderRaw: renderTranscriptionRaw,
  renderEvents: renderTranscriptionEvents,
  renderStreamError: renderTranscriptionStreamError,
};
