/**
 * Canonical reply → the `response` object: the JSON body, and the snapshot every lifecycle stream event carries.
 */
import { replyChoices, type Reply } from "../../../canonical/outcome";
import { stableHex } from "../../../http/hash";
import { toolCallId } from "../../../http/ids";
import type { RenderContext } from "../../types";
import type { ResponsesRequest } from "./wire";

export interface OutputText {
  type: "output_text";
  text: string;
  annotations: never[];
  logprobs: never[];
}
export type MessagePart = OutputText | { type: "refusal"; refusal: string };

export type OutputItem =
  | { id: string; type: "reasoning"; summary: { type: "summary_text"; text: string }[]; encrypted_content?: string }
  | { id: string; type: "message"; status: "completed" | "incomplete"; content: MessagePart[]; role: "assistant" }
  | {
      id: string;
      type: "function_call";
      status: "completed";
      arguments: string;
      call_id: string;
      name: string;
    };

export type ResponseStatus = "completed" | "incomplete" | "failed" | "in_progress";

/** The `response` object; `usage` is null while in progress. */
export interface ResponseObject {
  id: string;
  object: "response";
  created_at: number;
  status: ResponseStatus;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: string } | null;
  output: OutputItem[];
  usage: ReturnType<typeof responseUsage> | null;
  [echo: string]: unknown;
}

const ROOT_LENGTH = 48;
const ITEM_ID = /^(?:msg|fc|rs)_([0-9a-f]{48})[0-9a-f]{2}$/;

/** The hex root every id of one response shares: `resp_{root}`, and `msg_{root}{nn}` for its items. */
function rootOf(reply: Reply): string {
  return stableHex(`resp|${reply.idSeed}`, ROOT_LENGTH);
}

export function responseId(reply: Reply): string {
  return `resp_${rootOf(reply)}`;
}

/** The response an output item id belongs to (items are named after their response), if it is one of ours. */
export function responseIdOfItem(itemId: string): string | undefined {
  const m = ITEM_ID.exec(itemId);
  return m ? `resp_${m[1]}` : undefined;
}

export function responseUsage(reply: Reply) {
  const u = reply.usage;
  return {
    input_tokens: u.inputTokens,
    input_tokens_details: { cached_tokens: u.cacheReadTokens },
    output_tokens: u.outputTokens,
    output_tokens_details: { reasoning_tokens: u.reasoningTokens },
    total_tokens: u.inputTokens + u.outputTokens,
  };
}

function incompleteReason(reply: Reply): string | undefined {
  if (reply.finishReason === "length") return "max_output_tokens";
  if (reply.finishReason === "content_filter") return "content_filter";
  return undefined;
}

/**
 * Output items in the real order: per message, a reasoning item (when scripted), the message, then its calls.
 * @example outputItems(reply).map((i) => i.type) // ["reasoning", "message", "function_call"]
 */
export function outputItems(reply: Reply): OutputItem[] {
  const root = rootOf(reply);
  const items: OutputItem[] = [];
  const nextId = (prefix: string) => `${prefix}_${root}${items.length.toString(16).padStart(2, "0")}`;
  const status = incompleteReason(reply) === undefined ? "completed" : "incomplete";
  for (const choice of replyChoices(reply)) {
    const thoughts = choice.reasoning.flatMap((r) => (r.type === "thinking" ? [r.text] : []));
    const redacted = choice.reasoning.flatMap((r) => (r.type === "redacted" ? [r.data] : []));
    if (choice.reasoning.length > 0) {
      items.push({
        id: nextId("rs"),
        type: "reasoning",
        summary: thoughts.map((text) => ({ type: "summary_text", text })),
        ...(redacted.length > 0 ? { encrypted_content: redacted.join("") } : {}),
      });
    }
    const content: MessagePart[] = [];
    const hasCalls = choice.toolCalls.length > 0;
    if (choice.text !== undefined && (choice.text !== "" || !hasCalls)) {
      content.push({ type: "output_text", text: choice.text, annotations: [], logprobs: [] });
    }
    if (choice.refusal !== undefined) content.push({ type: "refusal", refusal: choice.refusal });
    if (content.length > 0) items.push({ id: nextId("msg"), type: "message", status, content, role: "assistant" });
    choice.toolCalls.forEach((call, i) => {
      items.push({
        id: nextId("fc"),
        type: "function_call",
        status: "completed",
        arguments: call.arguments,
        call_id: toolCallId("call_", choice.idSeed, i, call.id),
        name: call.name,
      });
    });
  }
  return items;
}

/** The request fields a response echoes, with the real API's defaults. */
function echo(ctx: RenderContext<ResponsesRequest>) {
  const b = ctx.wire.body;
  return {
    instructions: b.instructions ?? null,
    max_output_tokens: b.max_output_tokens ?? null,
    max_tool_calls: null,
  };
}

function settings(ctx: RenderContext<ResponsesRequest>) {
  const b = ctx.wire.body;
  return {
    parallel_tool_calls: b.parallel_tool_calls ?? true,
    previous_response_id: b.previous_response_id ?? null,
    prompt_cache_key: null,
    reasoning: { effort: b.reasoning?.effort ?? null, summary: b.reasoning?.summary ?? null },
    safety_identifier: null,
    service_tier: "default",
    store: b.store ?? true,
    temperature: b.temperature ?? 1,
    text: b.text ?? { format: { type: "text" }, verbosity: "medium" },
    tool_choice: b.tool_choice ?? "auto",
    tools: b.tools ?? [],
    top_logprobs: 0,
    top_p: b.top_p ?? 1,
    truncation: b.truncation ?? "disabled",
  };
}

/**
 * The finished response. `status` is `incomplete` (with `incomplete_details.reason`) when the reply was cut by
 * `max_output_tokens` or a content filter.
 * @example buildResponse(reply, ctx).output[0].type // "message"
 */
export function buildResponse(reply: Reply, ctx: RenderContext<ResponsesRequest>): ResponseObject {
  const reason = incompleteReason(reply);
  return {
    id: responseId(reply),
    object: "response",
    created_at: ctx.created,
    status: reason === undefined ? "completed" : "incomplete",
    background: false,
    error: null,
    incomplete_details: reason === undefined ? null : { reason },
    ...echo(ctx),
    model: reply.model,
    output: outputItems(reply),
    ...settings(ctx),
    usage: responseUsage(reply),
    user: ctx.wire.body.user ?? null,
    metadata: ctx.wire.body.metadata ?? {},
  };
}

export function renderResponseJson(reply: Reply, ctx: RenderContext<ResponsesRequest>): unknown {
  return buildResponse(reply, ctx);
}
