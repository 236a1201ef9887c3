/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`): keys and JSON types per chunk kind and JSON body, read from
 * recordings of the live API kept as test fixtures. Written from those files, not copied: see `sources`.
 *
 * Chunk kinds (see `chatKind` in the shape test): role (first chunk of a choice), content, refusal, tool_call (a
 * call's head: id, type, name), tool_arguments, finish, usage (`choices: []`).
 */
import type { SurfaceTable } from "./shape";

/** Fields every chunk carries (2026 recording: `service_tier` between `model` and `system_fingerprint`, `obfuscation` last). */
const envelope = {
  id: "string",
  object: "string",
  created: "number",
  model: "string",
  service_tier: "string",
  system_fingerprint: "string",
  choices: "array",
  // `usage: null` on every chunk only when `stream_options.include_usage` is set.
  "usage?": "null",
  obfuscation: "string",
};

const choice = {
  "choices[].index": "number",
  "choices[].delta": "object",
  "choices[].logprobs": "null",
  "choices[].finish_reason": "null",
};

/** The `usage` object's keys (Azure's chunks carry the same, test/shapes/azure.ts). */
export const chatUsage = {
  "usage.prompt_tokens": "number",
  "usage.completion_tokens": "number",
  "usage.total_tokens": "number",
  "usage.prompt_tokens_details": "object",
  "usage.prompt_tokens_details.cached_tokens": "number",
  "usage.prompt_tokens_details.audio_tokens": "number",
  "usage.completion_tokens_details": "object",
  "usage.completion_tokens_details.reasoning_tokens": "number",
  "usage.completion_tokens_details.audio_tokens": "number",
  "usage.completion_tokens_details.accepted_prediction_tokens": "number",
  "usage.completion_tokens_details.rejected_prediction_tokens": "number",
};

export const openaiChat: SurfaceTable = {
  surface: "openai-chat",
  sources: {
    text: { repo: "vercel/ai", path: "packages/openai/src/chat/__fixtures__/openai-text.chunks.txt (+ openai-text.json)", recorded: "2026-02-12" },
    toolCall: {
      repo: "openai/openai-python",
      path: ".inline-snapshot/external/2018feb66ae13fcf5333d61b95849decc68d3f63bd38172889367e1afb1e04f7.bin, f82268f2fefd….bin",
      recorded: "2024-09-26",
    },
    refusal: { repo: "openai/openai-python", path: ".inline-snapshot/external/173417d553406f034f643e5db3f8d591fb691ebac56f5ae39a22cc7d455c5353.bin", recorded: "2024-09-26" },
    multiChoice: { repo: "openai/openai-python", path: ".inline-snapshot/external/a491adda08c3d4fde95f5b2ee3f60f7f745f1a56d82e62f58031cc2add502380.bin", recorded: "2024-09-26" },
    error: { repo: "vercel/ai", path: "packages/openai/src/responses/__fixtures__/openai-error.1.json", recorded: "2025-11-18" },
  },
  opaque: ["choices[].message.tool_calls[].function.arguments"],
  shapes: {
    "chunk:role": {
      from: ["text", "toolCall", "refusal"],
      keys: {
        ...envelope,
        ...choice,
        "choices[].delta.role": "string",
        // "" before text, null before tool calls or a refusal.
        "choices[].delta.content": "null|string",
        // null, or "" when a refusal follows (2024 refusal recording).
        "choices[].delta.refusal?": "null|string",
        // Recordings may carry the first tool call's head in the role chunk; mockllm sends it on its own.
        "choices[].delta.tool_calls?": "array",
        "choices[].delta.tool_calls[].index": "number",
        "choices[].delta.tool_calls[].id": "string",
        "choices[].delta.tool_calls[].type": "string",
        "choices[].delta.tool_calls[].function": "object",
        "choices[].delta.tool_calls[].function.name": "string",
        "choices[].delta.tool_calls[].function.arguments": "string",
      },
    },
    "chunk:content": { from: ["text", "multiChoice"], keys: { ...envelope, ...choice, "choices[].delta.content": "string" } },
    "chunk:refusal": { from: ["refusal"], keys: { ...envelope, ...choice, "choices[].delta.refusal": "string" } },
    "chunk:tool_call": {
      from: ["toolCall"],
      keys: {
        ...envelope,
        ...choice,
        "choices[].delta.tool_calls": "array",
        "choices[].delta.tool_calls[].index": "number",
        "choices[].delta.tool_calls[].id": "string",
        "choices[].delta.tool_calls[].type": "string",
        "choices[].delta.tool_calls[].function": "object",
        "choices[].delta.tool_calls[].function.name": "string",
        "choices[].delta.tool_calls[].function.arguments": "string",
      },
    },
    "chunk:tool_arguments": {
      from: ["toolCall"],
      keys: {
        ...envelope,
        ...choice,
        "choices[].delta.tool_calls": "array",
        "choices[].delta.tool_calls[].index": "number",
        "choices[].delta.tool_calls[].function": "object",
        "choices[].delta.tool_calls[].function.arguments": "string",
      },
    },
    "chunk:finish": { from: ["text", "multiChoice"], keys: { ...envelope, ...choice, "choices[].finish_reason": "string" } },
    "chunk:usage": { from: ["text"], keys: { ...envelope, usage: "object", ...chatUsage } },
    "chat.completion": {
      from: ["text", "toolCall"],
      keys: {
        id: "string",
        object: "string",
        created: "number",
        model: "string",
        choices: "array",
        "choices[].index": "number",
        "choices[].message": "object",
        "choices[].message.role": "string",
        "choices[].message.content": "null|string",
        "choices[].message.refusal": "null|string",
        "choices[].message.annotations": "array",
        "choices[].message.tool_calls?": "array",
        "choices[].message.tool_calls[].id": "string",
        "choices[].message.tool_calls[].type": "string",
        "choices[].message.tool_calls[].function": "object",
        "choices[].message.tool_calls[].function.name": "string",
        "choices[].message.tool_calls[].function.arguments": "string",
        "choices[].logprobs": "null",
        "choices[].finish_reason": "string",
        usage: "object",
        ...chatUsage,
        service_tier: "string",
        system_fingerprint: "string",
      },
    },
    error: {
      from: ["error"],
      keys: { error: "object", "error.message": "string", "error.type": "string", "error.param": "null|string", "error.code": "null|string" },
    },
  },
};
