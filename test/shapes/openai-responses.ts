/**
 * OpenAI Responses (`POST /v1/responses`): keys and JSON types per event and JSON body, read from recordings of
 * the live API kept as test fixtures. Written from those files, not copied: see `sources` for where and when.
 */
import type { SurfaceTable } from "./shape";

const VERCEL = "vercel/ai";
const FIXTURES = "packages/openai/src/responses/__fixtures__";

/** The `response` object every lifecycle event carries, under `at` (`response.` in events, "" in the JSON body). */
function responseKeys(at: string, state: "in_progress" | "completed" | "failed"): Record<string, string> {
  const k = (path: string, type: string) => [`${at}${path}`, type] as const;
  const done = state === "completed";
  return Object.fromEntries([
    k("id", "string"),
    k("object", "string"),
    k("created_at", "number"),
    k("status", "string"),
    k("background", "boolean"),
    k("completed_at", done ? "number" : "null"),
    k("error", state === "failed" ? "object" : "null"),
    ...(state === "failed" ? [k("error.code", "string"), k("error.message", "string")] : []),
    k("frequency_penalty", "number"),
    // `incomplete` responses (max_output_tokens) carry `{ reason }`.
    k("incomplete_details", "null|object"),
    k("incomplete_details.reason?", "string"),
    k("instructions", "null|string"),
    k("max_output_tokens", "null|number"),
    k("max_tool_calls", "null"),
    k("model", "string"),
    k("output", "array"),
    k("parallel_tool_calls", "boolean"),
    k("presence_penalty", "number"),
    k("previous_response_id", "null|string"),
    k("prompt_cache_key", "null"),
    k("prompt_cache_retention", "null"),
    k("reasoning", "object"),
    // null for non-reasoning models (openai-python snapshot), a string when a reasoning model answers.
    k("reasoning.effort", "null|string"),
    k("reasoning.summary", "null|string"),
    k("safety_identifier", "null"),
    k("service_tier", "string"),
    k("store", "boolean"),
    k("temperature", "number"),
    k("text", "object"),
    k("tool_choice", "string"),
    k("tools", "array"),
    k("tools[].type", "string"),
    k("tools[].description", "null|string"),
    k("tools[].name", "string"),
    k("tools[].parameters", "null|object"),
    k("tools[].strict", "boolean"),
    k("top_logprobs", "number"),
    k("top_p", "number"),
    k("truncation", "string"),
    k("usage", done ? "object" : "null"),
    ...(done
      ? [
          k("usage.input_tokens", "number"),
          k("usage.input_tokens_details", "object"),
          k("usage.input_tokens_details.cached_tokens", "number"),
          // In recordings since mid 2025 from some models, a required field of the SDK's type since openai 7.50
          // (2026-11); mockllm sends it since wave 35. Optional here: the recordings the table follows predate it.
          k("usage.input_tokens_details.cache_write_tokens?", "number"),
          k("usage.output_tokens", "number"),
          k("usage.output_tokens_details", "object"),
          k("usage.output_tokens_details.reasoning_tokens", "number"),
          k("usage.total_tokens", "number"),
        ]
      : []),
    k("user", "null|string"),
    k("metadata", "object"),
    ...outputKeys(`${at}output[]`),
  ]);
}

/** Output items (message, function_call, reasoning) inside `output[]` or an `item`. */
function outputKeys(at: string): [string, string][] {
  return [
    [`${at}.id`, "string"],
    [`${at}.type`, "string"],
    [`${at}.status?`, "string"],
    [`${at}.content?`, "array"],
    [`${at}.content[].type`, "string"],
    [`${at}.content[].annotations?`, "array"],
    [`${at}.content[].logprobs?`, "array"],
    [`${at}.content[].text?`, "string"],
    [`${at}.content[].refusal?`, "string"],
    [`${at}.role?`, "string"],
    [`${at}.arguments?`, "string"],
    [`${at}.call_id?`, "string"],
    [`${at}.name?`, "string"],
    [`${at}.encrypted_content?`, "string"],
    [`${at}.summary?`, "array"],
    [`${at}.summary[].type`, "string"],
    [`${at}.summary[].text`, "string"],
  ];
}

const seq = { type: "string", sequence_number: "number" };
const at = { item_id: "string", output_index: "number" };

export const openaiResponses: SurfaceTable = {
  surface: "openai-responses",
  sources: {
    toolSearch: { repo: VERCEL, path: `${FIXTURES}/openai-tool-search.1.chunks.txt (+ .1.json)`, recorded: "2026-03-17" },
    compaction: { repo: VERCEL, path: `${FIXTURES}/openai-compaction.1.chunks.txt`, recorded: "2026-03-19" },
    reasoning: { repo: VERCEL, path: `${FIXTURES}/openai-reasoning-encrypted-content.1.chunks.txt`, recorded: "2026-01-05" },
    reasoningContent: { repo: VERCEL, path: `${FIXTURES}/programmatic-tool-calling.1.chunks.txt`, recorded: "2026-07-23" },
    error: { repo: VERCEL, path: `${FIXTURES}/openai-error.1.chunks.txt (+ .1.json)`, recorded: "2025-11-18" },
    python: { repo: "openai/openai-python", path: "tests/lib/responses/test_responses.py (inline snapshot)", recorded: "2025-08-11" },
    // No recording of a streamed refusal was found: the keys are the SDK's ResponseRefusalDeltaEvent/DoneEvent, plus
    // `obfuscation`, which recordings put on every `*.delta` event.
    sdkTypes: { repo: "openai/openai-node", path: "src/resources/responses/responses.ts (ResponseRefusalDeltaEvent)", recorded: "types, not a recording" },
  },
  opaque: ["response.text", "text", "response.tools[].parameters", "tools[].parameters", "response.metadata", "metadata"],
  shapes: {
    "response.created": { from: ["toolSearch", "compaction", "python"], keys: { ...seq, response: "object", ...responseKeys("response.", "in_progress") } },
    "response.in_progress": { from: ["toolSearch", "compaction"], keys: { ...seq, response: "object", ...responseKeys("response.", "in_progress") } },
    "response.completed": { from: ["toolSearch", "compaction", "python"], keys: { ...seq, response: "object", ...responseKeys("response.", "completed") } },
    "response.incomplete": { from: ["toolSearch"], keys: { ...seq, response: "object", ...responseKeys("response.", "in_progress"), "response.usage": "object", ...usage("response.") } },
    "response.failed": { from: ["error"], keys: { ...seq, response: "object", ...responseKeys("response.", "failed") } },
    response: {
      from: ["toolSearch", "python"],
      // The JSON body of an `incomplete` response (max_output_tokens) is not completed: `completed_at` null.
      keys: { ...responseKeys("", "completed"), completed_at: "null|number", billing: "object", "billing.payer": "string" },
    },
    "response.output_item.added:message": {
      from: ["compaction"],
      keys: { ...seq, output_index: "number", item: "object", ...Object.fromEntries(outputKeys("item")) },
    },
    "response.output_item.done:message": {
      from: ["compaction"],
      keys: { ...seq, output_index: "number", item: "object", ...Object.fromEntries(outputKeys("item")) },
    },
    "response.content_part.added": { from: ["compaction"], keys: { ...seq, ...at, content_index: "number", ...part() } },
    "response.content_part.done": { from: ["compaction"], keys: { ...seq, ...at, content_index: "number", ...part() } },
    "response.output_text.delta": {
      from: ["compaction"],
      keys: { ...seq, ...at, content_index: "number", delta: "string", logprobs: "array", obfuscation: "string" },
    },
    "response.output_text.done": { from: ["compaction"], keys: { ...seq, ...at, content_index: "number", text: "string", logprobs: "array" } },
    "response.refusal.delta": { from: ["sdkTypes"], keys: { ...seq, ...at, content_index: "number", delta: "string", obfuscation: "string" } },
    "response.refusal.done": { from: ["sdkTypes"], keys: { ...seq, ...at, content_index: "number", refusal: "string" } },
    "response.output_item.added:function_call": {
      from: ["toolSearch"],
      keys: { ...seq, output_index: "number", item: "object", ...Object.fromEntries(outputKeys("item")), "item.namespace?": "string" },
    },
    "response.output_item.done:function_call": {
      from: ["toolSearch"],
      keys: { ...seq, output_index: "number", item: "object", ...Object.fromEntries(outputKeys("item")), "item.namespace?": "string" },
    },
    "response.function_call_arguments.delta": { from: ["toolSearch"], keys: { ...seq, ...at, delta: "string", obfuscation: "string" } },
    "response.function_call_arguments.done": { from: ["toolSearch"], keys: { ...seq, ...at, arguments: "string" } },
    "response.output_item.added:reasoning": {
      from: ["reasoning", "reasoningContent"],
      keys: { ...seq, output_index: "number", item: "object", ...reasoningItem() },
    },
    "response.output_item.done:reasoning": {
      from: ["reasoning", "reasoningContent"],
      keys: { ...seq, output_index: "number", item: "object", ...reasoningItem() },
    },
    "response.reasoning_summary_part.added": {
      from: ["reasoning"],
      keys: { ...seq, ...at, summary_index: "number", part: "object", "part.type": "string", "part.text": "string" },
    },
    "response.reasoning_summary_text.delta": { from: ["reasoning"], keys: { ...seq, ...at, summary_index: "number", delta: "string", obfuscation: "string" } },
    "response.reasoning_summary_text.done": { from: ["reasoning"], keys: { ...seq, ...at, summary_index: "number", text: "string" } },
    "response.reasoning_summary_part.done": {
      from: ["reasoning"],
      keys: { ...seq, ...at, summary_index: "number", part: "object", "part.type": "string", "part.text": "string" },
    },
    error: {
      from: ["error"],
      keys: { ...seq, error: "object", "error.type": "string", "error.code": "string", "error.message": "string", "error.param": "null" },
    },
    "error-body": {
      from: ["error"],
      keys: { error: "object", "error.message": "string", "error.type": "string", "error.param": "null|string", "error.code": "null|string" },
    },
  },
};

function usage(at: string): Record<string, string> {
  return {
    [`${at}usage.input_tokens`]: "number",
    [`${at}usage.input_tokens_details`]: "object",
    [`${at}usage.input_tokens_details.cached_tokens`]: "number",
    [`${at}usage.input_tokens_details.cache_write_tokens?`]: "number",
    [`${at}usage.output_tokens`]: "number",
    [`${at}usage.output_tokens_details`]: "object",
    [`${at}usage.output_tokens_details.reasoning_tokens`]: "number",
    [`${at}usage.total_tokens`]: "number",
  };
}

function part(): Record<string, string> {
  return { part: "object", "part.type": "string", "part.annotations?": "array", "part.logprobs?": "array", "part.text?": "string", "part.refusal?": "string" };
}

/** Reasoning items: `content: []` (2026 recordings), `encrypted_content` when `include` asks for it, `summary`. */
function reasoningItem(): Record<string, string> {
  return {
    "item.id": "string",
    "item.type": "string",
    "item.content": "array",
    "item.encrypted_content?": "string",
    "item.summary": "array",
    "item.summary[].type": "string",
    "item.summary[].text": "string",
  };
}
