/**
 * `POST /v1/chat/completions` body → canonical request.
 */
import { offeredServerTools } from "./server-tools";
import { headerRecord } from "../../../http/headers";
import { apiError, type ApiError } from "../../../http/errors";
import { toolChoiceFields, type CanonicalMessage, type CanonicalRequest } from "../../../canonical/request";
import type { ParseResult } from "../../types";
import { missingParameter, openaiRequestError } from "../request-error";
import { isRecord } from "../../../http/json";
import { openaiToolChoice } from "../tool-choice";
import { chatWire, type ChatMessage, type ChatRequest } from "./wire";
import { chatOutputSchema, strictTools } from "../structured";
import { safeParseFast } from "../../../util/fast-parse";
import { stopField } from "../../../canonical/stop";
import { checkMetadata } from "../platform";

function contentText(content: ChatMessage["content"]): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  return content.map((p) => p.text ?? "").join("");
}

/** A non-system message in canonical form. */
function toCanonical(m: ChatMessage): CanonicalMessage | undefined {
  switch (m.role) {
    case "user":
      return { role: "user", text: contentText(m.content) };
    case "assistant": {
      const reasoning = m.reasoning_content ?? m.reasoning;
      return {
        role: "assistant",
        text: contentText(m.content),
        toolCalls: (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
        reasoning: reasoning ? [{ text: reasoning }] : [],
      };
    }
    case "tool":
      return { role: "tool", toolCallId: m.tool_call_id ?? "", content: contentText(m.content), isError: false };
    case "function":
      return { role: "tool", toolCallId: m.name ?? "", name: m.name, content: contentText(m.content), isError: false };
    default:
      return undefined;
  }
}

function reasoningOf(w: ChatRequest): "enabled" | "disabled" {
  if (w.reasoning_effort !== undefined && w.reasoning_effort !== null) {
    return w.reasoning_effort === "none" ? "disabled" : "enabled";
  }
  if (w.reasoning) {
    if (w.reasoning.enabled === false || w.reasoning.effort === "none") return "disabled";
    return "enabled";
  }
  return "disabled";
}

/** What Chat Completions answers a body without `model`: its own sentence, with no `param` and no `code`. */
export const MISSING_MODEL = "you must provide a model parameter";

/** The real API's limit on `n`. */
export const MAX_CHOICES = 128;

/**
 * The real API's error for an `n` out of 1…128, else undefined.
 * @example choicesError(129)?.message // "Invalid 'n': integer above maximum value. Expected a value <= 128, but got 129 instead."
 */
export function choicesError(n: number | null | undefined): ApiError | undefined {
  if (typeof n !== "number" || (n >= 1 && n <= MAX_CHOICES)) return undefined;
  const [what, bound, code] = n < 1 ? ["below minimum", ">= 1", "integer_below_min_value"] : ["above maximum", `<= ${MAX_CHOICES}`, "integer_above_max_value"];
  return apiError("invalid_request", `Invalid 'n': integer ${what} value. Expected a value ${bound}, but got ${n} instead.`, { param: "n", providerCode: code });
}

/** Roles whose messages the real API refuses without `content` (an assistant's may carry only tool calls, or `content: null`). */
const CONTENT_REQUIRED: ReadonlySet<string> = new Set(["system", "developer", "user", "tool"]);

/**
 * The real API's error for the first message of a role that needs `content` and has none, else undefined: an absent
 * `content` is a missing parameter, a `null` one the real API's own sentence with its dotted `messages.[i]` param.
 * @example missingContentError([{ role: "user" }])?.param // "messages[0].content"
 * @example missingContentError([{ role: "user", content: null }])?.message // "Invalid value for 'content': expected a string, got null."
 */
export function missingContentError(messages: readonly ChatMessage[]): ApiError | undefined {
  const at = messages.findIndex((m) => (m.content === undefined || m.content === null) && CONTENT_REQUIRED.has(m.role));
  if (at < 0) return undefined;
  if (messages[at]?.content === null) {
    return apiError("invalid_request", "Invalid value for 'content': expected a string, got null.", { param: `messages.[${at}].content` });
  }
  return missingParameter(`messages[${at}].content`);
}

/**
 * The real API's error for the first `function` tool without its `function` member, else undefined.
 * @example missingFunctionError([{ type: "function" }])?.param // "tools[0].function"
 */
function missingFunctionError(tools: ChatRequest["tools"]): ApiError | undefined {
  const at = (tools ?? []).findIndex((t) => t.type === "function" && t.function === undefined);
  if (at < 0) return undefined;
  return missingParameter(`tools[${at}].function`);
}

export function parseChatRequest(body: unknown, headers: Headers): ParseResult<ChatRequest> {
  const schema = chatWire().ChatRequestSchema;
  const parsed = safeParseFast(schema, body);
  if (!parsed.success) {
    // The Chat surface's own sentence for a body without a model (no param, no code), before any other fault.
    if (isRecord(body) && (body.model === undefined || body.model === null)) return { ok: false, error: apiError("invalid_request", MISSING_MODEL) };
    return { ok: false, error: openaiRequestError(parsed.error, schema, body) };
  }
  const w = parsed.data;
  const badN = choicesError(w.n) ?? missingContentError(w.messages) ?? missingFunctionError(w.tools);
  if (badN) return { ok: false, error: badN };
  const metadata = checkMetadata(w.metadata);
  if (!metadata.ok) return metadata;
  // One pass over the conversation: system/developer text, and every other message in canonical form.
  const systemParts: string[] = [];
  const messages: CanonicalMessage[] = [];
  for (const m of w.messages) {
    if (m.role === "system" || m.role === "developer") systemParts.push(contentText(m.content));
    else {
      const c = toCanonical(m);
      if (c) messages.push(c);
    }
  }
  const toolChoice = openaiToolChoice(w.tool_choice);
  const request: CanonicalRequest = {
    provider: "openai",
    endpoint: "chat.completions",
    model: w.model,
    stream: w.stream === true,
    system: systemParts.join("\n\n"),
    messages,
    tools: (w.tools ?? []).flatMap((t) => {
      const name = t.function?.name ?? t.custom?.name;
      return name ? [name] : [];
    }),
    ...toolChoiceFields(toolChoice, () => (w.tools ?? []).flatMap((t) => (t.function ? [{ name: t.function.name, schema: t.function.parameters }] : []))),
    ...(typeof w.temperature === "number" ? { temperature: w.temperature } : {}),
    ...(typeof w.top_p === "number" ? { topP: w.top_p } : {}),
    ...(typeof (w.max_completion_tokens ?? w.max_tokens) === "number" ? { maxTokens: (w.max_completion_tokens ?? w.max_tokens)! } : {}),
    ...(typeof w.n === "number" && w.n > 1 ? { choices: w.n } : {}),
    ...stopField(w.stop),
    reasoning: reasoningOf(w),
    headers: headerRecord(headers),
  };
  const outputSchema = chatOutputSchema(w.response_format);
  if (outputSchema !== undefined) request.outputSchema = outputSchema;
  const strict = strictTools(w.tools);
  if (strict.length > 0) request.strictTools = strict.map(({ name, schema }) => ({ name, schema }));
  const serverTools = offeredServerTools(w);
  if (serverTools.length > 0) request.serverTools = serverTools;
  return { ok: true, wire: w, request };
}
