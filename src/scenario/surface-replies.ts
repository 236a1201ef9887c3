/**
 * The reply kinds of the surfaces apps call beside the chat (contract section 10, "Other surfaces"): what a step's
 * `respond` may script for a moderation, an image, speech, a transcript or a rerank. Each surface's own folder reads
 * its kind from the resolved reply (src/canonical/outcome.ts) and answers a deterministic default without one.
 */
import { z } from "zod";

/** The 13 categories of `POST /v1/moderations`, in the order the API lists them. */
export const MODERATION_CATEGORIES = [
  "harassment",
  "harassment/threatening",
  "hate",
  "hate/threatening",
  "illicit",
  "illicit/violent",
  "self-harm",
  "self-harm/instructions",
  "self-harm/intent",
  "sexual",
  "sexual/minors",
  "violence",
  "violence/graphic",
] as const;
export const ModerationCategorySchema = z.enum(MODERATION_CATEGORIES);
export type ModerationCategory = z.output<typeof ModerationCategorySchema>;

/** `POST /v1/moderations`: which categories are flagged; scores default to high for flagged, low for the rest. */
export const ModerationReplySchema = z.strictObject({
  /** Default: true when `categories` names any. */
  flagged: z.boolean().optional(),
  /** Category names as the API spells them (`harassment`, `self-harm/intent`, `violence/graphic`, …). */
  categories: z.array(ModerationCategorySchema).optional(),
  /** Scores per category name, 0…1, overriding the defaults. */
  scores: z.partialRecord(ModerationCategorySchema, z.number().min(0).max(1)).optional(),
});

/** `POST /v1/images/*`: the picture's colour (else one derived from the prompt) and the `revised_prompt`. */
export const ImageReplySchema = z.strictObject({
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #3366ff")
    .optional(),
  revisedPrompt: z.string().optional(),
});

/** `POST /v1/audio/speech`: the audio's length (default: from the input's word count). */
export const SpeechReplySchema = z.strictObject({
  durationMs: z.number().int().min(0).max(600_000).optional(),
});

/** `POST /v1/audio/transcriptions` and `/translations`: the transcript, as text or with its language and length. */
export const TranscriptReplySchema = z.union([
  z.string(),
  z.strictObject({
    text: z.string(),
    language: z.string().min(1).optional(),
    /** Seconds of audio the transcript covers (segments are spread over it). */
    durationSeconds: z.number().min(0).optional(),
  }),
]);

/** What an unscripted transcription says. */
export const DEFAULT_TRANSCRIPT = "The quick brown fox jumps over the lazy dog.";

/** The text a transcription answers: the scripted transcript's, else DEFAULT_TRANSCRIPT. */
export function transcriptText(scripted: TranscriptReply | undefined): string {
  return typeof scripted === "string" ? scripted : (scripted?.text ?? DEFAULT_TRANSCRIPT);
}

/** `POST /v2/rerank` and `/v1/rerank`: the documents' order (indexes, best first) and/or their scores by index. */
export const RerankReplySchema = z.strictObject({
  order: z.array(z.number().int().min(0)).optional(),
  scores: z.array(z.number().min(0).max(1)).optional(),
});

export type ModerationReply = z.output<typeof ModerationReplySchema>;
export type ImageReply = z.output<typeof ImageReplySchema>;
export type SpeechReply = z.output<typeof SpeechReplySchema>;
export type TranscriptReply = z.output<typeof TranscriptReplySchema>;
export type RerankReply = z.output<typeof RerankReplySchema>;
