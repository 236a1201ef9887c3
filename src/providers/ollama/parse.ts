/**
 * `POST /api/chat` and `POST /api/generate` bodies → canonical request.
 *
 * Chat: `system`-role messages join with a blank line; `assistant` messages keep their `tool_calls` (arguments
 * stringified) and `thinking`; `tool` messages become canonical tool results. Classic Ollama tool calls carry no
 * id, so each gets `call_{message}_{call}` unless the client sent one, and a tool result is paired with the
 * first unanswered call of the same `tool_name` in the last assistant turn (a `tool_call_id`, which newer
 * clients send, wins). Roles other than these four are accepted and ignored, as most model templates do.
 * Generate: `system` is the system prompt and `prompt` the one user message; `suffix`, `context`, `raw`,
 * `template` and `images` are accepted and not interpreted.
 * Both: `stream` defaults to true; `options.temperature` / `top_p` / `num_predict` (> 0) become temperature,
 * topP and maxTokens; `think: true` or a level turns reasoning on.
 */
import { headerRecord } from "../../http/headers";
import type { CanonicalMessage, CanonicalRequest, CanonicalToolCall } from "../../canonical/request";
import { stopField } from "../../canonical/stop";
import type { ParseResult } from "../types";
import { describeIssue, ollamaWire, type ChatRequest, type GenerateRequest, type WireMessage } from "./wire";
import { safeParseFast } from "../../util/fast-parse";
import type { CanonicalOutputSchema } from "../../canonical/output-schema";
import { ollamaOutputSchema } from "./structured";

type Common = Pick<ChatRequest, "model" | "stream" | "options" | "think" | "format">;

function argumentsText(args: Record<string, unknown> | string | undefined): string {
  if (args === undefined) return "{}";
  return typeof args === "string" ? args : JSON.stringify(args);
}

function assistantMessage(m: WireMessage, index: number): Extract<CanonicalMessage, { role: "assistant" }> {
  return {
    role: "assistant",
    text: m.content ?? "",
    toolCalls: (m.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${index}_${i}`,
      name: c.function.name,
      arguments: argumentsText(c.function.arguments),
    })),
    reasoning: m.thinking !== undefined && m.thinking !== "" ? [{ text: m.thinking }] : [],
  };
}

/** Chat messages → system text and canonical messages, pairing tool results with the calls they answer. */
export function chatMessages(messages: readonly WireMessage[]): { system: string[]; messages: CanonicalMessage[] } {
  const system: string[] = [];
  const out: CanonicalMessage[] = [];
  let open: CanonicalToolCall[] = [];
  messages.forEach((m, index) => {
    switch (m.role) {
      case "system":
        system.push(m.content ?? "");
        break;
      case "user":
        out.push({ role: "user", text: m.content ?? "" });
        break;
      case "assistant": {
        const msg = assistantMessage(m, index);
        open = [...msg.toolCalls];
        out.push(msg);
        break;
      }
      case "tool": {
        const byId = m.tool_call_id !== undefined ? open.findIndex((c) => c.id === m.tool_call_id) : -1;
        const byName = m.tool_name !== undefined ? open.findIndex((c) => c.name === m.tool_name) : -1;
        const at = byId >= 0 ? byId : m.tool_name !== undefined ? byName : open.length > 0 ? 0 : -1;
        const call = at >= 0 ? open.splice(at, 1)[0] : undefined;
        const name = m.tool_name ?? call?.name;
        out.push({
          role: "tool",
          toolCallId: m.tool_call_id ?? call?.id ?? `tool_${index}`,
          ...(name !== undefined ? { name } : {}),
          content: m.content ?? "",
          isError: false,
        });
        break;
      }
      default:
        break;
    }
  });
  return { system, messages: out };
}

function common(w: Common, headers: Headers) {
  const o = w.options ?? {};
  return {
    provider: "ollama" as const,
    model: w.model ?? "",
    stream: w.stream !== false,
    ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
    ...(o.top_p !== undefined ? { topP: o.top_p } : {}),
    ...(o.num_predict !== undefined && o.num_predict > 0 ? { maxTokens: o.num_predict } : {}),
    ...stopField(o.stop),
    reasoning: w.think === undefined || w.think === null || w.think === false ? ("disabled" as const) : ("enabled" as const),
    headers: headerRecord(headers),
    ...outputOf(w.format),
  };
}

/** `{ outputSchema }` when `format` asks for JSON, else nothing. */
function outputOf(format: unknown): { outputSchema?: CanonicalOutputSchema } {
  const outputSchema = ollamaOutputSchema(format);
  return outputSchema !== undefined ? { outputSchema } : {};
}

const MODEL_REQUIRED = { ok: false as const, error: { code: "invalid_request" as const, message: "model is required" } };

function invalid(issues: Parameters<typeof describeIssue>[0]) {
  return { ok: false as const, error: { code: "invalid_request" as const, message: describeIssue(issues) } };
}

/**
 * Validates an `/api/chat` body loosely and maps it to the canonical request.
 * @example parseChatRequest({ model: "llama3.2", messages: [{ role: "user", content: "Hi" }] }, headers) // stream: true
 */
export function parseChatRequest(body: unknown, headers: Headers): ParseResult<ChatRequest> {
  const parsed = safeParseFast(ollamaWire().ChatRequestSchema, body);
  if (!parsed.success) return invalid(parsed.error.issues);
  const w = parsed.data;
  if (!w.model) return MODEL_REQUIRED;
  const { system, messages } = chatMessages(w.messages ?? []);
  const request: CanonicalRequest = {
    ...common(w, headers),
    endpoint: "chat",
    system: system.filter((s) => s !== "").join("\n\n"),
    messages,
    tools: (w.tools ?? []).flatMap((t) => (typeof t.function?.name === "string" ? [t.function.name] : [])),
  };
  return { ok: true, wire: w, request };
}

/**
 * Validates an `/api/generate` body: `prompt` becomes one user message, `system` the system prompt.
 * @example parseGenerateRequest({ model: "llama3.2", prompt: "Why is the sky blue?", stream: false }, headers)
 */
export function parseGenerateRequest(body: unknown, headers: Headers): ParseResult<GenerateRequest> {
  const parsed = safeParseFast(ollamaWire().GenerateRequestSchema, body);
  if (!parsed.success) return invalid(parsed.error.issues);
  const w = parsed.data;
  if (!w.model) return MODEL_REQUIRED;
  const request: CanonicalRequest = {
    ...common(w, headers),
    endpoint: "generate",
    system: w.system ?? "",
    messages: w.prompt !== undefined ? [{ role: "user", text: w.prompt }] : [],
    tools: [],
  };
  return { ok: true, wire: w, request };
}
