/**
 * Gemini (`generateContent`, `streamGenerateContent?alt=sse`): keys and JSON types of stream chunks (a chunk before
 * the last, the finishing chunk) and of the JSON body, read from recordings of the live API kept as test fixtures.
 * Written from those files, not copied: see `sources`.
 */
import type { SurfaceTable } from "./shape";

const FIXTURES = "packages/google/src/__fixtures__";

/** `usageMetadata` as recorded (Feb 2026, Gemini API): zero counts are left out, as proto JSON leaves them out. */
const usage = {
  usageMetadata: "object",
  "usageMetadata.promptTokenCount": "number",
  // Absent on chunks that carry only thoughts (nothing answered yet).
  "usageMetadata.candidatesTokenCount?": "number",
  "usageMetadata.totalTokenCount": "number",
  "usageMetadata.cachedContentTokenCount?": "number",
  "usageMetadata.promptTokensDetails": "array",
  "usageMetadata.promptTokensDetails[].modality": "string",
  "usageMetadata.promptTokensDetails[].tokenCount": "number",
  "usageMetadata.cacheTokensDetails?": "array",
  "usageMetadata.cacheTokensDetails[].modality": "string",
  "usageMetadata.cacheTokensDetails[].tokenCount": "number",
  "usageMetadata.thoughtsTokenCount?": "number",
};

/** A candidate's parts: text, thought text, or a function call; `thoughtSignature` on a call or a text part. */
const candidate = {
  candidates: "array",
  "candidates[].content": "object",
  "candidates[].content.parts": "array",
  "candidates[].content.parts[].text?": "string",
  "candidates[].content.parts[].thought?": "boolean",
  "candidates[].content.parts[].thoughtSignature?": "string",
  "candidates[].content.parts[].functionCall?": "object",
  "candidates[].content.parts[].functionCall.id?": "string",
  "candidates[].content.parts[].functionCall.name": "string",
  "candidates[].content.parts[].functionCall.args": "object",
  "candidates[].content.role": "string",
  "candidates[].index": "number",
};

const envelope = { ...usage, modelVersion: "string", responseId: "string" };

export const gemini: SurfaceTable = {
  surface: "gemini",
  sources: {
    text: { repo: "vercel/ai", path: `${FIXTURES}/google-text.chunks.txt (+ google-text.json)`, recorded: "2026-02-10" },
    toolCall: { repo: "vercel/ai", path: `${FIXTURES}/google-tool-call-gemini3.chunks.txt (+ .json), google-tool-call.chunks.txt`, recorded: "2026-02-10" },
    reasoning: { repo: "vercel/ai", path: `${FIXTURES}/google-reasoning-gemini3.chunks.txt`, recorded: "2026-02-10" },
    thoughts: { repo: "vercel/ai", path: `${FIXTURES}/google-stream-no-args-tool-call.chunks.txt (thought: true parts)`, recorded: "2026-05-04" },
    error: { repo: "vercel/ai", path: `${FIXTURES}/google-429-retry-info.json`, recorded: "2026-08-10" },
  },
  opaque: ["candidates[].content.parts[].functionCall.args", "error.details"],
  shapes: {
    chunk: { from: ["text", "toolCall", "reasoning", "thoughts"], keys: { ...candidate, ...envelope } },
    "chunk:final": {
      from: ["text", "toolCall", "reasoning"],
      keys: {
        ...candidate,
        "candidates[].finishReason": "string",
        // On a function-call finish (JSON bodies of Feb 2026; gemini-2.5 streams end on the call's chunk).
        "candidates[].finishMessage?": "string",
        ...envelope,
      },
    },
    json: {
      from: ["text", "toolCall"],
      keys: { ...candidate, "candidates[].finishReason": "string", "candidates[].finishMessage?": "string", ...envelope },
    },
    error: {
      from: ["error"],
      keys: { error: "object", "error.code": "number", "error.message": "string", "error.status": "string", "error.details?": "array" },
    },
  },
};
