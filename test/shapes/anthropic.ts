/**
 * Anthropic Messages (`POST /v1/messages`): keys and JSON types per SSE event (by `type`, and by content block or
 * delta type) and for the JSON message, read from recordings of the live API kept as test fixtures. Written from
 * those files, not copied: see `sources`.
 */
import type { SurfaceTable } from "./shape";

const FIXTURES = "packages/anthropic/src/__fixtures__";

/** The full `usage` of `message_start` and the JSON message (Feb 2026 recordings). */
function fullUsage(at: string): Record<string, string> {
  return {
    [`${at}usage`]: "object",
    [`${at}usage.input_tokens`]: "number",
    [`${at}usage.cache_creation_input_tokens`]: "number",
    [`${at}usage.cache_read_input_tokens`]: "number",
    [`${at}usage.cache_creation`]: "object",
    [`${at}usage.cache_creation.ephemeral_5m_input_tokens`]: "number",
    [`${at}usage.cache_creation.ephemeral_1h_input_tokens`]: "number",
    [`${at}usage.output_tokens`]: "number",
    // Recorded July 2026 on newer models only.
    [`${at}usage.output_tokens_details?`]: "object",
    [`${at}usage.output_tokens_details.thinking_tokens?`]: "number",
    [`${at}usage.service_tier`]: "string",
    [`${at}usage.inference_geo`]: "string",
  };
}

const block = { type: "string", index: "number", content_block: "object", "content_block.type": "string" };
const delta = { type: "string", index: "number", delta: "object", "delta.type": "string" };

export const anthropic: SurfaceTable = {
  surface: "anthropic",
  sources: {
    text: { repo: "vercel/ai", path: `${FIXTURES}/anthropic-text.chunks.txt (+ anthropic-text.json)`, recorded: "2026-02-12" },
    thinking: { repo: "vercel/ai", path: `${FIXTURES}/anthropic-clear-thinking.1.chunks.txt`, recorded: "2026-02-20" },
    thinkingJson: { repo: "vercel/ai", path: `${FIXTURES}/anthropic-claude-opus-5-reasoning-high.1.json`, recorded: "2026-07-24" },
    tool: { repo: "vercel/ai", path: `${FIXTURES}/anthropic-tool-no-args.chunks.txt (+ .json), anthropic-json-tool.1.chunks.txt`, recorded: "2025-12-01" },
    refusal: { repo: "vercel/ai", path: `${FIXTURES}/anthropic-refusal.chunks.txt`, recorded: "2026-06-09" },
    error: {
      repo: "freeideas/vecsum",
      path: "reports/2026-01-14-12-47-23-313_req_fix_05_logging_RESPONSE.md (a captured 529 body)",
      recorded: "2026-01-14",
    },
    redacted: {
      repo: "anthropics/anthropic-sdk-typescript",
      path: "src/resources/messages/messages.ts (RedactedThinkingBlock; no public recording found)",
      recorded: "types, not a recording",
    },
  },
  opaque: ["content[].input", "content_block.input"],
  shapes: {
    message_start: {
      from: ["text", "thinking", "tool"],
      keys: {
        type: "string",
        message: "object",
        "message.model": "string",
        "message.id": "string",
        "message.type": "string",
        "message.role": "string",
        "message.content": "array",
        "message.stop_reason": "null",
        "message.stop_sequence": "null",
        // Recorded since 2026 (message_start of Claude Code's stream-json, Sonnet 4.6 fixtures); sent since wave 35.
        "message.stop_details?": "null",
        ...fullUsage("message."),
        "message.diagnostics?": "null",
      },
    },
    "content_block_start:text": { from: ["text"], keys: { ...block, "content_block.text": "string" } },
    "content_block_start:thinking": { from: ["thinking"], keys: { ...block, "content_block.thinking": "string", "content_block.signature": "string" } },
    "content_block_start:redacted_thinking": { from: ["redacted"], keys: { ...block, "content_block.data": "string" } },
    "content_block_start:tool_use": {
      from: ["tool"],
      keys: { ...block, "content_block.id": "string", "content_block.name": "string", "content_block.input": "object" },
    },
    ping: { from: ["text", "thinking", "tool"], keys: { type: "string" } },
    "content_block_delta:text_delta": { from: ["text"], keys: { ...delta, "delta.text": "string" } },
    "content_block_delta:thinking_delta": { from: ["thinking"], keys: { ...delta, "delta.thinking": "string" } },
    "content_block_delta:signature_delta": { from: ["thinking"], keys: { ...delta, "delta.signature": "string" } },
    "content_block_delta:input_json_delta": { from: ["tool"], keys: { ...delta, "delta.partial_json": "string" } },
    content_block_stop: { from: ["text", "thinking", "tool"], keys: { type: "string", index: "number" } },
    message_delta: {
      from: ["text", "thinking", "tool", "refusal"],
      keys: {
        type: "string",
        delta: "object",
        "delta.stop_reason": "string",
        "delta.stop_sequence": "null",
        // Recorded since 2026: null, or a refusal's explanation; mockllm sends both since wave 35.
        "delta.stop_details?": "null|object",
        usage: "object",
        "usage.input_tokens": "number",
        "usage.cache_creation_input_tokens": "number",
        "usage.cache_read_input_tokens": "number",
        "usage.output_tokens": "number",
      },
    },
    message_stop: { from: ["text", "thinking", "tool"], keys: { type: "string" } },
    message: {
      from: ["text", "tool", "thinkingJson"],
      keys: {
        model: "string",
        id: "string",
        type: "string",
        role: "string",
        content: "array",
        "content[].type": "string",
        "content[].text?": "string",
        "content[].thinking?": "string",
        "content[].signature?": "string",
        "content[].data?": "string",
        "content[].id?": "string",
        "content[].name?": "string",
        "content[].input?": "object",
        stop_reason: "string",
        stop_sequence: "null",
        "stop_details?": "null|object",
        ...fullUsage(""),
        "diagnostics?": "null",
      },
    },
    error: {
      from: ["error"],
      keys: { type: "string", error: "object", "error.type": "string", "error.message": "string", "error.details?": "null", request_id: "string" },
    },
  },
};
