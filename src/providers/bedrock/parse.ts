/**
 * Bedrock request bodies → canonical requests. Converse: the model from the path, `system` text blocks joined with
 * a blank line, a user message's `toolResult` blocks become canonical `{ role: "tool" }` messages (before its
 * text), an assistant's `toolUse` blocks its tool calls and `reasoningContent` its reasoning. InvokeModel: an
 * Anthropic Messages body (`anthropic_version: "bedrock-2023-05-31"`, no `model`, no `stream`), parsed by the
 * Anthropic surface with the model and stream choice from the path.
 */
import { z } from "zod";
import { addUserTurn, toolChoiceFields, type CanonicalMessage, type CanonicalToolResult, type CanonicalRequest, type CanonicalToolChoice } from "../../canonical/request";
import { stopField } from "../../canonical/stop";
import { headerRecord } from "../../http/headers";
import type { ApiError } from "../../http/errors";
import { coralError } from "./conversation";
import { parseAnthropicOnCloud } from "../anthropic/on-cloud";
import type { MessagesRequest } from "../anthropic/wire";
import type { ParseResult, RequestTarget } from "../types";
import { bedrockTarget } from "./paths";
import { converseWire, type ContentBlock, type ConverseWire } from "./wire";
import { safeParseFast } from "../../util/fast-parse";
import { lazily } from "../../util/memo";
import { joinText } from "../../util/text";
import { bedrockOutputSchema } from "./structured";

function textOf(blocks: readonly ContentBlock[]): string {
  return joinText(blocks, (b) => (typeof b.text === "string" ? b.text : undefined));
}

function toolResultText(result: NonNullable<ContentBlock["toolResult"]>): string {
  return joinText(result.content ?? [], (c) => (typeof c.text === "string" ? c.text : c.json !== undefined ? JSON.stringify(c.json) : ""));
}

/** A `toolResult` block as a canonical tool result; undefined for a block of another kind. */
function toolResult(b: ContentBlock): CanonicalToolResult | undefined {
  const r = b.toolResult;
  return r ? { role: "tool", toolCallId: r.toolUseId, content: toolResultText(r), isError: r.status === "error" } : undefined;
}

function assistantMessage(blocks: readonly ContentBlock[]): CanonicalMessage {
  const message: Extract<CanonicalMessage, { role: "assistant" }> = { role: "assistant", text: textOf(blocks), toolCalls: [], reasoning: [] };
  for (const b of blocks) {
    if (b.toolUse) message.toolCalls.push({ id: b.toolUse.toolUseId, name: b.toolUse.name, arguments: JSON.stringify(b.toolUse.input ?? {}) });
    const r = b.reasoningContent;
    if (!r) continue;
    if (r.reasoningText) message.reasoning.push({ text: r.reasoningText.text, ...(r.reasoningText.signature !== undefined ? { signature: r.reasoningText.signature } : {}) });
    else if (r.redactedContent !== undefined) message.reasoning.push({ text: "", redacted: r.redactedContent });
  }
  return message;
}

/** Claude's `thinking: { type: "enabled" | "adaptive" }` in `additionalModelRequestFields` asks for reasoning. */
function reasoningOf(fields: Record<string, unknown> | undefined): "enabled" | "disabled" {
  const thinking = fields?.thinking;
  const type = typeof thinking === "object" && thinking !== null ? (thinking as { type?: unknown }).type : undefined;
  return type === "enabled" || type === "adaptive" ? "enabled" : "disabled";
}

/** Built on the first tool choice read (util/memo.ts `lazily`). */
const toolChoiceSchema = lazily(() =>
  z.looseObject({
    any: z.looseObject({}).optional(),
    tool: z.looseObject({ name: z.string() }).optional(),
  }),
);

/**
 * Converse's `toolConfig.toolChoice` (a union: `{ auto: {} }`, `{ any: {} }`, `{ tool: { name } }`) → the canonical
 * choice; `auto` and anything else are left out.
 * @example converseToolChoice({ tool: { name: "get_weather" } }) // { kind: "tool", name: "get_weather" }
 */
export function converseToolChoice(raw: unknown): CanonicalToolChoice | undefined {
  // Most requests name no tool choice: answered before the schema, whose failed union would build issues to discard.
  if (raw === undefined || raw === null) return undefined;
  const parsed = toolChoiceSchema().safeParse(raw);
  if (!parsed.success) return undefined;
  const c = parsed.data;
  if (c.tool !== undefined) return { kind: "tool", name: c.tool.name };
  return c.any !== undefined ? { kind: "required" } : undefined;
}

/** A Converse tool's `inputSchema.json`, when it has one. */
function inputSchema(spec: Record<string, unknown>): unknown {
  const input = spec.inputSchema;
  return typeof input === "object" && input !== null && "json" in input ? input.json : undefined;
}

/** A zod path as the service names a member: list members counted from 1, `member` after them (`messages.1.member.role`). */
function coralPath(path: readonly PropertyKey[]): string {
  return path.map((k) => (typeof k === "number" ? `${k + 1}.member` : String(k))).join(".");
}

const ARTICLE: Record<string, string> = { array: "a list", object: "a structure", record: "a structure", int: "an integer", number: "a number", string: "a string", boolean: "a boolean" };

/** The constraint a zod issue stands for, in the service's sentence (`Member must satisfy enum value set: [user, assistant]`). */
function constraintOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      // No capture of the service's answer to a value of the wrong JSON type: mockllm's sentence, in its form.
      return issue.input === undefined ? "Member must not be null" : `Member must be ${ARTICLE[issue.expected] ?? issue.expected}`;
    case "invalid_value":
      return `Member must satisfy enum value set: [${issue.values.map(String).join(", ")}]`;
    case "too_small":
      return issue.origin === "number" ? `Member must have value greater than or equal to ${String(issue.minimum)}` : `Member must have length greater than or equal to ${String(issue.minimum)}`;
    default:
      return issue.message;
  }
}

/** Every issue of a failed parse as the service's request validation lists them (conversation.ts `coralError`). */
function validationError(issues: readonly z.core.$ZodIssue[]): ApiError {
  return coralError(issues.map((i) => [coralPath(i.path), constraintOf(i)] as const));
}

/**
 * `POST /model/{modelId}/converse` (or `/converse-stream`) body → canonical request.
 * @example parseConverse({ messages: [{ role: "user", content: [{ text: "Hi" }] }] }, headers, { path: "/model/m/converse", query })
 */
export function parseConverse(body: unknown, headers: Headers, target: RequestTarget): ParseResult<ConverseWire> {
  const path = bedrockTarget(target.path);
  const parsed = safeParseFast(converseWire().ConverseRequestSchema, body, { reportInput: true });
  if (!parsed.success) return { ok: false, error: validationError(parsed.error.issues) };
  const w = parsed.data;
  if (w.messages === undefined) return { ok: false, error: coralError([["messages", "Member must not be null"]]) };
  const modelId = path?.modelId ?? "";
  const messages: CanonicalMessage[] = [];
  for (const m of w.messages) {
    if (m.role === "user") addUserTurn(messages, m.content, toolResult, () => textOf(m.content));
    else messages.push(assistantMessage(m.content));
  }
  const cfg = w.inferenceConfig;
  const toolChoice = converseToolChoice(w.toolConfig?.toolChoice);
  const request: CanonicalRequest = {
    provider: "bedrock",
    endpoint: "converse",
    model: modelId,
    stream: path?.operation === "converse-stream",
    system: (w.system ?? []).flatMap((s) => (typeof s.text === "string" && s.text !== "" ? [s.text] : [])).join("\n\n"),
    messages,
    tools: (w.toolConfig?.tools ?? []).flatMap((t) => (t.toolSpec ? [t.toolSpec.name] : [])),
    ...toolChoiceFields(toolChoice, () => (w.toolConfig?.tools ?? []).flatMap((t) => (t.toolSpec ? [{ name: t.toolSpec.name, schema: inputSchema(t.toolSpec) }] : []))),
    ...(cfg?.temperature !== undefined ? { temperature: cfg.temperature } : {}),
    ...(cfg?.topP !== undefined ? { topP: cfg.topP } : {}),
    ...(cfg?.maxTokens !== undefined ? { maxTokens: cfg.maxTokens } : {}),
    ...stopField(cfg?.stopSequences),
    reasoning: reasoningOf(w.additionalModelRequestFields),
    headers: headerRecord(headers),
  };
  const outputSchema = bedrockOutputSchema(w.outputConfig);
  if (outputSchema !== undefined) request.outputSchema = outputSchema;
  return { ok: true, wire: { body: w, modelId }, request };
}

/** `POST /model/{modelId}/invoke` (or `/invoke-with-response-stream`) with a Messages body. */
export function parseInvoke(body: unknown, headers: Headers, target: RequestTarget): ParseResult<MessagesRequest> {
  const path = bedrockTarget(target.path);
  return parseAnthropicOnCloud(body, headers, {
    provider: "bedrock",
    model: path?.modelId ?? "",
    stream: path?.operation === "invoke-with-response-stream",
    version: "bedrock-2023-05-31",
  });
}
