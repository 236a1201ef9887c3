/**
 * Gemini 3 thought signatures (protocols.md 10.4.3; ai.google.dev/gemini-api/docs/thought-signatures). A `gemini-3*`
 * answer carries a `thoughtSignature` on the first `functionCall` part of each message (parallel calls: the first
 * only), else on its last text part; clients send it back with the history. Unless a scenario scripts one, mockllm's
 * is deterministic from the answer's id seed. The check the real API makes on a request: in the current turn (from
 * the newest `user` content that is not only function responses), the first `functionCall` part of each step (a
 * run of model contents) must carry a signature, else 400 INVALID_ARGUMENT. Any non-empty value passes — ours, one from elsewhere,
 * or Gemini CLI's `skip_thought_signature_validator` sentinel: the real API's check of a signature's contents is not
 * documented, so a garbled one is accepted.
 */
import { apiError, type ApiError } from "../../http/errors";
import { stableToken } from "../../util/hash";
import type { CanonicalRequest } from "../../canonical/request";
import type { Content, GeminiWire } from "./wire";

/** The value clients send for a call whose signature they do not have (documented; Gemini CLI sends it). */
export const SKIP_SIGNATURE_VALIDATOR = "skip_thought_signature_validator";

/** Whether `model` (with or without `models/`) is a Gemini 3 model, whose answers carry thought signatures. */
export function signsThoughts(model: string): boolean {
  return /^(?:models\/)?gemini-3(?:[.-]|$)/.test(model);
}

/**
 * A signature for the message whose ids derive from `idSeed`: opaque base64 as real ones are (a protobuf, so they
 * start `C…`): `CkI` + 89 base62 characters, 92 in all — whole 3-byte groups without padding, so a client that
 * decodes it to bytes (the Python SDK) encodes it back to the same text, and no `+`, `/` or `-`, `_` to trip either
 * base64 alphabet. The same for the same seed.
 * @example thoughtSignatureFor("weather/run-1/call/1") // "CkI…" (92 characters)
 */
export function thoughtSignatureFor(idSeed: string): string {
  return `CkI${stableToken(`thought-signature|${idSeed}`, 89)}`;
}

/** The real API's words for a call sent back without its signature (`position`: the content's, from 1). */
function missingSignature(name: string, position: number): ApiError {
  return apiError(
    "invalid_request",
    `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${position}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
  );
}

/** Where the current turn starts: the newest `user` content with a part other than a function response. */
function turnStart(contents: readonly Content[]): number {
  for (let i = contents.length - 1; i >= 0; i--) {
    const c = contents[i]!;
    if (c.role === "model") continue;
    if ((c.parts ?? []).some((p) => p.functionResponse === undefined)) return i;
  }
  return 0;
}

/**
 * The real API's signature check for a Gemini 3 request (not Gemini 3 Pro Image, which does not make it), not over
 * Gemini Live (the server keeps that conversation itself); a scenario with `strict: false` skips it with the surface's
 * whole `validate` (src/providers/surface.ts).
 * @example validateThoughtSignatures(wire, request, undefined) // undefined, or the 400
 */
export function validateThoughtSignatures(wire: GeminiWire, request: CanonicalRequest): ApiError | undefined {
  if (request.endpoint !== "generateContent") return undefined;
  if (!signsThoughts(wire.model) || wire.model.includes("-image")) return undefined;
  const contents = wire.body.contents;
  // A step is a run of model contents (a chat keeps each streamed chunk as a content of its own); its first call is
  // the one that carries the signature.
  let checked = false;
  for (let i = turnStart(contents) + 1; i < contents.length; i++) {
    const c = contents[i]!;
    if (c.role !== "model") {
      checked = false;
      continue;
    }
    const call = checked ? undefined : (c.parts ?? []).find((p) => p.functionCall !== undefined);
    if (!call) continue;
    if ((call.thoughtSignature ?? "") === "") return missingSignature(call.functionCall!.name, i + 1);
    checked = true;
  }
  return undefined;
}
