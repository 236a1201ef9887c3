/**
 * Bedrock Converse (`/converse`, `/converse-stream`): keys and JSON types of each ConverseStream event's payload
 * (kind = `:event-type`, refined by the delta's member), of the JSON body, of a mid-stream exception and of an HTTP
 * error body, read from recordings of the live service that vercel/ai keeps as test fixtures. Written from those
 * files, not copied: see `sources`. The random `p` padding the live service adds to each event is left out on
 * purpose (`p?`: present in the live capture, absent from the others).
 */
import type { SurfaceTable } from "./shape";

const FIXTURES = "packages/amazon-bedrock/src/__fixtures__";

const usage = {
  usage: "object",
  "usage.inputTokens": "number",
  "usage.outputTokens": "number",
  "usage.totalTokens": "number",
  "usage.serverToolUsage?": "object",
  "usage.cacheReadInputTokens?": "number",
  "usage.cacheWriteInputTokens?": "number",
  // Deprecated spellings some recordings still carry; the mock sends the current ones.
  "usage.cacheReadInputTokenCount?": "number",
  "usage.cacheWriteInputTokenCount?": "number",
};

const index = { contentBlockIndex: "number", "p?": "string" };

export const bedrock: SurfaceTable = {
  surface: "bedrock",
  sources: {
    text: { repo: "vercel/ai", path: `${FIXTURES}/bedrock-text.chunks.txt, amazon-bedrock-text.json`, recorded: "2025-2026" },
    live: { repo: "vercel/ai", path: `${FIXTURES}/issue-18994-live-converse-stream.json (raw event stream, eu.anthropic.claude-sonnet-4-6)`, recorded: "2026-08-18" },
    reasoning: { repo: "vercel/ai", path: `${FIXTURES}/bedrock-reasoning.chunks.txt, amazon-bedrock-reasoning.json`, recorded: "2025-2026" },
    redacted: { repo: "vercel/ai", path: `${FIXTURES}/amazon-bedrock-redacted-content.chunks.txt`, recorded: "2026" },
    tool: { repo: "vercel/ai", path: `${FIXTURES}/bedrock-tool-call.1.chunks.txt, bedrock-tool-call.1.json`, recorded: "2025-2026" },
    exception: { repo: "vercel/ai", path: `${FIXTURES}/model-stream-error-exception.eventstream.base64.txt`, recorded: "2026" },
    error: { repo: "vercel/ai", path: `${FIXTURES}/amazon-bedrock-empty-message-validation-error.json`, recorded: "2026-08-05" },
  },
  opaque: ["output.message.content[].toolUse.input"],
  shapes: {
    messageStart: { from: ["text", "live", "reasoning"], keys: { role: "string", "p?": "string" } },
    "contentBlockDelta:text": { from: ["text", "live"], keys: { ...index, delta: "object", "delta.text": "string" } },
    "contentBlockDelta:reasoningContent": {
      from: ["reasoning", "redacted"],
      keys: {
        ...index,
        delta: "object",
        "delta.reasoningContent": "object",
        "delta.reasoningContent.text?": "string",
        "delta.reasoningContent.signature?": "string",
        "delta.reasoningContent.redactedContent?": "string",
      },
    },
    "contentBlockStart:toolUse": {
      from: ["tool", "redacted"],
      keys: { ...index, start: "object", "start.toolUse": "object", "start.toolUse.toolUseId": "string", "start.toolUse.name": "string" },
    },
    "contentBlockDelta:toolUse": { from: ["tool", "redacted"], keys: { ...index, delta: "object", "delta.toolUse": "object", "delta.toolUse.input": "string" } },
    contentBlockStop: { from: ["text", "live", "tool"], keys: index },
    messageStop: {
      from: ["text", "live", "tool"],
      keys: {
        stopReason: "string",
        "p?": "string",
        // Claude models' passthrough; absent on other models.
        "additionalModelResponseFields?": "object",
        "additionalModelResponseFields.delta": "object",
        "additionalModelResponseFields.delta.stop_sequence": "null",
      },
    },
    metadata: { from: ["text", "live", "tool"], keys: { metrics: "object", "metrics.latencyMs": "number", "p?": "string", ...usage } },
    json: {
      from: ["text", "reasoning", "tool"],
      keys: {
        "metrics?": "object",
        "metrics.latencyMs": "number",
        output: "object",
        "output.message": "object",
        "output.message.role": "string",
        "output.message.content": "array",
        "output.message.content[].text?": "string",
        "output.message.content[].reasoningContent?": "object",
        "output.message.content[].reasoningContent.reasoningText?": "object",
        "output.message.content[].reasoningContent.reasoningText.text": "string",
        "output.message.content[].reasoningContent.reasoningText.signature": "string",
        "output.message.content[].reasoningContent.redactedContent?": "string",
        "output.message.content[].toolUse?": "object",
        "output.message.content[].toolUse.toolUseId": "string",
        "output.message.content[].toolUse.name": "string",
        "output.message.content[].toolUse.input": "object",
        stopReason: "string",
        ...usage,
      },
    },
    "exception:modelStreamErrorException": {
      from: ["exception"],
      keys: { message: "string", "originalStatusCode?": "number", "originalMessage?": "string" },
    },
    error: { from: ["error"], keys: { message: "string" } },
  },
};
