/**
 * What an eval reads of a turn it runs through the scenario (a sampled item's, a judge's): the usage in the eval's
 * terms, the answer's text and tool calls (a Chat completion's or a response's), and the judge that asks a model
 * grader's question as a Chat Completions turn of a run's (or a grader run's) session.
 */
import type { BatchRef } from "../../../../session/core";
import type { Runtime } from "../../../../runtime/types";
import { type LineOrigin, runBatchLine } from "../../../../turn/batch";
import { openaiChat } from "../../chat";
import type { Judge, TokenUsage } from "./graders";

/** The usage a Chat completion or a response reports, in the eval's terms. */
export function usageOf(body: Record<string, unknown>): TokenUsage {
  const u = (body.usage ?? {}) as Record<string, unknown>;
  const prompt = Number(u.prompt_tokens ?? u.input_tokens ?? 0);
  const completion = Number(u.completion_tokens ?? u.output_tokens ?? 0);
  const details = (u.prompt_tokens_details ?? u.input_tokens_details ?? {}) as Record<string, unknown>;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, cached_tokens: Number(details.cached_tokens ?? 0) };
}

/** The answer text and tool calls of a Chat completion or a response. */
export function answerOf(body: Record<string, unknown>): { text: string; tools: unknown[]; finish: string; choices?: unknown } {
  if (Array.isArray(body.choices)) {
    const c = (body.choices[0] ?? {}) as { message?: { content?: unknown; tool_calls?: unknown[] }; finish_reason?: string };
    return { text: typeof c.message?.content === "string" ? c.message.content : "", tools: c.message?.tool_calls ?? [], finish: c.finish_reason ?? "stop", choices: body.choices };
  }
  const output = Array.isArray(body.output) ? (body.output as Record<string, unknown>[]) : [];
  const text = output
    .filter((o) => o.type === "message")
    .flatMap((o) => (Array.isArray(o.content) ? (o.content as Record<string, unknown>[]) : []))
    .filter((p) => p.type === "output_text")
    .map((p) => p.text as string)
    .join("");
  return { text, tools: output.filter((o) => o.type === "function_call"), finish: body.status === "incomplete" ? "length" : "stop" };
}

/**
 * A judge asking through the scenario: each question a Chat Completions turn of `origin`'s session, journalled as the
 * batch line `line()` names (called once a question).
 * @example scenarioJudge(rt, origin, () => ({ id: run.id, customId: `${run.id}/0/2` }))
 */
export function scenarioJudge(rt: Runtime, origin: LineOrigin, line: () => BatchRef): Judge {
  return async (body) => {
    const answer = await runBatchLine(openaiChat, rt, body, { ...origin, path: "/v1/chat/completions" }, line());
    const out = (answer.body ?? {}) as Record<string, unknown>;
    const model = typeof out.model === "string" ? out.model : String(body.model);
    if (answer.status >= 400) {
      const err = (out.error ?? {}) as { code?: string; message?: string };
      return { ok: false, text: "", model, usage: usageOf(out), error: { code: err.code ?? String(answer.status), message: err.message ?? `The grader model answered ${answer.status}.` } };
    }
    return { ok: true, text: answerOf(out).text, model, usage: usageOf(out) };
  };
}
