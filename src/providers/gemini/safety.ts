/**
 * A `content_filter` failure on Gemini's generateContent (and Vertex's): a blocked prompt is a 200 with no
 * `candidates` and `promptFeedback.blockReason: "SAFETY"`; a stopped answer is `finishReason: "SAFETY"` with the
 * candidate's `safetyRatings` marking the flagged categories `blocked: true`. Vertex adds scores and severities.
 * [SRC @google/genai `PromptFeedback`, `SafetyRating`, `HarmCategory`; DOC ai.google.dev …/safety-settings]
 */
import type { Reply } from "../../canonical/outcome";
import type { ReplySafety, SafetyCategory } from "../../canonical/safety";

/** Neutral category → Gemini's harm category (Gemini has no violence or self-harm category: dangerous content). */
const HARM_CATEGORIES: Record<SafetyCategory, string> = {
  hate: "HARM_CATEGORY_HATE_SPEECH",
  sexual: "HARM_CATEGORY_SEXUALLY_EXPLICIT",
  violence: "HARM_CATEGORY_DANGEROUS_CONTENT",
  self_harm: "HARM_CATEGORY_DANGEROUS_CONTENT",
  harassment: "HARM_CATEGORY_HARASSMENT",
  dangerous: "HARM_CATEGORY_DANGEROUS_CONTENT",
  jailbreak: "HARM_CATEGORY_JAILBREAK",
};

/** The four categories the API rates on every answer, in the order it lists them. */
const RATED = ["HARM_CATEGORY_HATE_SPEECH", "HARM_CATEGORY_DANGEROUS_CONTENT", "HARM_CATEGORY_HARASSMENT", "HARM_CATEGORY_SEXUALLY_EXPLICIT"];

/**
 * `safetyRatings`: the four rated categories (plus any other flagged one), flagged ones `HIGH` and `blocked: true`,
 * the rest `NEGLIGIBLE`; on Vertex each also carries `probabilityScore`, `severity` and `severityScore`.
 */
export function safetyRatings(safety: ReplySafety, vertex: boolean): Record<string, unknown>[] {
  const flagged = new Set(safety.categories.map((c) => HARM_CATEGORIES[c]));
  const categories = [...RATED, ...[...flagged].filter((c) => !RATED.includes(c))];
  return categories.map((category) => {
    const hit = flagged.has(category);
    const scores = vertex
      ? hit
        ? { probabilityScore: 0.953125, severity: "HARM_SEVERITY_HIGH", severityScore: 0.87890625 }
        : { probabilityScore: 0.0390625, severity: "HARM_SEVERITY_NEGLIGIBLE", severityScore: 0.0546875 }
      : {};
    return { category, probability: hit ? "HIGH" : "NEGLIGIBLE", ...scores, ...(hit ? { blocked: true } : {}) };
  });
}

/** What a filtered candidate adds: its `safetyRatings` (and `finishMessage`, when scripted). */
export function candidateSafety(reply: Reply, vertex: boolean): Record<string, unknown> {
  if (!reply.safety) return {};
  return { ...(reply.safety.message !== undefined ? { finishMessage: reply.safety.message } : {}), safetyRatings: safetyRatings(reply.safety, vertex) };
}

/**
 * The whole answer to a blocked prompt: `promptFeedback` and prompt-only usage, no `candidates`.
 * @example promptBlocked(reply, reply.safety, "r1", false).promptFeedback // { blockReason: "SAFETY", safetyRatings: [...] }
 */
export function promptBlocked(reply: Reply, safety: ReplySafety, responseId: string, vertex: boolean): Record<string, unknown> {
  const u = reply.usage;
  return {
    promptFeedback: {
      blockReason: "SAFETY",
      ...(safety.message !== undefined ? { blockReasonMessage: safety.message } : {}),
      safetyRatings: safetyRatings(safety, vertex),
    },
    usageMetadata: { promptTokenCount: u.inputTokens, totalTokenCount: u.inputTokens, promptTokensDetails: [{ modality: "TEXT", tokenCount: u.inputTokens }] },
    modelVersion: reply.model,
    responseId,
  };
}

/**
 * Gemini Live has no `finishReason`: a filtered turn ends with `turnComplete` and `turnCompleteReason`,
 * `PROHIBITED_INPUT_CONTENT` for a blocked prompt, `RESPONSE_REJECTED` for a stopped answer
 * [SRC @google/genai `TurnCompleteReason`; which value the service sends for a safety block is UNVERIFIED].
 */
export function liveTurnCompleteReason(reply: Reply): { turnCompleteReason?: string } {
  if (!reply.safety) return {};
  return { turnCompleteReason: reply.safety.on === "prompt" ? "PROHIBITED_INPUT_CONTENT" : "RESPONSE_REJECTED" };
}
