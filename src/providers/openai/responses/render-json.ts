/**
 * Canonical reply → the `response` object: the JSON body, and the snapshot every lifecycle stream event carries.
 */
import { replyChoices, type Reply } from "../../../canonical/outcome";
import { stableHex } from "../../../util/hash";
import { makeId, toolCallId } from "../../../http/ids";
import type { RenderContext } from "../../types";
import { compactionBlob, responseCompaction } from "./compaction";
import type { ResponsesBody, ResponsesRequest } from "./wire";
import { pendingView } from "./background";
import { mcpContext, serverToolItems, textAnnotations, type Annotation, type McpContext, type ServerToolItem } from "./server-tools";

export interface OutputText {
  type: "output_text";
  text: string;
  annotations: Annotation[];
  logprobs: never[];
}
export type MessagePart = OutputText | { type: "refusal"; refusal: string };

export type OutputItem =
  | {
      id: string;
      type: "reasoning";
      content: never[];
      encrypted_content?: string;
      summary: { type: "summary_text"; text: string }[];
    }
  | { id: string; type: "message"; status: "completed" | "incomplete"; content: MessagePart[]; role: "assistant" }
  | {
      id: string;
      type: "function_call";
      status: "completed";
      arguments: string;
      call_id: string;
      name: string;
    }
  | { id: string; type: "compaction"; encrypted_content: string }
  | ServerToolItem;

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
const ITEM_ID = /^(?:msg|fc|rs|cmp)_([0-9a-f]{48})[0-9a-f]{2}$/;

/**
 * The hex root every id of one response shares: `resp_{root}{tt}` (50 hex, as real ids are since late 2025), and
 * `msg_{root}{nn}` for its items, `nn` the item's position.
 */
function rootOf(reply: Reply): string {
  return stableHex(`resp|${reply.idSeed}`, ROOT_LENGTH);
}

function responseIdOfRoot(root: string): string {
  return `resp_${root}${stableHex(`resp-tail|${root}`, 2)}`;
}

export function responseId(reply: Reply): string {
  return responseIdOfRoot(rootOf(reply));
}

/** The response an output item id belongs to (items are named after their response), if it is one of ours. */
export function responseIdOfItem(itemId: string): string | undefined {
  const m = ITEM_ID.exec(itemId);
  return m?.[1] !== undefined ? responseIdOfRoot(m[1]) : undefined;
}

/**
 * The `encrypted_content` of a reasoning item: scripted redacted data, else (when the request's `include` asks
 * for `reasoning.encrypted_content`) an opaque token derived from the thoughts, shaped like the real ones.
 */
function encryptedContent(redacted: string[], thoughts: string[], include: boolean): string | undefined {
  if (redacted.length > 0) return redacted.join("");
  if (!include) return undefined;
  return `gAAAAAB${makeId("", `reasoning|${thoughts.join("\n")}`, 120)}`;
}

/**
 * A response's `usage`. `cache_write_tokens` (the scenario's `cacheWriteTokens`, else 0) is there since the API's
 * 12-hour cache (`openai` 7.50, 2026-11: a required field of `ResponseUsage.InputTokensDetails`).
 */
export function responseUsage(reply: Reply) {
  const u = reply.usage;
  return {
    input_tokens: u.inputTokens,
    input_tokens_details: { cached_tokens: u.cacheReadTokens, cache_write_tokens: u.cacheWriteTokens },
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
 * Output items in the real order: a compaction item (when the response carries one), then per message a reasoning
 * item (when scripted), the message, then its calls. A compaction request (`compaction_trigger`) is answered with
 * the compaction item alone.
 * @example outputItems(reply).map((i) => i.type) // ["reasoning", "message", "function_call"]
 */
export function outputItems(reply: Reply, includeEncrypted = false, compaction?: string, compactionOnly = false, include: string[] = [], mcp?: McpContext, root = rootOf(reply)): OutputItem[] {
  const items: OutputItem[] = [];
  const nextId = (prefix: string) => `${prefix}_${root}${items.length.toString(16).padStart(2, "0")}`;
  if (compaction !== undefined) items.push({ id: nextId("cmp"), type: "compaction", encrypted_content: compactionBlob(compaction) });
  if (compactionOnly) return items;
  const status = incompleteReason(reply) === undefined ? "completed" : "incomplete";
  // Server-side tools run before the answer (`respond.serverTools`): their items come first.
  if (reply.serverTools !== undefined) {
    const server = serverToolItems(reply, nextId, (what) => include.includes(what), mcp);
    items.push(...server.items);
    // An MCP call awaiting approval ends the response: the answer comes after the client's `mcp_approval_response`.
    if (server.paused) return items;
  }
  for (const choice of replyChoices(reply)) {
    const thoughts = choice.reasoning.flatMap((r) => (r.type === "thinking" ? [r.text] : []));
    const redacted = choice.reasoning.flatMap((r) => (r.type === "redacted" ? [r.data] : []));
    if (choice.reasoning.length > 0) {
      const encrypted = encryptedContent(redacted, thoughts, includeEncrypted);
      items.push({
        id: nextId("rs"),
        type: "reasoning",
        content: [],
        ...(encrypted !== undefined ? { encrypted_content: encrypted } : {}),
        summary: thoughts.map((text) => ({ type: "summary_text", text })),
      });
    }
    const content: MessagePart[] = [];
    const hasCalls = choice.toolCalls.length > 0;
    if (choice.text !== undefined && (choice.text !== "" || !hasCalls)) {
      content.push({ type: "output_text", text: choice.text, annotations: choice === reply ? textAnnotations(reply, choice.text) : [], logprobs: [] });
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

/**
 * Echoed tools as the real API normalises them: a function tool lists `type`, `description` (null when not
 * given), `name`, `parameters` and `strict` (true unless the request says otherwise); other tools echo as sent.
 */
function echoTools(tools: ResponsesBody["tools"]): unknown[] {
  return (tools ?? []).map((t) => {
    if (t.type !== "function") return t;
    const { type, description, name, parameters, strict, ...rest } = t;
    return { type, ...rest, description: description ?? null, name, parameters: parameters ?? null, strict: strict ?? true };
  });
}

/** `service_tier`: `auto` (or the requested tier) while in progress; the tier that served it, `default`, when done. */
function serviceTier(b: ResponsesBody, done: boolean): string {
  const asked = b.service_tier ?? "auto";
  return done && asked === "auto" ? "default" : asked;
}

/**
 * The response object with every field the real API sends, in its order (recorded March 2026). `completed_at`
 * is null until the response is done; `status` decides. `billing` (after `background`) is for a JSON body, which
 * carries it; stream events do not. `root`: the response's id root, which its items' ids share.
 */
function responseObject(reply: Reply, ctx: RenderContext<ResponsesRequest>, status: ResponseStatus, output: OutputItem[], billing: boolean, root: string): ResponseObject {
  const b = ctx.wire.body;
  const reason = incompleteReason(reply);
  const done = status !== "in_progress";
  return {
    id: responseIdOfRoot(root),
    object: "response",
    created_at: ctx.created,
    status,
    background: b.background === true,
    ...(billing ? { billing: { payer: "developer" } } : {}),
    completed_at: status === "completed" ? ctx.created : null,
    ...(ctx.wire.conversation !== undefined ? { conversation: { id: ctx.wire.conversation } } : {}),
    error: null,
    frequency_penalty: 0,
    incomplete_details: status === "incomplete" && reason !== undefined ? { reason } : null,
    instructions: b.instructions ?? null,
    max_output_tokens: b.max_output_tokens ?? null,
    max_tool_calls: null,
    model: reply.model,
    output,
    parallel_tool_calls: b.parallel_tool_calls ?? true,
    presence_penalty: 0,
    previous_response_id: b.previous_response_id ?? null,
    prompt_cache_key: null,
    prompt_cache_retention: null,
    reasoning: { effort: b.reasoning?.effort ?? null, summary: b.reasoning?.summary ?? null },
    safety_identifier: null,
    service_tier: serviceTier(b, done),
    store: b.store ?? true,
    temperature: b.temperature ?? 1,
    text: b.text ?? { format: { type: "text" }, verbosity: "medium" },
    tool_choice: b.tool_choice ?? "auto",
    tools: echoTools(b.tools),
    top_logprobs: 0,
    top_p: b.top_p ?? 1,
    truncation: b.truncation ?? "disabled",
    usage: done ? responseUsage(reply) : null,
    user: b.user ?? null,
    metadata: b.metadata ?? {},
  };
}

/** Whether the request's `include` asks for reasoning items' `encrypted_content`. */
function includesEncrypted(ctx: RenderContext<ResponsesRequest>): boolean {
  return (ctx.wire.body.include ?? []).includes("reasoning.encrypted_content");
}

/**
 * The finished response. `status` is `incomplete` (with `incomplete_details.reason`) when the reply was cut by
 * `max_output_tokens` or a content filter.
 * @example buildResponse(reply, ctx).output[0].type // "message"
 */
export function buildResponse(reply: Reply, ctx: RenderContext<ResponsesRequest>, billing = false): ResponseObject {
  const status = incompleteReason(reply) === undefined ? "completed" : "incomplete";
  const compaction = responseCompaction(reply, ctx.request);
  const root = rootOf(reply);
  return responseObject(
    reply,
    ctx,
    status,
    outputItems(
      reply,
      includesEncrypted(ctx),
      compaction,
      ctx.request.compactionRequested === true,
      ctx.wire.body.include ?? [],
      reply.serverTools ? mcpContext(ctx.wire.body.tools, [...ctx.wire.history, ...ctx.wire.items]) : undefined,
      root,
    ),
    billing,
    root,
  );
}

/**
 * JSON bodies already made for a reply: a stored response is built and serialised once, by `rememberResponse` before
 * the answer is rendered, and the body sent is that text (`renderResponseRaw`). Keyed by the reply object and held
 * only as long as it is; the context must be the same one (the same request's answer).
 */
const madeBodies = new WeakMap<Reply, { ctx: RenderContext<ResponsesRequest>; text: string }>();

/**
 * The JSON body of a reply (`renderResponseJson`'s, serialised), made once: stored as it is (`GET` answers a stored
 * response with `billing` either way; a replay leaves it out) and kept for the render of the same answer.
 * @example bodyOnce(reply, ctx).text === JSON.stringify(renderResponseJson(reply, ctx)) // true
 */
export function bodyOnce(reply: Reply, ctx: RenderContext<ResponsesRequest>): { response: ResponseObject; text: string } {
  const response = buildResponse(reply, ctx, true);
  const text = JSON.stringify(response);
  madeBodies.set(reply, { ctx, text });
  return { response, text };
}

/** The body `bodyOnce` made for this answer, sent as it is; undefined for any other (then the JSON is rendered). */
export function renderResponseRaw(reply: Reply, ctx: RenderContext<ResponsesRequest>): { body: string; contentType: string } | undefined {
  const made = madeBodies.get(reply);
  return made !== undefined && made.ctx === ctx ? { body: made.text, contentType: "application/json" } : undefined;
}

/** The JSON body: the finished response, with `billing` after `background` as JSON bodies (not stream events) carry it. */
export function renderResponseJson(reply: Reply, ctx: RenderContext<ResponsesRequest>): unknown {
  // Built with `billing` in its place rather than copied by withBilling: a copy key by key cost a short turn ~2 µs.
  const final = buildResponse(reply, ctx, true);
  // Background mode answers at once, before any work: the response as queued (background.ts).
  return ctx.wire.body.background === true ? pendingView(final, "queued") : final;
}

/** A response object as a JSON body (`POST` without stream, `GET /v1/responses/{id}`): `billing` after `background`. */
export function withBilling(response: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(response)) {
    if (k === "billing") continue;
    out[k] = v;
    if (k === "background") out.billing = { payer: "developer" };
  }
  return out;
}
