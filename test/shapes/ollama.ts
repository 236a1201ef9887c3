/**
 * Ollama native API (`/api/chat`, `/api/generate`): keys and JSON types of NDJSON lines (a line before the last,
 * the final `done: true` line) and of the `stream: false` bodies. Written from the sources below, not copied.
 */
import type { SurfaceTable } from "./shape";

const stats = {
  done_reason: "string",
  total_duration: "number",
  load_duration: "number",
  prompt_eval_count: "number",
  prompt_eval_duration: "number",
  eval_count: "number",
  eval_duration: "number",
};

/** An assistant message: content, thinking (when some), tool calls (`id` + `function.index` since 0.12.x). */
const message = {
  message: "object",
  "message.role": "string",
  "message.content": "string",
  "message.thinking?": "string",
  "message.tool_calls?": "array",
  "message.tool_calls[].id": "string",
  "message.tool_calls[].function": "object",
  "message.tool_calls[].function.index": "number",
  "message.tool_calls[].function.name": "string",
  "message.tool_calls[].function.arguments": "object",
};

const generate = {
  response: "string",
  "thinking?": "string",
  "tool_calls?": "array",
  "tool_calls[].id": "string",
  "tool_calls[].function": "object",
  "tool_calls[].function.index": "number",
  "tool_calls[].function.name": "string",
  "tool_calls[].function.arguments": "object",
};

export const ollama: SurfaceTable = {
  surface: "ollama",
  sources: {
    docs: { repo: "ollama/ollama", path: "docs/api.md (response examples of /api/chat and /api/generate)", recorded: "2025-09" },
    generate: {
      repo: "attogram/ollama-bash-lib",
      path: "demos/ollama_generate_stream_json.md, demos/ollama_generate_json.md (at 1e749bf, a local server)",
      recorded: "2025-08-23",
    },
    generateCloud: { repo: "attogram/ollama-bash-lib", path: "demos/ollama_generate_stream_json.md (at HEAD: no context, no durations)", recorded: "2025-09-09" },
    toolIds: { repo: "ollama/ollama", path: "server/routes.go toolCallId(), api/types.go ToolCall (id, function.index)", recorded: "source, 0.12.10+" },
  },
  opaque: ["message.tool_calls[].function.arguments", "tool_calls[].function.arguments"],
  shapes: {
    chat: { from: ["docs", "toolIds"], keys: { model: "string", created_at: "string", ...message, done: "boolean" } },
    "chat:final": { from: ["docs"], keys: { model: "string", created_at: "string", ...message, done: "boolean", ...stats } },
    generate: { from: ["generate", "toolIds"], keys: { model: "string", created_at: "string", ...generate, done: "boolean" } },
    "generate:final": {
      from: ["generate", "generateCloud"],
      // `context` is `omitempty` in Ollama's server: a server that keeps no token context sends none.
      keys: { model: "string", created_at: "string", ...generate, done: "boolean", ...stats, "context?": "array" },
    },
    error: { from: ["docs"], keys: { error: "string" } },
  },
};
