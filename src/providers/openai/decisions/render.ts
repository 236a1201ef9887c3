/**
 * The `Decision` object: `answers` in question order (a predicate's `probability`, a choice's `choice`, `confidence`
 * and `probabilities` by value, a score's `score`, `confidence` and `probabilities` by level with their `label` and
 * 0-based `value`; a refusal names its question only), the `model` and `usage`. A `content_filter` failure refuses
 * every question. Decisions never stream.
 */
import type { Reply } from "../../../canonical/outcome";
import { decide, type CanonicalAnswer, type CanonicalQuestion } from "../../../canonical/decisions";
import type { Failure } from "../../../scenario/schema";
import type { RenderContext, SseEvent } from "../../types";
import type { DecisionsRequest } from "./parse";

function answer(q: CanonicalQuestion, a: CanonicalAnswer, name: string | null): Record<string, unknown> {
  switch (a.kind) {
    case "refusal":
      return { type: "refusal", name };
    case "predicate":
      return { type: "predicate", name, probability: a.probability };
    case "choice":
      return {
        type: "choice",
        name,
        choice: q.options[a.index]!,
        confidence: a.probabilities[a.index]!,
        probabilities: q.options.map((value, i) => ({ value, probability: a.probabilities[i]! })),
      };
    case "score":
      return {
        type: "score",
        name,
        score: a.score,
        confidence: a.probabilities[a.level]!,
        probabilities: q.options.map((label, i) => ({ label, value: i, probability: a.probabilities[i]! })),
      };
  }
}

export function renderDecisionJson(reply: Reply, ctx: RenderContext<DecisionsRequest>): unknown {
  const { body, questions, inputText } = ctx.wire;
  const answers: CanonicalAnswer[] = reply.safety !== undefined ? questions.map(() => ({ kind: "refusal" })) : decide(questions, reply.decision, inputText).answers;
  const u = reply.usage;
  const reasoning = Math.min(u.reasoningTokens, u.outputTokens);
  return {
    answers: questions.map((q, i) => answer(q, answers[i]!, body.questions[i]!.name ?? null)),
    model: reply.model,
    usage: {
      input_tokens: u.inputTokens,
      input_tokens_details: { cache_write_tokens: u.cacheWriteTokens, cached_tokens: u.cacheReadTokens },
      output_tokens: u.outputTokens,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: u.inputTokens + u.outputTokens,
    },
  };
}

/** Decisions never stream (a `stream` field is refused in parse); the interface's transcript is the body as one event. */
export function renderDecisionEvents(reply: Reply, ctx: RenderContext<DecisionsRequest>): SseEvent[] {
  return [{ data: JSON.stringify(renderDecisionJson(reply, ctx)) }];
}

export function renderDecisionStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  const message = failure.message ?? "The server had an error while processing your request. Sorry about that!";
  return { data: JSON.stringify({ error: { message, type: failure.errorType ?? "server_error", param: null, code: null } }) };
}
