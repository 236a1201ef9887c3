/**
 * Cohere's v1 Chat (`POST /v1/chat`: `CohereClient.chat` and `chatStream`, LangChain's `ChatCohere`): the request is
 * the new `message`, the `preamble` (system prompt), the `chat_history` before it (`USER`, `CHATBOT` with its
 * `tool_calls`, `SYSTEM`, `TOOL` with its `tool_results`) and this turn's `tool_results`. v1 tool calls carry no id:
 * each gets `{name}_{message}_{call}` in the canonical conversation, and a tool result is the result of the call of
 * the last chatbot turn with the same name and parameters (else the same name). `response_format` (`json_object`,
 * with or without `schema`), `documents` (flat records, cited by the answer), `max_tokens`, `temperature`, `p`, `k`,
 * `stop_sequences` and `stream` are read; `connectors`, `conversation_id` and the rest are accepted and not.
 */
import { z } from "zod";
import { headerRecord } from "../../http/headers";
import type { CanonicalMessage, CanonicalRequest, CanonicalToolCall } from "../../canonical/request";
import type { ApiError } from "../../http/errors";
import { safeParseFast } from "../../util/fast-parse";
import { lazily } from "../../util/memo";
import type { ParseResult } from "../types";
import { cohereOutputSchema, samplingError, samplingFields } from "./chat-parse";
import { invalid, issueError } from "./parse";

/** The model a v1 request without one is answered by (the v1 API reference's default). */
export const DEFAULT_V1_CHAT_MODEL = "command-r-plus-08-2024";

/** Built on the first `/v1/chat` request (util/memo.ts `lazily`). Loose: unknown fields pass. */
const v1Wire = lazily(() => {
  const ToolCallSchema = z.looseObject({ name: z.string(), parameters: z.record(z.string(), z.unknown()).nullish() });
  const ToolResultSchema = z.looseObject({ call: ToolCallSchema, outputs: z.array(z.unknown()).nullish() });
  const MessageSchema = z.looseObject({
    role: z.enum(["USER", "CHATBOT", "SYSTEM", "TOOL"]),
    message: z.string().nullish(),
    tool_calls: z.array(ToolCallSchema).nullish(),
    tool_results: z.array(ToolResultSchema).nullish(),
  });
  const ChatV1Schema = z.looseObject({
    message: z.string(),
    model: z.string().nullish(),
    preamble: z.string().nullish(),
    chat_history: z.array(MessageSchema).nullish(),
    tool_results: z.array(ToolResultSchema).nullish(),
    tools: z.array(z.looseObject({ name: z.string(), description: z.string().nullish(), parameter_definitions: z.record(z.string(), z.unknown()).nullish() })).nullish(),
    documents: z.array(z.record(z.string(), z.unknown())).nullish(),
    response_format: z.looseObject({ type: z.enum(["text", "json_object"]), schema: z.record(z.string(), z.unknown()).nullish() }).nullish(),
    stream: z.boolean().nullish(),
    max_tokens: z.number().int().nullish(),
    temperature: z.number().nullish(),
    p: z.number().nullish(),
    k: z.number().int().nullish(),
    frequency_penalty: z.number().nullish(),
    presence_penalty: z.number().nullish(),
    stop_sequences: z.array(z.string()).nullish(),
    citation_quality: z.string().nullish(),
    force_single_step: z.boolean().nullish(),
  });
  return { ChatV1Schema };
});

export type CohereChatV1Body = z.output<ReturnType<typeof v1Wire>["ChatV1Schema"]>;
type V1ToolResult = NonNullable<CohereChatV1Body["tool_results"]>[number];

/** The parsed v1 request the renderer reads. */
export interface CohereChatV1Request {
  body: CohereChatV1Body;
}

/** The canonical results of `results`, each paired with the call of `calls` it answers (and that call used up). */
function toolResults(results: readonly V1ToolResult[], calls: CanonicalToolCall[], at: number): CanonicalMessage[] {
  const open = [...calls];
  return results.map((r, j) => {
    const args = JSON.stringify(r.call.parameters ?? {});
    const exact = open.findIndex((c) => c.name === r.call.name && c.arguments === args);
    const found = exact >= 0 ? exact : open.findIndex((c) => c.name === r.call.name);
    const call = found >= 0 ? open.splice(found, 1)[0] : undefined;
    return { role: "tool", toolCallId: call?.id ?? `${r.call.name}_${at}_${j}`, name: r.call.name, content: JSON.stringify(r.outputs ?? []), isError: false };
  });
}

/** The history, then this turn's tool results and message, as the canonical conversation and system text. */
function conversation(body: CohereChatV1Body): { system: string; messages: CanonicalMessage[] } {
  const system: string[] = body.preamble ? [body.preamble] : [];
  const messages: CanonicalMessage[] = [];
  let calls: CanonicalToolCall[] = [];
  for (const [i, m] of (body.chat_history ?? []).entries()) {
    if (m.role === "SYSTEM") system.push(m.message ?? "");
    else if (m.role === "USER") messages.push({ role: "user", text: m.message ?? "" });
    else if (m.role === "CHATBOT") {
      calls = (m.tool_calls ?? []).map((c, j) => ({ id: `${c.name}_${i}_${j}`, name: c.name, arguments: JSON.stringify(c.parameters ?? {}) }));
      messages.push({ role: "assistant", text: m.message ?? "", toolCalls: calls, reasoning: [] });
    } else messages.push(...toolResults(m.tool_results ?? [], calls, i));
  }
  messages.push(...toolResults(body.tool_results ?? [], calls, body.chat_history?.length ?? 0));
  if (body.message !== "") messages.push({ role: "user", text: body.message });
  return { system: system.filter((s) => s !== "").join("\n\n"), messages };
}

function boundsError(body: CohereChatV1Body): ApiError | undefined {
  if (body.message.trim() === "" && (body.tool_results?.length ?? 0) === 0) return invalid("message must be at least 1 token long or tool results must be specified.");
  return samplingError(body);
}

/**
 * The API's refusal of a `message` beside `tool_results` in multi-step tool use (its default since 2024; single-step,
 * `force_single_step: true`, takes both): the surface's `validate`, so a scenario with `strict: false` is answered.
 */
export function multistepError(wire: CohereChatV1Request): ApiError | undefined {
  const { message, tool_results, force_single_step } = wire.body;
  if (message.trim() === "" || (tool_results?.length ?? 0) === 0 || force_single_step === true) return undefined;
  return invalid("cannot specify both message and tool_results in multistep mode");
}

/**
 * Validates a `/v1/chat` body into the canonical request.
 * @example parseCohereChatV1({ message: "Hi", chat_history: [{ role: "USER", message: "Earlier" }] }, headers) // two user messages
 */
export function parseCohereChatV1(raw: unknown, headers: Headers): ParseResult<CohereChatV1Request> {
  const parsed = safeParseFast(v1Wire().ChatV1Schema, raw);
  if (!parsed.success) return { ok: false, error: issueError(parsed.error) };
  const body = parsed.data;
  const bad = boundsError(body);
  if (bad) return { ok: false, error: bad };
  const { system, messages } = conversation(body);
  const request: CanonicalRequest = {
    provider: "cohere",
    endpoint: "chat",
    model: body.model ?? DEFAULT_V1_CHAT_MODEL,
    stream: body.stream === true,
    system,
    messages,
    tools: (body.tools ?? []).map((t) => t.name),
    ...samplingFields(body),
    reasoning: "disabled",
    headers: headerRecord(headers),
    ...cohereOutputSchema(body.response_format?.type, body.response_format?.schema),
  };
  return { ok: true, wire: { body }, request };
}
