/**
 * The reply kinds of the surfaces apps call beside the chat (contract section 10, "Other surfaces"): what a step's
 * `respond` may script for a moderation, an image, speech, a transcript, a rerank or a decision. Each surface's own folder reads
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
  flagged: z.boolean().optional().describe("Default: true when `categories` names any."),
  categories: z.array(ModerationCategorySchema).optional().describe("Category names as the API spells them (`harassment`, `self-harm/intent`, `violence/graphic`, …)."),
  scores: z.partialRecord(ModerationCategorySchema, z.number().min(0).max(1)).optional().describe("Scores per category name, 0…1, overriding the defaults."),
});

/** `POST /v1/images/*` and Gemini's image answers: the picture's colour (else one derived from the prompt) and DALL·E 3's `revised_prompt`. */
export const ImageReplySchema = z.strictObject({
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #3366ff")
    .optional()
    .describe("The picture's colour (default: one derived from the prompt)."),
  revisedPrompt: z.string().optional().describe("`revised_prompt` in the answer (dall-e-3); Imagen's enhanced `prompt` (`enhancePrompt`)."),
});

/** `POST /v1/audio/speech` and Gemini's speech answers: the audio's length (default: from the input's word count). */
export const SpeechReplySchema = z.strictObject({
  durationMs: z.number().int().min(0).max(600_000).optional().describe("The audio's length in milliseconds (default: from the input's word count)."),
});

/** `POST /v1/audio/transcriptions` and `/translations`: the transcript, as text or with its language and length. */
export const TranscriptReplySchema = z.union([
  z.string(),
  z.strictObject({
    text: z.string().describe("The transcript's text."),
    language: z.string().min(1).optional().describe("The language reported (`verbose_json`); default `english`."),
    durationSeconds: z.number().min(0).optional().describe("Seconds of audio the transcript covers (segments are spread over it)."),
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
  order: z.array(z.number().int().min(0)).optional().describe("Document indexes, best first; documents not listed follow by their default score."),
  scores: z.array(z.number().min(0).max(1)).optional().describe("Relevance scores by document index (0…1)."),
});

/**
 * One question's scripted answer (`POST /v1/decisions`, Gemini's `/v1beta/decisions`): `true` / `false` or a
 * probability for a predicate, the chosen value for a choice, the level (0-based index or label) for a score,
 * `{ value, confidence }` to set the winner's probability, `{ refusal: true }` to decline it.
 */
export const DecisionAnswerSchema = z.union([
  z.boolean(),
  z.number(),
  z.string(),
  z.strictObject({
    value: z.union([z.boolean(), z.number(), z.string()]).describe("The answer, as the short form would write it."),
    confidence: z.number().min(0).max(1).optional().describe("The winning outcome's probability (default 0.95 for a predicate, 0.9 otherwise)."),
  }),
  z.strictObject({ refusal: z.literal(true).describe("The model declines this question: a `refusal` answer, or none for it where the API has no refusal.") }),
]);

/** `POST /v1/decisions` and Gemini's decisions: answers by question (OpenAI's `name`, else its 0-based position; Gemini's question id). */
export const DecisionReplySchema = z.record(z.string().min(1), DecisionAnswerSchema);

export type ModerationReply = z.output<typeof ModerationReplySchema>;
export type ImageReply = z.output<typeof ImageReplySchema>;
export type SpeechReply = z.output<typeof SpeechReplySchema>;
export type TranscriptReply = z.output<typeof TranscriptReplySchema>;
export type RerankReply = z.output<typeof RerankReplySchema>;
export type DecisionAnswer = z.output<typeof DecisionAnswerSchema>;
export type DecisionReply = z.output<typeof DecisionReplySchema>;
