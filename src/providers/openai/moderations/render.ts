/**
 * Moderation results: one per input, every category and score. A step's `respond.moderation` flags the categories
 * it names (scores high) and may set `flagged` and any score; without it nothing is flagged and every score is low,
 * derived from a hash of the input's text, so the same text always scores the same.
 */
import type { Reply } from "../../../canonical/outcome";
import type { SafetyCategory } from "../../../canonical/safety-categories";
import { seededRandom, stableHash, stableHex } from "../../../util/hash";
import type { Failure } from "../../../scenario/schema";
import { MODERATION_CATEGORIES, type ModerationCategory, type ModerationReply } from "../../../scenario/surface-replies";
import type { RenderContext, SseEvent } from "../../types";
import { isLegacyModerationModel } from "./parse";
import type { ModerationInput, ModerationsRequest } from "./wire";

/** The categories the omni models also score images for (the SDK's `Array<'text' | 'image'>` ones). */
const IMAGE_CATEGORIES: ReadonlySet<ModerationCategory> = new Set(["self-harm", "self-harm/instructions", "self-harm/intent", "sexual", "violence", "violence/graphic"]);

/** The categories the legacy text models do not have: `null` in their answers. */
const OMNI_ONLY: ReadonlySet<ModerationCategory> = new Set(["illicit", "illicit/violent"]);

/**
 * The default score of `category` for `text`: low (below 0.001), from a hash, six significant digits; a flagged
 * category's is high (0.9…0.99).
 * @example hashScore("hello", "violence", false) // 0.000412… (the same every time)
 */
export function hashScore(text: string, category: ModerationCategory, flagged: boolean): number {
  const r = seededRandom(stableHash(`modr|${category}|${text}`))();
  return Number((flagged ? 0.9 + r * 0.09 : 1e-6 + r * 1e-3).toPrecision(6));
}

function appliedTypes(input: ModerationInput, category: ModerationCategory, legacy: boolean): string[] {
  if (legacy) return ["text"];
  const types: string[] = [];
  if (input.hasText) types.push("text");
  if (input.hasImage && IMAGE_CATEGORIES.has(category)) types.push("image");
  return types;
}

/** One entry of `results`. */
export function moderationResult(input: ModerationInput, scripted: ModerationReply | undefined, legacy: boolean) {
  const chosen = new Set(scripted?.categories ?? []);
  const categories: Record<string, boolean | null> = {};
  const scores: Record<string, number | null> = {};
  const applied: Record<string, string[]> = {};
  for (const c of MODERATION_CATEGORIES) {
    const flagged = chosen.has(c);
    const absent = legacy && OMNI_ONLY.has(c) && !flagged && scripted?.scores?.[c] === undefined;
    categories[c] = absent ? null : flagged;
    scores[c] = absent ? null : (scripted?.scores?.[c] ?? hashScore(input.text, c, flagged));
    applied[c] = appliedTypes(input, c, legacy);
  }
  return { flagged: scripted?.flagged ?? chosen.size > 0, categories, category_scores: scores, category_applied_input_types: applied };
}

/** `modr-` + 32 hex characters, from the reply's id seed. */
export function moderationId(idSeed: string): string {
  return `modr-${stableHex(`modr|${idSeed}`, 32)}`;
}

/** The moderation category a `content_filter` failure's neutral category flags. */
export const SAFETY_TO_MODERATION: Record<SafetyCategory, ModerationCategory> = {
  hate: "hate",
  sexual: "sexual",
  violence: "violence",
  self_harm: "self-harm",
  harassment: "harassment",
  dangerous: "illicit",
  jailbreak: "illicit",
};

/**
 * What the results script: `respond.moderation`, plus, when a `content_filter` failure answers the request, its
 * categories flagged (a moderation has no refusal of its own: the filter's verdict is a flagged result).
 */
export function scriptedModeration(reply: Reply): ModerationReply | undefined {
  if (reply.safety === undefined) return reply.moderation;
  const categories = new Set([...(reply.moderation?.categories ?? []), ...reply.safety.categories.map((c) => SAFETY_TO_MODERATION[c])]);
  return { ...reply.moderation, categories: [...categories] };
}

export function renderModerationsJson(reply: Reply, ctx: RenderContext<ModerationsRequest>): unknown {
  const legacy = isLegacyModerationModel(ctx.wire.model);
  const scripted = scriptedModeration(reply);
  return {
    id: moderationId(reply.idSeed),
    model: reply.model,
    results: ctx.wire.inputs.map((input) => moderationResult(input, scripted, legacy)),
  };
}

/** Moderations never stream (a `stream` field is refused in parse); the interface's transcript is the body as one event. */
export function renderModerationsEvents(reply: Reply, ctx: RenderContext<ModerationsRequest>): SseEvent[] {
  return [{ data: JSON.stringify(renderModerationsJson(reply, ctx)) }];
}

export function renderModerationsStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  const message = failure.message ?? "The server had an error while processing your request. Sorry about that!";
  return { data: JSON.stringify({ error: { message, type: failure.errorType ?? "server_error", param: null, code: null } }) };
}
