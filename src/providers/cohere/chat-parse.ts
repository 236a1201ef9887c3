/**
 * Cohere `POST /v2/chat` bodies → canonical request. `system` messages join with a blank line; a `user` message's
 * text items (or its string) are its text — images and documents are accepted and not read; an `assistant` message
 * keeps its `tool_calls`, its `thinking` items as reasoning, and its text (its `tool_plan` when it has no content: the
 * text a tool-calling turn sends); a `tool` message is the result of the call its `tool_call_id` names (its text items,
 * its documents as JSON). `response_format: json_object` (with or without `json_schema`) asks for structured output,
 * constrained as Cohere's JSON mode is; `strict_tools` makes every tool strict; `tool_choice` `REQUIRED`/`NONE` and
 * `thinking` are read (reasoning models think unless told `disabled`). Bounds are the API's documented ranges, each
 * refused with a 400 naming its field (docs/providers/cohere.md).
 */
import { headerRecord } from "../../http/headers";
import { toolChoiceFields, type CanonicalMessage, type CanonicalRequest, type CanonicalToolCall, type CanonicalToolChoice } from "../../canonical/request";
import type { CanonicalOutputSchema, CanonicalStrictTool } from "../../canonical/output-schema";
import type { ApiError } from "../../http/errors";
import { safeParseFast } from "../../util/fast-parse";
import { jsonSchemaOutput } from "../output-schema-wire";
import type { ParseResult } from "../types";
import { cohereChatWire, type CohereChatBody, type CohereChatMessage, type CohereChatRequest, type CohereContent } from "./chat-wire";
import { invalid, issueError } from "./parse";

/** Most stop sequences a request may carry (the API reference: "a list of up to 5 strings"). */
const MAX_STOP_SEQUENCES = 5;

/** A number field's documented range, inclusive. */
const RANGES = [
  ["temperature", 0, Number.POSITIVE_INFINITY],
  ["p", 0, 1],
  ["k", 0, 500],
  ["frequency_penalty", 0, 1],
  ["presence_penalty", 0, 1],
] as const;

/** The text of a content field: the string, or its text items joined (documents as their JSON when `documents`). */
function contentText(content: CohereContent | null | undefined, documents = false): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  const parts: string[] = [];
  for (const item of content) {
    if (item.type === "text" && typeof item.text === "string") parts.push(item.text);
    else if (documents && item.type === "document" && item.document !== undefined) parts.push(JSON.stringify(item.document));
  }
  return parts.join("\n");
}

function thinkingOf(content: CohereContent | null | undefined): { text: string }[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((item) => (item.type === "thinking" && typeof item.thinking === "string" && item.thinking !== "" ? [{ text: item.thinking }] : []));
}

function assistantMessage(m: CohereChatMessage, index: number): Extract<CanonicalMessage, { role: "assistant" }> {
  const text = contentText(m.content);
  return {
    role: "assistant",
    text: text !== "" ? text : (m.tool_plan ?? ""),
    toolCalls: (m.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${index}_${i}`,
      name: c.function?.name ?? "",
      arguments: c.function?.arguments ?? "{}",
    })),
    reasoning: thinkingOf(m.content),
  };
}

/** The conversation: system text and canonical messages, each tool result named by the call it answers. */
export function chatMessages(messages: readonly CohereChatMessage[]): { system: string; messages: CanonicalMessage[] } {
  const system: string[] = [];
  const out: CanonicalMessage[] = [];
  let calls: CanonicalToolCall[] = [];
  messages.forEach((m, index) => {
    switch (m.role) {
      case "system":
        system.push(contentText(m.content));
        break;
      case "user":
        out.push({ role: "user", text: contentText(m.content) });
        break;
      case "assistant": {
        const msg = assistantMessage(m, index);
        calls = msg.toolCalls;
        out.push(msg);
        break;
      }
      case "tool": {
        const id = m.tool_call_id ?? "";
        const name = calls.find((c) => c.id === id)?.name;
        out.push({ role: "tool", toolCallId: id, ...(name !== undefined ? { name } : {}), content: contentText(m.content, true), isError: false });
        break;
      }
    }
  });
  return { system: system.filter((s) => s !== "").join("\n\n"), messages: out };
}

/** The sampling fields both Chat versions take. */
export type CohereSampling = Partial<Record<(typeof RANGES)[number][0] | "max_tokens", number | null>> & { stop_sequences?: string[] | null };

/** The first sampling field out of its documented range, as Cohere's 400 (both Chat versions). */
export function samplingError(body: CohereSampling): ApiError | undefined {
  for (const [field, min, max] of RANGES) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (value < min || value > max) return invalid(max === Number.POSITIVE_INFINITY ? `${field} must be at least ${min}` : `${field} must be between ${min} and ${max}`);
  }
  if (body.max_tokens !== undefined && body.max_tokens !== null && body.max_tokens < 1) return invalid("max_tokens must be greater than 0");
  if ((body.stop_sequences?.length ?? 0) > MAX_STOP_SEQUENCES) return invalid(`stop_sequences must contain at most ${MAX_STOP_SEQUENCES} strings`);
  return undefined;
}

/** The sampling fields as the canonical request's: temperature, topP, maxTokens, the stop sequences sent (empty ones dropped). */
export function samplingFields(body: CohereSampling): Pick<CanonicalRequest, "temperature" | "topP" | "maxTokens" | "stopSequences"> {
  const stops = body.stop_sequences?.filter((s) => s !== "") ?? [];
  return {
    ...(body.temperature !== undefined && body.temperature !== null ? { temperature: body.temperature } : {}),
    ...(body.p !== undefined && body.p !== null ? { topP: body.p } : {}),
    ...(body.max_tokens !== undefined && body.max_tokens !== null ? { maxTokens: body.max_tokens } : {}),
    ...(stops.length > 0 ? { stopSequences: stops } : {}),
  };
}

/** The first bound the body breaks, as Cohere's 400. */
function boundsError(body: CohereChatBody): ApiError | undefined {
  if (body.model.trim() === "") return invalid("model is required");
  if (body.messages.length === 0) return invalid("messages must not be empty");
  const sampling = samplingError(body);
  if (sampling) return sampling;
  if (body.thinking?.token_budget !== undefined && body.thinking.token_budget !== null && body.thinking.token_budget < 1) {
    return invalid("thinking.token_budget must be greater than 0");
  }
  if (body.tool_choice === "REQUIRED" && (body.tools?.length ?? 0) === 0) return invalid("tool_choice REQUIRED requires tools to be specified");
  for (const [i, m] of body.messages.entries()) {
    if (m.role === "tool" && (m.tool_call_id === undefined || m.tool_call_id === null || m.tool_call_id === "")) return invalid(`messages[${i}].tool_call_id is required`);
  }
  return undefined;
}

/**
 * `response_format` → the structured output asked for: `json_object` with its schema (v2's `json_schema`, v1's
 * `schema`; constrained, as Cohere's JSON mode is) or without; `text` asks for none. Both Chat versions.
 */
export function cohereOutputSchema(type: string | null | undefined, schema: Record<string, unknown> | null | undefined): { outputSchema?: CanonicalOutputSchema } {
  if (type !== "json_object") return {};
  return { outputSchema: schema !== undefined && schema !== null ? jsonSchemaOutput(schema, undefined, true) : { kind: "json_object" } };
}

/** Reasoning asked for: `thinking.type` when sent, else on for a reasoning model ("enabled by default for models that support it"). */
function reasoningOf(body: CohereChatBody): "enabled" | "disabled" {
  const type = body.thinking?.type ?? (/reasoning/i.test(body.model) ? "enabled" : "disabled");
  return type === "enabled" ? "enabled" : "disabled";
}

function toolChoiceOf(choice: CohereChatBody["tool_choice"]): CanonicalToolChoice | undefined {
  if (choice === "REQUIRED") return { kind: "required" };
  if (choice === "NONE") return { kind: "none" };
  return undefined;
}

function toolSchemas(body: CohereChatBody): CanonicalStrictTool[] {
  return (body.tools ?? []).map((t) => ({ name: t.function.name, schema: t.function.parameters ?? {} }));
}

/**
 * Validates a `/v2/chat` body (loosely: unknown fields pass) into the canonical request.
 * @example parseCohereChat({ model: "command-a-03-2025", messages: [{ role: "user", content: "Hi" }] }, headers) // stream: false
 */
export function parseCohereChat(raw: unknown, headers: Headers): ParseResult<CohereChatRequest> {
  const parsed = safeParseFast(cohereChatWire().ChatRequestSchema, raw);
  if (!parsed.success) return { ok: false, error: issueError(parsed.error) };
  const body = parsed.data;
  const bad = boundsError(body);
  if (bad) return { ok: false, error: bad };
  const { system, messages } = chatMessages(body.messages);
  const request: CanonicalRequest = {
    provider: "cohere",
    endpoint: "chat",
    model: body.model,
    stream: body.stream === true,
    system,
    messages,
    tools: (body.tools ?? []).map((t) => t.function.name),
    ...toolChoiceFields(toolChoiceOf(body.tool_choice), () => toolSchemas(body)),
    ...samplingFields(body),
    reasoning: reasoningOf(body),
    headers: headerRecord(headers),
    ...cohereOutputSchema(body.response_format?.type, body.response_format?.json_schema),
    ...(body.strict_tools === true && (body.tools?.length ?? 0) > 0 ? { strictTools: toolSchemas(body) } : {}),
  };
  return { ok: true, wire: { body }, request };
}
