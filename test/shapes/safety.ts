/**
 * Shapes of the `content_filter` failure's renderings where they add keys to a surface's usual events (Anthropic
 * `stop_details`, Gemini `promptFeedback` and `safetyRatings`, Bedrock's guardrail `trace`). Everything else a filtered
 * answer sends is checked against the surface's own table (test/shapes/{anthropic,gemini,bedrock,openai-*}.ts).
 * A source whose `path` says "documentation only" is an SDK type or a documentation page, not a recording: no public
 * recording of that rendering was found; the fields read from it are marked in the comments.
 */
import type { SurfaceTable } from "./shape";

const ANTHROPIC_FIXTURES = "packages/anthropic/src/__fixtures__";
const GOOGLE_FIXTURES = "packages/google/src/__fixtures__";

const anthropicUsage = {
  usage: "object",
  "usage.input_tokens": "number",
  "usage.cache_creation_input_tokens": "number",
  "usage.cache_read_input_tokens": "number",
  "usage.output_tokens": "number",
};

/** `stop_details` of a refusal (recorded 2026 with `recommended_model`, which mockllm does not send). */
function stopDetails(at: string): Record<string, string> {
  return {
    [`${at}stop_details`]: "object",
    [`${at}stop_details.type`]: "string",
    [`${at}stop_details.category`]: "null|string",
    [`${at}stop_details.explanation`]: "null|string",
    [`${at}stop_details.recommended_model?`]: "string",
  };
}

export const anthropicSafety: SurfaceTable = {
  surface: "anthropic (refusal)",
  sources: {
    refusal: { repo: "vercel/ai", path: `${ANTHROPIC_FIXTURES}/anthropic-refusal.chunks.txt (+ anthropic-refusal.json), commit d7e3880f`, recorded: "2026" },
  },
  opaque: [],
  shapes: {
    "message_delta:refusal": {
      from: ["refusal"],
      keys: { type: "string", delta: "object", "delta.stop_reason": "string", "delta.stop_sequence": "null", ...stopDetails("delta."), ...anthropicUsage },
    },
    "message:refusal": {
      from: ["refusal"],
      keys: {
        model: "string",
        id: "string",
        type: "string",
        role: "string",
        content: "array",
        // The recorded refusal has no content; a refusal after partial text keeps its text block [DOC handle-streaming-refusals].
        "content[].type?": "string",
        "content[].text?": "string",
        stop_reason: "string",
        stop_sequence: "null",
        ...stopDetails(""),
        ...anthropicUsage,
        "usage.cache_creation": "object",
        "usage.cache_creation.ephemeral_5m_input_tokens": "number",
        "usage.cache_creation.ephemeral_1h_input_tokens": "number",
        "usage.service_tier": "string",
        "usage.inference_geo": "string",
        // Recorded on every message since 2026 (fidelity.md, "The SDKs of December 2026"), not in this 2026 refusal.
        "diagnostics?": "null",
      },
    },
  },
};

/** `safetyRatings[]`: Vertex adds the scores and severities (`?`: the Gemini Developer API leaves them out). */
function ratings(at: string): Record<string, string> {
  return {
    [at]: "array",
    [`${at}[].category`]: "string",
    [`${at}[].probability`]: "string",
    [`${at}[].blocked?`]: "boolean",
    [`${at}[].probabilityScore?`]: "number",
    [`${at}[].severity?`]: "string",
    [`${at}[].severityScore?`]: "number",
  };
}

const geminiUsage = {
  usageMetadata: "object",
  "usageMetadata.promptTokenCount": "number",
  "usageMetadata.candidatesTokenCount?": "number",
  "usageMetadata.totalTokenCount": "number",
  "usageMetadata.promptTokensDetails": "array",
  "usageMetadata.promptTokensDetails[].modality": "string",
  "usageMetadata.promptTokensDetails[].tokenCount": "number",
  // Recorded Sept 2026 on the blocked prompt; mockllm does not send it.
  "usageMetadata.serviceTier?": "string",
  modelVersion: "string",
  responseId: "string",
};

const candidate = {
  candidates: "array",
  "candidates[].content": "object",
  "candidates[].content.parts": "array",
  "candidates[].content.parts[].text": "string",
  "candidates[].content.role": "string",
  "candidates[].finishReason": "string",
  "candidates[].index": "number",
  "candidates[].finishMessage?": "string",
  ...ratings("candidates[].safetyRatings"),
};

export const geminiSafety: SurfaceTable = {
  surface: "gemini (safety)",
  sources: {
    promptBlock: { repo: "vercel/ai", path: `${GOOGLE_FIXTURES}/issue-19758-prompt-block.json (+ .chunks.txt), commit 5b80b38a`, recorded: "2026" },
    sdk: {
      repo: "googleapis/js-genai",
      path: "dist/genai.d.ts PromptFeedback, Candidate, SafetyRating (documentation only: no public recording of safetyRatings or a SAFETY finish)",
      recorded: "@google/genai 3.1.0",
    },
  },
  opaque: [],
  shapes: {
    // Recorded: promptFeedback.blockReason, usage, modelVersion, responseId; documentation only: blockReasonMessage, safetyRatings.
    promptBlocked: {
      from: ["promptBlock", "sdk"],
      keys: { promptFeedback: "object", "promptFeedback.blockReason": "string", "promptFeedback.blockReasonMessage?": "string", ...ratings("promptFeedback.safetyRatings"), ...geminiUsage },
    },
    // Documentation only: the SAFETY finish with its ratings.
    "chunk:safety": { from: ["sdk"], keys: { ...candidate, ...geminiUsage } },
    "json:safety": { from: ["sdk"], keys: { ...candidate, ...geminiUsage } },
  },
};

const bedrockUsage = {
  usage: "object",
  "usage.inputTokens": "number",
  "usage.outputTokens": "number",
  "usage.totalTokens": "number",
  "usage.serverToolUsage?": "object",
  "usage.cacheReadInputTokens?": "number",
  "usage.cacheWriteInputTokens?": "number",
};

/** `trace.guardrail` with the assessment of guardrail `gr-abc123` (the id the request's guardrailConfig names). */
function trace(side: "input" | "output"): Record<string, string> {
  const at = side === "input" ? "trace.guardrail.inputAssessment.gr-abc123" : "trace.guardrail.outputAssessments.gr-abc123[]";
  const filters = `${at}.contentPolicy.filters`;
  return {
    trace: "object",
    "trace.guardrail": "object",
    "trace.guardrail.actionReason": "string",
    ...(side === "input"
      ? { "trace.guardrail.inputAssessment": "object" }
      : { "trace.guardrail.outputAssessments": "object", "trace.guardrail.modelOutput": "array", "trace.guardrail.modelOutput[]": "string" }),
    [side === "input" ? at : "trace.guardrail.outputAssessments.gr-abc123"]: side === "input" ? "object" : "array",
    [`${at}.contentPolicy`]: "object",
    [filters]: "array",
    [`${filters}[].action`]: "string",
    [`${filters}[].confidence`]: "string",
    [`${filters}[].detected`]: "boolean",
    [`${filters}[].filterStrength`]: "string",
    [`${filters}[].type`]: "string",
  };
}

const converseBody = {
  metrics: "object",
  "metrics.latencyMs": "number",
  output: "object",
  "output.message": "object",
  "output.message.role": "string",
  "output.message.content": "array",
  "output.message.content[].text": "string",
  stopReason: "string",
  ...bedrockUsage,
};

export const bedrockSafety: SurfaceTable = {
  surface: "bedrock (guardrail)",
  sources: {
    sdk: {
      repo: "aws/aws-sdk-js-v3",
      path: "clients/client-bedrock-runtime ConverseCommand.d.ts, ConverseStreamCommand.d.ts GuardrailTraceAssessment (documentation only, with docs.aws.amazon.com …/guardrails-use-converse-api: no public recording of a guardrail trace)",
      recorded: "3.1164.0",
    },
  },
  opaque: [],
  shapes: {
    "json:guardrail:input": { from: ["sdk"], keys: { ...converseBody, ...trace("input") } },
    "json:guardrail:output": { from: ["sdk"], keys: { ...converseBody, ...trace("output") } },
    "metadata:guardrail:input": { from: ["sdk"], keys: { metrics: "object", "metrics.latencyMs": "number", ...bedrockUsage, ...trace("input") } },
    "metadata:guardrail:output": { from: ["sdk"], keys: { metrics: "object", "metrics.latencyMs": "number", ...bedrockUsage, ...trace("output") } },
  },
};
