/**
 * Canonical reply → Ollama's non-streaming bodies (`/api/chat`: `message`; `/api/generate`: `response`), plus the
 * pieces the NDJSON renderer shares: timestamps, timing stats, `done_reason` and the one assistant message.
 *
 * Ollama answers with one message, so a reply's further messages (`extraChoices`, from the default responder)
 * are folded into it: texts and thinking joined by a blank line, tool calls appended in order. A refusal is
 * plain content (Ollama has no refusal field); redacted reasoning has no Ollama form and is left out.
 */
import { replyChoices, type Reply } from "../../canonical/outcome";
import { stableHash } from "../../util/hash";
import { ollamaToolCallId } from "../../http/ids";
import type { RenderContext } from "../types";
import { argumentsObject } from "../../http/json";

/** A tool call as Ollama sends it: `arguments` is an object; newer versions add `id` and `function.index`. */
export interface OllamaToolCall {
  id: string;
  function: { index: number; name: string; arguments: Record<string, unknown> };
}

export interface OllamaMessage {
  content: string;
  thinking: string;
  toolCalls: OllamaToolCall[];
}

function joined(parts: (string | undefined)[]): string {
  return parts.filter((p): p is string => p !== undefined && p !== "").join("\n\n");
}

/** The reply (and its `extraChoices`) as one Ollama assistant message. */
export function ollamaMessage(reply: Reply): OllamaMessage {
  const choices = replyChoices(reply);
  const toolCalls = choices.flatMap((c) => c.toolCalls.map((call, i) => ({ call, id: call.id ?? ollamaToolCallId(`${c.idSeed}#tool${i}`) })));
  return {
    content: joined(choices.flatMap((c) => [c.text, c.refusal])),
    thinking: joined(choices.flatMap((c) => c.reasoning.map((r) => (r.type === "thinking" ? r.text : undefined)))),
    toolCalls: toolCalls.map(({ call, id }, index) => ({
      id,
      function: { index, name: call.name, arguments: argumentsObject(call.arguments) },
    })),
  };
}

/** `length` when the reply was cut by the token limit; everything else (tool calls included) is `stop`, as in Ollama. */
export function doneReason(reply: Reply): "stop" | "length" {
  return reply.finishReason === "length" ? "length" : "stop";
}

/**
 * `created_at` as Go's RFC 3339 with nanoseconds (trailing zeros trimmed): `ctx.created` plus a sub-second part
 * fixed by the reply's id seed, plus `offsetNs` (later stream lines are later).
 * @example createdAt(reply, ctx, 0) // "2025-01-01T00:00:00.385406455Z"
 */
export function createdAt(reply: Reply, ctx: RenderContext<unknown>, offsetNs = 0): string {
  const nanos = (Math.abs(stableHash(`created|${reply.idSeed}`)) % 900_000_000) + offsetNs;
  const seconds = ctx.created + Math.floor(nanos / 1e9);
  const frac = String(nanos % 1e9)
    .padStart(9, "0")
    .replace(/0+$/, "");
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, frac === "" ? "Z" : `.${frac}Z`);
}

/** Nanoseconds per generated token: the scripted `tokensPerSecond`, else 50 tokens a second. */
export function tokenNs(reply: Reply): number {
  const tps = reply.pacing.tokensPerSecond > 0 ? reply.pacing.tokensPerSecond : 50;
  return Math.round(1e9 / tps);
}

/** Fixed model-load time, and prompt evaluation at 2 ms a token: deterministic, plausible numbers. */
const LOAD_NS = 12_345_678;
const PROMPT_TOKEN_NS = 2_000_000;

/** The timing and count fields of the final object, in nanoseconds. */
export function stats(reply: Reply) {
  const promptEval = reply.usage.inputTokens * PROMPT_TOKEN_NS;
  const evalNs = reply.usage.outputTokens * tokenNs(reply);
  return {
    total_duration: LOAD_NS + promptEval + evalNs,
    load_duration: LOAD_NS,
    prompt_eval_count: reply.usage.inputTokens,
    prompt_eval_duration: promptEval,
    eval_count: reply.usage.outputTokens,
    eval_duration: evalNs,
  };
}

/** The wire `message` of `/api/chat`: `thinking` and `tool_calls` only when there are any. */
export function wireMessage(content: string, thinking = "", toolCalls: OllamaToolCall[] = []): Record<string, unknown> {
  return {
    role: "assistant",
    content,
    ...(thinking !== "" ? { thinking } : {}),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

/**
 * The `/api/chat` body with `stream: false`.
 * @example renderChatJson(reply, ctx) // { model, created_at, message: { role: "assistant", content }, done: true, done_reason: "stop", … }
 */
export function renderChatJson(reply: Reply, ctx: RenderContext<unknown>): unknown {
  const m = ollamaMessage(reply);
  return {
    model: reply.model,
    created_at: createdAt(reply, ctx, stats(reply).total_duration),
    message: wireMessage(m.content, m.thinking, m.toolCalls),
    done: true,
    done_reason: doneReason(reply),
    ...stats(reply),
  };
}

/**
 * The `/api/generate` body with `stream: false`: `response` and `thinking` when there is some. mockllm keeps no
 * token context, and Ollama omits an empty `context` (`omitempty`), so there is none. Scripted tool calls come as
 * `tool_calls`.
 */
export function renderGenerateJson(reply: Reply, ctx: RenderContext<unknown>): unknown {
  const m = ollamaMessage(reply);
  return {
    model: reply.model,
    created_at: createdAt(reply, ctx, stats(reply).total_duration),
    response: m.content,
    ...(m.thinking !== "" ? { thinking: m.thinking } : {}),
    ...(m.toolCalls.length > 0 ? { tool_calls: m.toolCalls } : {}),
    done: true,
    done_reason: doneReason(reply),
    ...stats(reply),
  };
}
