/**
 * `POST /v1/completions` body → canonical request: each prompt is a user message (a token-id prompt its ids joined by
 * spaces, as embeddings' token inputs), so scenarios match on it as on a chat's last user message.
 */
import { headerRecord } from "../../../http/headers";
import { apiError, type ApiError } from "../../../http/errors";
import { isRecord } from "../../../http/json";
import type { CanonicalRequest } from "../../../canonical/request";
import { stopField } from "../../../canonical/stop";
import { safeParseFast } from "../../../util/fast-parse";
import { wordCount } from "../../../util/text";
import type { ParseResult } from "../../types";
import { arrayLengthError, emptyArrayError, firstBoundError, openaiRequestError, type NumberBound } from "../request-error";
import { choicesError, MISSING_MODEL } from "../chat/parse";
import { SAMPLING_BOUNDS, stopCountError, streamOptionsError } from "../chat/leniency";
import { inputsOf, inputText } from "../embeddings/parse";
import { completionsWire, type CompletionsBody, type CompletionsRequest } from "./wire";

/** What the API writes when `max_tokens` is not sent: 16 tokens, then `finish_reason: "length"`. */
export const DEFAULT_MAX_TOKENS = 16;

/** The models the legacy endpoint refuses as chat models (OpenAI's chat and reasoning families). */
const CHAT_MODEL = /^(?:ft:)?(?:gpt-3\.5-turbo(?!-instruct)|gpt-4|gpt-5|chatgpt-|o\d|codex-|computer-use-)/;

/** The completion models Chat Completions refuses (the legacy endpoint's own). */
const COMPLETION_MODEL = /^(?:ft:)?(?:gpt-3\.5-turbo-instruct|davinci-002|babbage-002)(?:$|[-:])/;

/**
 * The API's 404 for a chat model on `/v1/completions`, else undefined.
 * @example chatModelError("gpt-4o")?.message // "This is a chat model and not supported in the v1/completions endpoint. Did you mean to use v1/chat/completions?"
 */
export function chatModelError(model: string): ApiError | undefined {
  if (!CHAT_MODEL.test(model)) return undefined;
  return apiError("invalid_request", "This is a chat model and not supported in the v1/completions endpoint. Did you mean to use v1/chat/completions?", {
    param: "model",
    status: 404,
  });
}

/**
 * The API's 404 for a completion model on `/v1/chat/completions`, else undefined.
 * @example completionModelError("gpt-3.5-turbo-instruct")?.status // 404
 */
export function completionModelError(model: string): ApiError | undefined {
  if (!COMPLETION_MODEL.test(model)) return undefined;
  return apiError("invalid_request", "This is not a chat model and thus not supported in the v1/chat/completions endpoint. Did you mean to use v1/completions?", {
    param: "model",
    status: 404,
  });
}

/** The API's bounds on the numeric parameters, checked in this order. */
const BOUNDS: readonly NumberBound[] = [
  ...SAMPLING_BOUNDS,
  { param: "max_tokens", min: 0, kind: "integer" },
  { param: "logprobs", min: 0, max: 5, kind: "integer" },
  { param: "best_of", min: 1, max: 20, kind: "integer" },
];

/** Most prompts a request may carry. */
export const MAX_PROMPTS = 2048;

/**
 * Most choices one answer holds (prompts × `n`): Chat's `n` bound, mockllm's for the product (as other
 * OpenAI-compatible servers bound it), so that a small request cannot ask for an answer thousands of times its size.
 */
export const MAX_TOTAL_CHOICES = 128;

/**
 * Most tokens one answer gives log probabilities for (mockllm's bound: each costs a few hundred bytes to build): the
 * echoed prompts' and, for each choice, up to `max_tokens`. A scorer's batch (twenty 2,000-token prompts, echoed,
 * `max_tokens: 0`) is well within it; a 10 MB prompt echoed with `logprobs` is not.
 */
export const MAX_LOGPROB_TOKENS = 100_000;

/** mockllm's 400 (the API's shape) for a request asking log probabilities of more than MAX_LOGPROB_TOKENS tokens. */
function logprobsBudgetError(w: CompletionsBody, prompts: readonly string[]): ApiError | undefined {
  if (w.logprobs === undefined || w.logprobs === null) return undefined;
  let tokens = prompts.length * (w.n ?? 1) * (w.max_tokens ?? DEFAULT_MAX_TOKENS);
  if (w.echo === true) for (const p of prompts) tokens += wordCount(p);
  if (tokens <= MAX_LOGPROB_TOKENS) return undefined;
  return apiError(
    "invalid_request",
    `mockllm gives log probabilities for at most ${MAX_LOGPROB_TOKENS.toLocaleString("en-US")} tokens a request; this one asks for up to ${tokens.toLocaleString("en-US")} (the echoed prompts' and prompts × n × max_tokens). Send fewer or shorter prompts, or a smaller max_tokens.`,
    { param: "logprobs" },
  );
}

/** The prompts as the engine reads them (embeddings' inputs); `null` (the start of a document) is one empty prompt. */
function promptsOf(prompt: CompletionsBody["prompt"]): string[] {
  return prompt === null ? [""] : inputsOf(prompt).map(inputText);
}

/** The first refusal the API gives a parsed body, else undefined. */
function bodyError(w: CompletionsBody): ApiError | undefined {
  const bound = choicesError(w.n) ?? firstBoundError(w, BOUNDS) ?? stopCountError(w.stop);
  if (bound) return bound;
  if (Array.isArray(w.prompt)) {
    if (w.prompt.length === 0) return emptyArrayError("prompt");
    const tooLong = arrayLengthError("prompt", w.prompt, MAX_PROMPTS);
    if (tooLong) return tooLong;
    const prompts = w.prompt.every((x) => typeof x === "number") ? 1 : w.prompt.length;
    const total = prompts * (w.n ?? 1);
    if (total > MAX_TOTAL_CHOICES) {
      return apiError("invalid_request", `Invalid 'n': ${prompts} prompts × n = ${total} choices, above the maximum of ${MAX_TOTAL_CHOICES} per request. Send fewer prompts or a smaller 'n'.`, {
        param: "n",
        providerCode: "integer_above_max_value",
      });
    }
  }
  const streamed = streamOptionsError(w);
  if (streamed) return streamed;
  // Unsent, `best_of` is `n`: the API makes as many completions as it returns.
  const bestOf = w.best_of ?? w.n ?? 1;
  if (bestOf < (w.n ?? 1)) return apiError("invalid_request", "best_of must be greater than or equal to n.", { param: "best_of" });
  if (bestOf > 1 && w.stream === true) return apiError("invalid_request", "Cannot stream results with best_of > 1.", { param: "best_of" });
  return undefined;
}

/**
 * Validates a `/v1/completions` body into the canonical request. `max_tokens` defaults to 16, as the API's does; `n`
 * completions of each prompt are the request's choices (prompts × `n`).
 * @example parseCompletionsRequest({ model: "gpt-3.5-turbo-instruct", prompt: "Say this is a test" }, headers)
 */
export function parseCompletionsRequest(raw: unknown, headers: Headers): ParseResult<CompletionsRequest> {
  const schema = completionsWire().CompletionsBodySchema;
  const parsed = safeParseFast(schema, raw);
  if (!parsed.success) {
    if (isRecord(raw) && (raw.model === undefined || raw.model === null)) return { ok: false, error: apiError("invalid_request", MISSING_MODEL) };
    return { ok: false, error: openaiRequestError(parsed.error, schema, raw) };
  }
  const body = parsed.data;
  const refused = bodyError(body);
  if (refused) return { ok: false, error: refused };
  const prompts = promptsOf(body.prompt);
  const heavy = logprobsBudgetError(body, prompts);
  if (heavy) return { ok: false, error: heavy };
  const choices = prompts.length * (body.n ?? 1);
  const request: CanonicalRequest = {
    provider: "openai",
    endpoint: "completions",
    model: body.model,
    stream: body.stream === true,
    system: "",
    messages: prompts.map((text) => ({ role: "user" as const, text })),
    tools: [],
    ...(typeof body.temperature === "number" ? { temperature: body.temperature } : {}),
    ...(typeof body.top_p === "number" ? { topP: body.top_p } : {}),
    maxTokens: body.max_tokens ?? DEFAULT_MAX_TOKENS,
    ...(choices > 1 ? { choices } : {}),
    ...stopField(body.stop),
    reasoning: "disabled",
    headers: headerRecord(headers),
  };
  return { ok: true, wire: { body, prompts }, request };
}
