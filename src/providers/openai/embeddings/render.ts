/**
 * Embedding vectors: scripted ones from the step's `respond.embeddings`, else deterministic vectors from a hash of
 * each input (stable per input, L2-normalised, float32-exact so `float` and `base64` answers decode to the same
 * numbers). `dimensions` truncates like the real text-embedding-3 models: a shorter vector is a renormalised prefix.
 */
import type { Reply } from "../../../canonical/outcome";
import { seededRandom, stableHash } from "../../../util/hash";
import type { Failure } from "../../../scenario/schema";
import type { RawBody, RenderContext, SseEvent } from "../../types";
import { WHOLE_BODY_LIMIT } from "../../../http/byte-source";
import type { EmbeddingInput, EmbeddingsRequest } from "./wire";

export const DEFAULT_DIMENSIONS = 1536;

/**
 * The hash vector of one input: `dimensions` values from a PRNG seeded by the input, normalised to length 1,
 * each exactly representable as float32.
 * @example hashVector({ kind: "text", text: "hi" }, 3).length // 3
 */
export function hashVector(input: EmbeddingInput, dimensions = DEFAULT_DIMENSIONS): number[] {
  const next = seededRandom(stableHash(input.kind === "text" ? `text|${input.text}` : `tokens|${input.tokens.join(",")}`));
  const raw = Array.from({ length: dimensions }, () => next() * 2 - 1);
  const norm = Math.sqrt(raw.reduce((sum, x) => sum + x * x, 0)) || 1;
  return raw.map((x) => Math.fround(x / norm));
}

/** Little-endian float32 bytes, base64: what `encoding_format: "base64"` returns. */
export function toBase64(vector: number[]): string {
  const view = new DataView(new ArrayBuffer(vector.length * 4));
  vector.forEach((x, i) => view.setFloat32(i * 4, x, true));
  const bytes = new Uint8Array(view.buffer);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A deterministic token estimate: ⌈characters / 4⌉ per text (at least 1), the length of a token list. */
export function promptTokens(inputs: EmbeddingInput[]): number {
  return inputs.reduce((n, i) => n + (i.kind === "tokens" ? i.tokens.length : Math.max(1, Math.ceil(i.text.length / 4))), 0);
}

/** The vector for input `index`: the scripted one when the step gives it, else the hash vector. */
export function vectorFor(reply: Reply, input: EmbeddingInput, index: number, dimensions: number): number[] {
  return reply.embeddings?.[index] ?? hashVector(input, dimensions);
}

export function renderEmbeddingsJson(reply: Reply, ctx: RenderContext<EmbeddingsRequest>): unknown {
  const { body, inputs } = ctx.wire;
  const dimensions = body.dimensions ?? DEFAULT_DIMENSIONS;
  const base64 = body.encoding_format === "base64";
  const tokens = reply.usageCounted === true ? reply.usage.inputTokens : promptTokens(inputs);
  return {
    object: "list",
    data: inputs.map((input, index) => {
      const vector = vectorFor(reply, input, index, dimensions);
      return { object: "embedding", index, embedding: base64 ? toBase64(vector) : vector };
    }),
    model: reply.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

/** Bytes a vector value takes in the JSON (about: `-0.012345678`, a comma) or in base64 (4 bytes, × 4/3). */
export const FLOAT_JSON_BYTES = 20;
const FLOAT_BASE64_BYTES = 16 / 3;

/**
 * A large answer (past WHOLE_BODY_LIMIT, about: 2,048 inputs × 3,072 dimensions is 67 MB of JSON) as pieces made
 * as they are sent — the head, each vector's item, the tail — byte for byte `JSON.stringify` of the whole
 * (`renderEmbeddingsJson`); undefined for the others, which are built whole as before.
 */
export function renderEmbeddingsRaw(reply: Reply, ctx: RenderContext<EmbeddingsRequest>): RawBody | undefined {
  const { body, inputs } = ctx.wire;
  const dimensions = body.dimensions ?? DEFAULT_DIMENSIONS;
  const base64 = body.encoding_format === "base64";
  if (inputs.length * dimensions * (base64 ? FLOAT_BASE64_BYTES : FLOAT_JSON_BYTES) <= WHOLE_BODY_LIMIT) return undefined;
  const tokens = reply.usageCounted === true ? reply.usage.inputTokens : promptTokens(inputs);
  const tail = JSON.stringify({ model: reply.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  function* pieces(): Generator<string> {
    yield '{"object":"list","data":[';
    for (const [index, input] of inputs.entries()) {
      const vector = vectorFor(reply, input, index, dimensions);
      yield (index > 0 ? "," : "") + JSON.stringify({ object: "embedding", index, embedding: base64 ? toBase64(vector) : vector });
    }
    yield `],${tail.slice(1)}`;
  }
  return { body: { pieces }, contentType: "application/json" };
}

/** Embeddings never stream; a client that asks anyway gets the body as one event. */
export function renderEmbeddingsEvents(reply: Reply, ctx: RenderContext<EmbeddingsRequest>): SseEvent[] {
  return [{ data: JSON.stringify(renderEmbeddingsJson(reply, ctx)) }];
}

export function renderEmbeddingsStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  const message = failure.message ?? "The server had an error while processing your request. Sorry about that!";
  return { data: JSON.stringify({ error: { message, type: failure.errorType ?? "server_error", param: null, code: null } }) };
}
