/**
 * Cohere rerank answers: `results` best first (`index`, `relevance_score`, `document` when asked for), cut to
 * `top_n`, with `id` and `meta`. A step's `respond.rerank` scripts the order (indexes best first; the rest follow
 * by their default score) and/or scores by index; the default is the lexical overlap of score.ts.
 */
import type { Reply } from "../../canonical/outcome";
import { stableHex } from "../../util/hash";
import type { Failure } from "../../scenario/schema";
import type { RerankReply } from "../../scenario/surface-replies";
import type { RenderContext, SseEvent } from "../types";
import { COHERE_FAILURE_MESSAGES } from "./errors";
import { overlapScores } from "./score";
import type { RerankRequest } from "./wire";

export interface Ranked {
  index: number;
  score: number;
}

const round8 = (x: number) => Math.round(x * 1e8) / 1e8;

/**
 * Every document ranked, best first. With a scripted `order`, its (valid, first-seen) indexes lead with scores from
 * 0.99 down to 0.5 unless `scores` sets them, and the rest follow with their default scores scaled below 0.5;
 * with `scores` alone, each listed score replaces the default and the list is sorted by score (ties by index).
 * @example rank({ order: [2] }, [0.1, 0.2, 0.3]) // [{ index: 2, score: 0.99 }, { index: 1, … }, { index: 0, … }]
 */
export function rank(scripted: RerankReply | undefined, defaults: number[]): Ranked[] {
  const n = defaults.length;
  const given = (i: number) => scripted?.scores?.[i];
  const order = [...new Set((scripted?.order ?? []).filter((i) => i < n))];
  const byScore = (a: Ranked, b: Ranked) => b.score - a.score || a.index - b.index;
  if (order.length === 0) {
    return defaults.map((s, index) => ({ index, score: given(index) ?? s })).sort(byScore);
  }
  const step = order.length > 1 ? 0.49 / (order.length - 1) : 0;
  const led = order.map((index, k) => ({ index, score: given(index) ?? round8(0.99 - k * step) }));
  const chosen = new Set(order);
  const rest = defaults.flatMap((s, index) => (chosen.has(index) ? [] : [{ index, score: given(index) ?? round8(s * 0.49) }])).sort(byScore);
  return [...led, ...rest];
}

/** A UUID (version 4 layout) from the reply's id seed, as Cohere's ids look. */
export function rerankId(idSeed: string): string {
  const h = stableHex(`rerank|${idSeed}`, 32).split("");
  h[12] = "4";
  h[16] = "89ab"[parseInt(h[16]!, 16) % 4]!;
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

export function renderRerankJson(reply: Reply, ctx: RenderContext<RerankRequest>): unknown {
  const { version, query, documents, topN, returnDocuments } = ctx.wire;
  const ranked = rank(
    reply.rerank,
    overlapScores(
      query,
      documents.map((d) => d.text),
    ),
  );
  const shown = topN === undefined ? ranked : ranked.slice(0, topN);
  return {
    id: rerankId(reply.idSeed),
    results: shown.map((r) => ({
      ...(returnDocuments ? { document: documents[r.index]!.returned } : {}),
      index: r.index,
      relevance_score: r.score,
    })),
    meta: {
      api_version: version === "2" ? { version: "2", is_experimental: false } : { version: "1" },
      billed_units: { search_units: 1 },
    },
  };
}

/** Rerank never streams; the interface's transcript is the body as one event. */
export function renderRerankEvents(reply: Reply, ctx: RenderContext<RerankRequest>): SseEvent[] {
  return [{ data: JSON.stringify(renderRerankJson(reply, ctx)) }];
}

export function renderRerankStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  return { data: JSON.stringify({ message: failure.message ?? COHERE_FAILURE_MESSAGES.model_error }) };
}
