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
import { toolChoiceFields, type CanonicalMessage, type CanonicalRequest, type CanonicalToolChoice, type Endpoint } from "../../canonical/request";
import { stopField } from "../../canonical/stop";
import type { ParseResult } from "../types";
import { compactEdit, withCompactThreshold } from "./compaction";
import { anthropicWire, describeIssue, type ContentBlock, type CountTokensRequest, type MessagesRequest, type WireMessage } from "./wire";
import { safeParseFast } from "../../util/fast-parse";
import { lazily } from "../../util/memo";
import { anthropicOutputSchema, anthropicStrictTools } from "./structured";

type ToolResultBlock = Extract<ContentBlock, { type: "tool_result" }>;

function blocksText(blocks: readonly { type: string; text?: unknown }[]): string {
  return blocks.flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : [])).join("\n");
}

function contentText(content: WireMessage["content"]): string {
  return typeof content === "string" ? content : blocksText(content);
}

function toolResultText(block: ToolResultBlock): string {
  if (block.content === undefined) return "";
  return typeof block.content === "string" ? block.content : blocksText(block.content);
}

function userMessages(content: WireMessage["content"]): CanonicalMessage[] {
  if (typeof content === "string") return [{ role: "user", text: content }];
  const results: CanonicalMessage[] = content.flatMap((b) =>
    b.type === "tool_result" ? [{ role: "tool" as const, toolCallId: b.tool_use_id, content: toolResultText(b), isError: b.is_error === true }] : [],
  );
  const hasOther = content.some((b) => b.type !== "tool_result");
  // A message of tool results only is not a user turn; anything else (text, images) is.
  return hasOther || results.length === 0 ? [...results, { role: "user", text: blocksText(content) }] : results;
}

function assistantMessage(content: WireMessage["content"]): CanonicalMessage {
  if (typeof content === "string") return { role: "assistant", text: content, toolCalls: [], reasoning: [] };
  return {
    role: "assistant",
    text: blocksText(content),
    toolCalls: content.flatMap((b) => (b.type === "tool_use" ? [{ id: b.id, name: b.name, arguments: JSON.stringify(b.input) }] : [])),
    reasoning: content.flatMap((b) => {
      if (b.type === "thinking") return [{ text: b.thinking, ...(b.signature !== undefined ? { signature: b.signature } : {}) }];
      if (b.type === "redacted_thinking") return [{ text: "", redacted: b.data }];
      return [];
    }),
  };
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
  w.messages.forEach((m, i) => {
    if (m.role === "system") system.push(contentText(m.content));
    else if (cut && i < cut.message) return;
    else if (m.role === "user") messages.push(...userMessages(m.content));
    else messages.push(assistantMessage(cut && i === cut.message && typeof m.content !== "string" ? m.content.slice(cut.block + 1) : m.content));
  });
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
 * Validates a Messages body loosely and maps it to the canonical request.
 * @example parseMessagesRequest({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "Hi" }] }, headers)
 */
export function parseMessagesRequest(body: unknown, headers: Headers): ParseResult<MessagesRequest> {
  const parsed = safeParseFast(anthropicWire().MessagesRequestSchema, body);
  if (!parsed.success) {
    return { ok: false, error: { code: "invalid_request", message: describeIssue(parsed.error.issues) } };
  }
  const edit = compactEdit(parsed.data);
  if (edit && "code" in edit) return { ok: false, error: edit };
  return { ok: true, wire: parsed.data, request: withCompactThreshold(toCanonical(parsed.data, headers, "messages"), edit) };
}

/** The same for `POST /v1/messages/count_tokens` (no `max_tokens`). */
export function parseCountTokensRequest(body: unknown, headers: Headers): ParseResult<CountTokensRequest> {
  const parsed = safeParseFast(anthropicWire().CountTokensRequestSchema, body);
  if (!parsed.success) {
    return { ok: false, error: { code: "invalid_request", message: describeIssue(parsed.error.issues) } };
  }
  return { ok: true, wire: parsed.data, request: toCanonical(parsed.data, headers, "count_tokens") };
}
