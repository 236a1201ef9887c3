/**
 * A `content_filter` failure on OpenAI Images (`/v1/images/generations`, `/edits`, `/variations`), on the prompt or
 * on the picture (`on: "completion"`): the real API refuses a blocked request with a 400, never a picture —
 * `type: "image_generation_user_error"`, `code: "moderation_blocked"`, `moderation_details` naming the stage and the
 * moderation categories, the message naming the request id and the violations
 * [OBS ucx0204/CarrotMangaTranslator#122; ../shared/protocols.md 10.5.2]. The SDK throws `BadRequestError` with that
 * `code`. JSON and stream requests alike (a stream is refused before its first event).
 */
import type { ReplySafety } from "../../../canonical/safety";
import type { RenderedError } from "../../types";
import { SAFETY_TO_MODERATION } from "../moderations/render";

/** The refusal's wording, the request id and the violated categories appended as the real API does. */
export function imageBlockedMessage(requestId: string, categories: readonly string[]): string {
  return `Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID ${requestId}. safety_violations=[${categories.join(", ")}].`;
}

/** The 400 a blocked image prompt (stage `input`) or picture (stage `output`) answers; a scripted `message` replaces the wording. */
export function renderImagesPromptBlock(safety: ReplySafety, requestId: string): RenderedError {
  const categories = [...new Set(safety.categories.map((c) => SAFETY_TO_MODERATION[c]))];
  const error = {
    message: safety.message ?? imageBlockedMessage(requestId, categories),
    type: "image_generation_user_error",
    param: null,
    code: "moderation_blocked",
    moderation_details: { moderation_stage: safety.on === "prompt" ? "input" : "output", categories },
  };
  return { status: 400, body: { error }, headers: {} };
}
