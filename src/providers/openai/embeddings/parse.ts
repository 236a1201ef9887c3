/**
 * `POST /v1/embeddings` body → canonical request: each input is a user message, so scenarios can match on it.
 */
import { headerRecord } from "../../../http/headers";
import { inputsRequest } from "../../../canonical/request";
import type { ApiError } from "../../../http/errors";
import type { ParseResult } from "../../types";
import { openaiRequestError } from "../request-error";
import { embeddingsWire, type EmbeddingInput, type EmbeddingsBody, type EmbeddingsRequest } from "./wire";
import { safeParseFast } from "../../../util/fast-parse";

/** Most inputs one request may carry (the real API's limit). */
export const MAX_INPUTS = 2048;
/** Largest `dimensions` accepted. */
export const MAX_DIMENSIONS = 3072;

function invalid(message: string, param: string | null): ApiError {
  return { code: "invalid_request", message, ...(param !== null ? { param } : {}) };
}

/** The real API's message for an empty or oversized `input`. */
const BAD_INPUT = "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";

/**
 * A string, strings, a token array or token arrays as inputs, one text or token list each (embeddings' `input`, the
 * legacy completions' `prompt`).
 * @example inputsOf([1, 2]) // [{ kind: "tokens", tokens: [1, 2] }]
 */
export function inputsOf(input: EmbeddingsBody["input"]): EmbeddingInput[] {
  if (typeof input === "string") return [{ kind: "text", text: input }];
  if (input.length > 0 && input.every((x) => typeof x === "number")) return [{ kind: "tokens", tokens: input }];
  return input.flatMap((x): EmbeddingInput[] => (typeof x === "string" ? [{ kind: "text", text: x }] : Array.isArray(x) ? [{ kind: "tokens", tokens: x }] : []));
}

/** Text the engine matches on: the string, or the token ids joined by spaces. */
export function inputText(input: EmbeddingInput): string {
  return input.kind === "text" ? input.text : input.tokens.join(" ");
}

export function parseEmbeddingsRequest(raw: unknown, headers: Headers): ParseResult<EmbeddingsRequest> {
  const schema = embeddingsWire().EmbeddingsRequestSchema;
  const parsed = safeParseFast(schema, raw);
  if (!parsed.success) {
    const error = openaiRequestError(parsed.error, schema, raw);
    const badInput = error.providerCode !== "missing_required_parameter" && error.param?.startsWith("input") === true;
    return { ok: false, error: badInput ? invalid(BAD_INPUT, null) : error };
  }
  const body = parsed.data;
  const inputs = inputsOf(body.input);
  const empty = inputs.some((i) => (i.kind === "text" ? i.text === "" : i.tokens.length === 0));
  if (inputs.length === 0 || inputs.length > MAX_INPUTS || empty) return { ok: false, error: invalid(BAD_INPUT, null) };
  const dims = body.dimensions;
  if (dims !== undefined && dims !== null) {
    if (body.model === "text-embedding-ada-002") {
      return { ok: false, error: invalid("This model does not support specifying dimensions.", null) };
    }
    if (dims < 1 || dims > MAX_DIMENSIONS) {
      return { ok: false, error: invalid(`Invalid value for 'dimensions' = ${dims}. Must be between 1 and ${MAX_DIMENSIONS}.`, "dimensions") };
    }
  }
  const request = inputsRequest("openai", "embeddings", body.model, inputs.map(inputText), headerRecord(headers));
  return { ok: true, wire: { body, inputs }, request };
}
