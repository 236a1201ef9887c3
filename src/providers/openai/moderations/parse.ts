/**
 * `POST /v1/moderations` body → canonical request: each input is a user message (a multimodal input's text parts,
 * joined by newlines), so `lastUserMessage` and the other matchers work on it.
 */
import { headerRecord } from "../../../http/headers";
import type { CanonicalRequest } from "../../../canonical/request";
import type { ApiError } from "../../../http/errors";
import type { ParseResult } from "../../types";
import { openaiRequestError } from "../request-error";
import { moderationsWire, type ModerationInput, type ModerationsBody, type ModerationsRequest } from "./wire";
import { safeParseFast } from "../../../util/fast-parse";

/** The model the API uses when the request names none. */
export const DEFAULT_MODERATION_MODEL = "omni-moderation-latest";
/** Most inputs one request may carry (mockllm's bound, the same as `/v1/embeddings`: the API publishes none). */
export const MAX_MODERATION_INPUTS = 2048;

function invalid(message: string, param: string | null = null): ApiError {
  return { code: "invalid_request", message, ...(param !== null ? { param } : {}) };
}

/** The real API's message for an `input` of the wrong shape. */
const BAD_INPUT = "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";

/** Whether `model` is one of the legacy text-only models (`text-moderation-latest`, `-stable`, `-007`, …). */
export function isLegacyModerationModel(model: string): boolean {
  return model.startsWith("text-moderation");
}

function inputsOf(input: ModerationsBody["input"]): ModerationInput[] {
  if (typeof input === "string") return [{ text: input, hasText: true, hasImage: false }];
  const texts: string[] = [];
  let hasImage = false;
  let parts = 0;
  const strings: ModerationInput[] = [];
  for (const x of input) {
    if (typeof x === "string") strings.push({ text: x, hasText: true, hasImage: false });
    else {
      parts++;
      if (x.type === "text") texts.push(x.text);
      else hasImage = true;
    }
  }
  // A multimodal array is one input with one result; an array of strings is one input per string.
  return parts === 0 ? strings : [{ text: texts.join("\n"), hasText: texts.length > 0, hasImage }];
}

export function parseModerationsRequest(raw: unknown, headers: Headers): ParseResult<ModerationsRequest> {
  const schema = moderationsWire().ModerationsRequestSchema;
  const parsed = safeParseFast(schema, raw);
  if (!parsed.success) {
    const error = openaiRequestError(parsed.error, schema, raw);
    const badInput = error.providerCode !== "missing_required_parameter" && error.param?.startsWith("input") === true;
    return { ok: false, error: badInput ? invalid(BAD_INPUT) : error };
  }
  const body = parsed.data;
  if (body.stream !== undefined && body.stream !== false) {
    return { ok: false, error: invalid("Unrecognized request argument supplied: stream") };
  }
  const model = body.model ?? DEFAULT_MODERATION_MODEL;
  const inputs = inputsOf(body.input);
  if (inputs.length === 0 || inputs.length > MAX_MODERATION_INPUTS) return { ok: false, error: invalid(BAD_INPUT) };
  if (isLegacyModerationModel(model) && inputs.some((i) => i.hasImage)) {
    return { ok: false, error: invalid(`Model ${model} does not support image inputs. Use omni-moderation-latest.`, "input") };
  }
  const request: CanonicalRequest = {
    provider: "openai",
    endpoint: "moderations",
    model,
    stream: false,
    system: "",
    messages: inputs.map((i) => ({ role: "user" as const, text: i.text })),
    tools: [],
    reasoning: "disabled",
    headers: headerRecord(headers),
  };
  return { ok: true, wire: { body, model, inputs }, request };
}
