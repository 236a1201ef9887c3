/**
 * `POST /v1/responses` body → canonical request. Pure: `item_reference` and `previous_response_id` are resolved
 * by `prepare` (state.ts), which calls `canonicalResponsesRequest` again with the resolved items.
 */
import { forcedServerTool, offeredServerTools } from "./server-tools";
import { headerRecord } from "../../../http/headers";
import type { CanonicalCompaction } from "../../../canonical/compaction";
import { toolChoiceFields, type CanonicalMessage, type CanonicalReasoning, type CanonicalRequest } from "../../../canonical/request";
import type { ApiError } from "../../../http/errors";
import type { ParseResult } from "../../types";
import { openaiToolChoice } from "../tool-choice";
import { invalidType, missingParameter, openaiRequestError } from "../request-error";
import { compactThreshold, contextManagementError, summaryOfBlob } from "./compaction";
import { responsesWire, type ContentPart, type InputItem, type ResponsesBody, type ResponsesRequest } from "./wire";
import { echoed } from "../../../util/text";
import { isRecord } from "../../../http/json";
import { safeParseFast } from "../../../util/fast-parse";
import { responsesOutputSchema, strictTools } from "../structured";
import { checkMetadata } from "../platform";

function invalid(message: string, param?: string): ApiError {
  return { code: "invalid_request", message, ...(param !== undefined ? { param } : {}) };
}

/**
 * Validates input items one by one, so an error names the exact path (`input[2].call_id`).
 * Items without `type` but with `role` are messages; unknown types are kept as `other`.
 * @example parseItems([{ role: "user", content: "hi" }]) // { ok: true, items: [{ type: "message", … }] }
 */
export function parseItems(raw: unknown[], path = "input"): { ok: true; items: InputItem[] } | { ok: false; error: ApiError } {
  const items: InputItem[] = [];
  const known = responsesWire().KNOWN_ITEMS;
  for (const [i, value] of raw.entries()) {
    const at = `${path}[${i}]`;
    if (!isRecord(value)) return { ok: false, error: invalidType(at, "an input item", value) };
    const type = value.type === undefined && "role" in value ? "message" : value.type;
    if (typeof type !== "string") return { ok: false, error: missingParameter(`${at}.type`) };
    if (!isKnownItem(known, type)) {
      items.push({ type: "other", raw: value });
      continue;
    }
    const item = { ...value, type };
    const parsed = safeParseFast(known[type], item);
    if (!parsed.success) return { ok: false, error: openaiRequestError(parsed.error, known[type], item, at) };
    items.push(parsed.data);
  }
  return { ok: true, items };
}

type KnownItems = ReturnType<typeof responsesWire>["KNOWN_ITEMS"];

function isKnownItem(known: KnownItems, type: string): type is keyof KnownItems {
  return Object.hasOwn(known, type);
}

function partsText(content: string | ContentPart[]): string {
  if (typeof content === "string") return content;
  return content.map((p) => p.text ?? p.refusal ?? "").join("");
}

type Assistant = Extract<CanonicalMessage, { role: "assistant" }>;

/**
 * Items → system text and conversation. Consecutive assistant-side items (assistant messages, reasoning,
 * function calls) form one assistant turn, as one response's output does. A `compaction` item stands for what came
 * before it: only the user messages before it stay (the window `/v1/responses/compact` answers keeps them), and the
 * latest one is the request's `compaction`.
 */
export function conversationOf(items: InputItem[]): { system: string[]; messages: CanonicalMessage[]; compaction?: CanonicalCompaction } {
  const system: string[] = [];
  let messages: CanonicalMessage[] = [];
  let compaction: CanonicalCompaction | undefined;
  let turn: Assistant | undefined;
  const assistant = (): Assistant => {
    if (!turn) {
      turn = { role: "assistant", text: "", toolCalls: [], reasoning: [] };
      messages.push(turn);
    }
    return turn;
  };
  for (const item of items) {
    switch (item.type) {
      case "message":
        if (item.role === "assistant") {
          const t = assistant();
          t.text += partsText(item.content);
          continue;
        }
        if (item.role === "user") messages.push({ role: "user", text: partsText(item.content) });
        else system.push(partsText(item.content));
        break;
      case "function_call":
        assistant().toolCalls.push({ id: item.call_id, name: item.name, arguments: item.arguments });
        continue;
      case "reasoning": {
        const text = [...(item.summary ?? []), ...(item.content ?? [])].map((s) => s.text ?? "").join("\n\n");
        const block: CanonicalReasoning = { text, ...(item.encrypted_content ? { redacted: item.encrypted_content } : {}) };
        assistant().reasoning.push(block);
        continue;
      }
      case "function_call_output":
        messages.push({ role: "tool", toolCallId: item.call_id, content: partsText(item.output), isError: false });
        break;
      case "compaction":
        messages = messages.filter((m) => m.role === "user");
        compaction = { summary: summaryOfBlob(item.encrypted_content) };
        break;
      case "item_reference":
      case "compaction_trigger":
      case "other":
        continue;
    }
    turn = undefined;
  }
  return compaction ? { system, messages, compaction } : { system, messages };
}

/**
 * The real API's 400 for a `function_call_output` whose `call_id` no `function_call` of the conversation (history,
 * then the request's items, references resolved) has.
 */
export function unmatchedOutputError(conversation: InputItem[]): ApiError | undefined {
  const calls = new Set<string>();
  for (const item of conversation) {
    if (item.type === "function_call") calls.add(item.call_id);
    // Any other tool call (Codex's `local_shell_call`, `custom_tool_call`, …) may be answered by a function_call_output.
    else if (item.type === "other" && typeof item.raw.call_id === "string") calls.add(item.raw.call_id);
    else if (item.type === "function_call_output" && !calls.has(item.call_id)) {
      return invalid(`No tool call found for function call output with call_id ${item.call_id}.`, "input");
    }
  }
  return undefined;
}

/**
 * The real API's 400 for a `function_call` of the conversation (`history`, then the request's `items`) that no
 * `function_call_output` answers: the first such call. A model cannot go on while a call of its own is unanswered —
 * the answer agent loops meet when a history is trimmed, or a new message is sent after a response that ended in calls.
 * The calls not yet answered are few at any point (a round's parallel calls): a short list, not a set.
 * @example unansweredCallError([], [{ type: "function_call", call_id: "call_a", … }, userMessage])?.message // "No tool output found for function call call_a."
 */
export function unansweredCallError(history: readonly InputItem[], items: readonly InputItem[]): ApiError | undefined {
  const open: string[] = [];
  for (const list of [history, items]) {
    for (const item of list) {
      if (item.type === "function_call") open.push(item.call_id);
      else if (item.type === "function_call_output") {
        const at = open.indexOf(item.call_id);
        if (at >= 0) open.splice(at, 1);
      }
    }
  }
  return open.length > 0 ? invalid(`No tool output found for function call ${echoed(open[0]!)}.`, "input") : undefined;
}

/** A `compaction_trigger` must be the final input item. */
function triggerError(items: InputItem[]): ApiError | undefined {
  const at = items.findIndex((i) => i.type === "compaction_trigger");
  return at >= 0 && at !== items.length - 1 ? invalid("The 'compaction_trigger' item must be the final input item.", "input") : undefined;
}

function reasoningOf(body: ResponsesBody): "enabled" | "disabled" {
  const r = body.reasoning;
  if (!r) return "disabled";
  if (r.effort !== undefined && r.effort !== null) return r.effort === "none" ? "disabled" : "enabled";
  return r.summary !== undefined && r.summary !== null ? "enabled" : "disabled";
}

/** The canonical request for `body`, with `history` (from `previous_response_id`) before its own `items`. */
export function canonicalResponsesRequest(req: ResponsesRequest, headers: Headers): CanonicalRequest {
  const { body } = req;
  const { system, messages, compaction } = conversationOf([...req.history, ...req.items]);
  const instructions = body.instructions ? [body.instructions] : [];
  const toolChoice = openaiToolChoice(body.tool_choice);
  const out: CanonicalRequest = {
    provider: "openai",
    endpoint: "responses",
    model: body.model,
    stream: body.stream === true,
    system: [...instructions, ...system].join("\n\n"),
    messages,
    tools: (body.tools ?? []).map((t) => t.name ?? t.type),
    ...toolChoiceFields(toolChoice, () => (body.tools ?? []).flatMap((t) => (t.type === "function" && t.name !== undefined ? [{ name: t.name, schema: t.parameters }] : []))),
    ...(typeof body.temperature === "number" ? { temperature: body.temperature } : {}),
    ...(typeof body.top_p === "number" ? { topP: body.top_p } : {}),
    ...(typeof body.max_output_tokens === "number" ? { maxTokens: body.max_output_tokens } : {}),
    reasoning: reasoningOf(body),
    headers: headerRecord(headers),
  };
  if (compaction) out.compaction = compaction;
  const serverTools = offeredServerTools(body.tools);
  if (serverTools.length > 0) out.serverTools = serverTools;
  const forcedServer = forcedServerTool(body.tool_choice);
  if (forcedServer !== undefined) out.forcedServerTool = forcedServer;
  const threshold = compactThreshold(body);
  if (threshold !== undefined) out.compactThreshold = threshold;
  if (req.items.at(-1)?.type === "compaction_trigger") out.compactionRequested = true;
  const outputSchema = responsesOutputSchema(body.text);
  if (outputSchema !== undefined) out.outputSchema = outputSchema;
  const strict = strictTools(body.tools);
  if (strict.length > 0) out.strictTools = strict.map(({ name, schema }) => ({ name, schema }));
  return out;
}

const ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** The real API's check on an id parameter: letters, digits, `_` and `-`, with the given prefix. */
export function checkId(value: string, param: string, prefix: string): ApiError | undefined {
  if (!ID_PATTERN.test(value)) {
    return invalid(`Invalid '${param}': '${echoed(value)}'. Expected an ID that contains letters, numbers, underscores, or dashes, but this value contained additional characters.`, param);
  }
  if (!value.startsWith(prefix)) return invalid(`Invalid '${param}': '${echoed(value)}'. Expected an ID that begins with '${prefix}'.`, param);
  return undefined;
}

export function parseResponsesRequest(raw: unknown, headers: Headers): ParseResult<ResponsesRequest> {
  const schema = responsesWire().ResponsesRequestSchema;
  const parsed = safeParseFast(schema, raw);
  // A missing field (`model` first of all) carries the real API's code, as `/v1/responses/compact` does.
  if (!parsed.success) return { ok: false, error: openaiRequestError(parsed.error, schema, raw) };
  const body = parsed.data;
  if (body.input === undefined && !body.previous_response_id && body.conversation === undefined && body.prompt === undefined) {
    return { ok: false, error: missingParameter("input") };
  }
  const metadata = checkMetadata(body.metadata);
  if (!metadata.ok) return metadata;
  if (body.background === true && body.store === false) {
    return { ok: false, error: invalid("Background mode requires 'store' to be true: a background response is stored so that it can be retrieved.", "background") };
  }
  if (body.previous_response_id) {
    const bad = checkId(body.previous_response_id, "previous_response_id", "resp");
    if (bad) return { ok: false, error: bad };
  }
  const raws = body.input === undefined ? [] : typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input;
  const items = parseItems(raws);
  if (!items.ok) return items;
  // With history or references to resolve, state.ts checks tool outputs against the whole conversation.
  const resolvedLater = body.previous_response_id || items.items.some((i) => i.type === "item_reference");
  const bad = contextManagementError(body) ?? triggerError(items.items) ?? (resolvedLater ? undefined : unmatchedOutputError(items.items));
  if (bad) return { ok: false, error: bad };
  const wire: ResponsesRequest = { body, items: items.items, history: [] };
  return { ok: true, wire, request: canonicalResponsesRequest(wire, headers) };
}
