/**
 * `POST /v1/messages` body → canonical request.
 *
 * Text blocks of one message join with "\n"; system sources (the `system` field and any `system`-role entry
 * inside `messages`) join with a blank line. A user message's `tool_result` blocks become canonical
 * `{ role: "tool" }` messages (in order, before the message's text); echoed `thinking` / `redacted_thinking`
 * become the assistant's canonical reasoning.
 */
import { forcedServerTool, offeredServerTools } from "./server-tools";
import { z } from "zod";
import { headerRecord } from "../../http/headers";
import { addUserTurn, toolChoiceFields, type CanonicalMessage, type CanonicalToolResult, type CanonicalRequest, type CanonicalToolChoice, type Endpoint } from "../../canonical/request";
import { stopField } from "../../canonical/stop";
import type { ParseResult } from "../types";
import { compactEdit, withCompactThreshold } from "./compaction";
import { clearingEditsError } from "./context-editing";
import { anthropicWire, describeIssue, type ContentBlock, type CountTokensRequest, type MessagesRequest, type WireMessage } from "./wire";
import { safeParseFast } from "../../util/fast-parse";
import { lazily } from "../../util/memo";
import { joinText } from "../../util/text";
import { anthropicOutputSchema, anthropicStrictTools } from "./structured";

type ToolResultBlock = Extract<ContentBlock, { type: "tool_result" }>;

function blocksText(blocks: readonly { type: string; text?: unknown }[]): string {
  return joinText(blocks, (b) => (b.type === "text" && typeof b.text === "string" ? b.text : undefined));
}

function contentText(content: WireMessage["content"]): string {
  return typeof content === "string" ? content : blocksText(content);
}

function toolResultText(block: ToolResultBlock): string {
  if (block.content === undefined) return "";
  return typeof block.content === "string" ? block.content : blocksText(block.content);
}

/** A `tool_result` block as a canonical tool result; undefined for a block of another kind. */
function toolResult(b: ContentBlock): CanonicalToolResult | undefined {
  return b.type === "tool_result" ? { role: "tool", toolCallId: b.tool_use_id, content: toolResultText(b), isError: b.is_error === true } : undefined;
}

function addUserMessages(out: CanonicalMessage[], content: WireMessage["content"]): void {
  if (typeof content === "string") out.push({ role: "user", text: content });
  else addUserTurn(out, content, toolResult, () => blocksText(content));
}

function assistantMessage(content: WireMessage["content"]): CanonicalMessage {
  if (typeof content === "string") return { role: "assistant", text: content, toolCalls: [], reasoning: [] };
  const message: Extract<CanonicalMessage, { role: "assistant" }> = { role: "assistant", text: blocksText(content), toolCalls: [], reasoning: [] };
  for (const b of content) {
    if (b.type === "tool_use") message.toolCalls.push({ id: b.id, name: b.name, arguments: JSON.stringify(b.input) });
    else if (b.type === "thinking") message.reasoning.push({ text: b.thinking, ...(b.signature !== undefined ? { signature: b.signature } : {}) });
    else if (b.type === "redacted_thinking") message.reasoning.push({ text: "", redacted: b.data });
  }
  return message;
}

function systemText(system: MessagesRequest["system"]): string[] {
  if (system === undefined) return [];
  if (typeof system === "string") return [system];
  return system.flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : []));
}

/** `thinking: { type: "enabled" | "adaptive" }` asks for reasoning; anything else (or nothing) does not. */
export function reasoningOf(thinking: MessagesRequest["thinking"]): "enabled" | "disabled" {
  return thinking?.type === "enabled" || thinking?.type === "adaptive" ? "enabled" : "disabled";
}

/** Built on the first tool choice read (util/memo.ts `lazily`). */
const toolChoiceSchema = lazily(() => z.union([z.looseObject({ type: z.enum(["auto", "any", "none"]) }), z.looseObject({ type: z.literal("tool"), name: z.string() })]));

/**
 * `tool_choice` → the canonical choice (`any` is `required`); auto, and a shape mockllm does not know, are left out.
 * @example anthropicToolChoice({ type: "tool", name: "get_weather" }) // { kind: "tool", name: "get_weather" }
 */
export function anthropicToolChoice(raw: unknown): CanonicalToolChoice | undefined {
  // Most requests name no tool choice: answered before the schema, whose failed union would build issues to discard.
  if (raw === undefined || raw === null) return undefined;
  const parsed = toolChoiceSchema().safeParse(raw);
  if (!parsed.success) return undefined;
  const c = parsed.data;
  if (c.type === "tool") return { kind: "tool", name: c.name };
  if (c.type === "auto") return undefined;
  return { kind: c.type === "any" ? "required" : "none" };
}

function toCanonical(w: MessagesRequest | CountTokensRequest, headers: Headers, endpoint: Endpoint): CanonicalRequest {
  const system = systemText(w.system);
  const messages: CanonicalMessage[] = [];
  const cut = lastCompaction(w.messages);
  for (let i = 0; i < w.messages.length; i++) {
    const m = w.messages[i]!;
    if (m.role === "system") system.push(contentText(m.content));
    else if (cut && i < cut.message) continue;
    else if (m.role === "user") addUserMessages(messages, m.content);
    else messages.push(assistantMessage(cut && i === cut.message && typeof m.content !== "string" ? m.content.slice(cut.block + 1) : m.content));
  }
  const toolChoice = anthropicToolChoice(w.tool_choice);
  const out: CanonicalRequest = {
    provider: "anthropic",
    endpoint,
    model: w.model,
    stream: w.stream === true,
    system: system.filter((s) => s !== "").join("\n\n"),
    messages,
    tools: (w.tools ?? []).flatMap((t) => (typeof t.name === "string" ? [t.name] : [])),
    ...toolChoiceFields(toolChoice, () => (w.tools ?? []).flatMap((t) => (typeof t.name === "string" ? [{ name: t.name, schema: t.input_schema }] : []))),
    ...(w.temperature !== undefined ? { temperature: w.temperature } : {}),
    ...(w.top_p !== undefined ? { topP: w.top_p } : {}),
    ...(typeof w.max_tokens === "number" ? { maxTokens: w.max_tokens } : {}),
    ...stopField(w.stop_sequences),
    reasoning: reasoningOf(w.thinking),
    headers: headerRecord(headers),
  };
  if (cut) out.compaction = { summary: cut.summary };
  const outputSchema = anthropicOutputSchema(w);
  if (outputSchema !== undefined) out.outputSchema = outputSchema;
  const strict = anthropicStrictTools(w.tools);
  if (strict.length > 0) out.strictTools = strict;
  const serverTools = offeredServerTools(w.tools, w.mcp_servers);
  if (serverTools.length > 0) out.serverTools = serverTools;
  const forcedServer = forcedServerTool(w.tool_choice, w.tools);
  if (forcedServer !== undefined) out.forcedServerTool = forcedServer;
  return out;
}

/**
 * The last `compaction` block with content in an assistant message: the API ignores every block before it (a block
 * with `content: null`, a failed compaction, changes nothing).
 */
function lastCompaction(messages: WireMessage[]): { message: number; block: number; summary: string } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant" || typeof m.content === "string") continue;
    for (let j = m.content.length - 1; j >= 0; j--) {
      const b = m.content[j]!;
      if (b.type === "compaction" && b.content !== null) return { message: i, block: j, summary: b.content };
    }
  }
  return undefined;
}

/**
 * Validates a Messages body loosely and maps it to the canonical request. Through fast-parse's closures, as every
 * request body, which matters most here: every message's `content` is a union whose first branch (a string) fails on
 * a list of blocks, and zod records that branch's issue before it tries the next, where the closures do not (most of
 * the difference, by putting the list first). With the content blocks run by the closures too, a 2,000-message agent
 * conversation parses in about a third of the time it took (bench/request-parse.ts; docs/performance.md, "Long
 * conversations' requests").
 * @example parseMessagesRequest({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "Hi" }] }, headers)
 */
export function parseMessagesRequest(body: unknown, headers: Headers): ParseResult<MessagesRequest> {
  const parsed = safeParseFast(anthropicWire().MessagesRequestSchema, body);
  if (!parsed.success) {
    return { ok: false, error: { code: "invalid_request", message: describeIssue(parsed.error.issues) } };
  }
  const edit = compactEdit(parsed.data);
  if (edit && "code" in edit) return { ok: false, error: edit };
  const clearing = clearingEditsError(parsed.data);
  if (clearing) return { ok: false, error: clearing };
  return { ok: true, wire: parsed.data, request: withCompactThreshold(toCanonical(parsed.data, headers, "messages"), edit) };
}

/** The same for `POST /v1/messages/count_tokens` (no `max_tokens`). */
export function parseCountTokensRequest(body: unknown, headers: Headers): ParseResult<CountTokensRequest> {
  const parsed = safeParseFast(anthropicWire().CountTokensRequestSchema, body);
  if (!parsed.success) {
    return { ok: false, error: { code: "invalid_request", message: describeIssue(parsed.error.issues) } };
  }
  const clearing = clearingEditsError(parsed.data);
  if (clearing) return { ok: false, error: clearing };
  return { ok: true, wire: parsed.data, request: toCanonical(parsed.data, headers, "count_tokens") };
}
