/**
 * Canonical reply → the legacy `text_completion` JSON and its SSE transcript (`data: [DONE]` last), in the shapes
 * recorded from the API (docs/providers/fidelity.md, "OpenAI legacy completions"): no `system_fingerprint`, a stream's
 * chunks `{ id, object, created, choices, model }`, each choice's end an empty `text` with its `finish_reason`, then
 * (with `stream_options.include_usage`) `{ id, object, created, model, usage, choices: [] }`.
 *
 * Every prompt gets its `n` choices (`index` = prompt × n + k). The default responder writes them all; a scripted
 * reply — one message — answers each prompt with it. The legacy wire has text only: a reply's refusal is its text,
 * and tool calls and reasoning have no field (docs/providers/openai.md says so).
 */
import { replyChoices, type Reply } from "../../../canonical/outcome";
import { WHOLE_BODY_LIMIT } from "../../../http/byte-source";
import { makeId } from "../../../http/ids";
import { stableHash } from "../../../util/hash";
import { wordPieces } from "../../../util/text";
import type { RawBody, RenderContext, SseEvent } from "../../types";
import { roundRobin } from "../chat/render-stream";
import type { CompletionsRequest } from "./wire";

type Ctx = RenderContext<CompletionsRequest>;

/** One choice as sent: the reply message that answers it and the prompt it completes. */
interface Answered {
  choice: Reply;
  prompt: string;
}

/** `cmpl-` and 29 characters, as the API's ids. */
export function completionsId(reply: Reply): string {
  return makeId("cmpl-", reply.idSeed, 29);
}

/** The choices in order: the reply's own when it wrote one per prompt and `n`, else its message(s) for each prompt. */
function answered(reply: Reply, ctx: Ctx): { list: Answered[]; scale: number } {
  const own = replyChoices(reply);
  const prompts = ctx.wire.prompts;
  const perPrompt = Math.max(1, ctx.wire.body.n ?? 1);
  if (own.length >= prompts.length * perPrompt) return { list: own.map((choice, i) => ({ choice, prompt: prompts[Math.min(prompts.length - 1, Math.floor(i / perPrompt))]! })), scale: 1 };
  return { list: prompts.flatMap((prompt) => own.map((choice) => ({ choice, prompt }))), scale: prompts.length };
}

/** A choice's generated text: its text, else its refusal (the legacy wire has no refusal field). */
function generated(choice: Reply): string {
  return choice.text ?? choice.refusal ?? "";
}

function usage(reply: Reply, scale: number) {
  const completion = reply.usage.outputTokens * scale;
  return { prompt_tokens: reply.usage.inputTokens, completion_tokens: completion, total_tokens: reply.usage.inputTokens + completion };
}

/** Words with the whitespace before them: mockllm's tokens here ("\n\nHello", " world.", and trailing whitespace alone). */
function tokensOf(text: string): string[] {
  return text.match(/\s*\S+|\s+/g) ?? [];
}

/** A token's log probability: deterministic from the reply, its position and its text; most near 0, as a model's. */
function logprobOf(seed: string, at: number, token: string): number {
  const u = (stableHash(`${seed}|${at}|${token}`) >>> 0) / 0x1_0000_0000;
  return -Number((u * u * u * 4 + 1e-6).toFixed(7));
}

interface Logprobs {
  tokens: string[];
  token_logprobs: (number | null)[];
  top_logprobs: (Record<string, number> | null)[];
  text_offset: number[];
}

/**
 * `logprobs` of `text` starting at character `offset` of the prompt-and-completion text (the API counts from the
 * prompt's start, echoed or not), its first token being token `at` of the choice. `top_logprobs` holds the sampled
 * token (the likeliest) and, up to `top` entries, other tokens of the choice less likely; the prompt's first token
 * (echo) has none, as the API's.
 */
function logprobsOf(text: string, sent: Sent, top: number, offset: number, at: number): Logprobs {
  const { seed } = sent;
  sent.vocabulary ??= [...new Set(tokensOf(sent.text))];
  const vocabulary = sent.vocabulary;
  const out: Logprobs = { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
  let position = offset;
  for (const [i, token] of tokensOf(text).entries()) {
    const k = at + i;
    out.tokens.push(token);
    out.text_offset.push(position);
    position += token.length;
    if (k === 0 && sent.echo) {
      out.token_logprobs.push(null);
      out.top_logprobs.push(null);
      continue;
    }
    const lp = logprobOf(seed, k, token);
    out.token_logprobs.push(lp);
    const entries: Record<string, number> = { [token]: lp };
    let added = 1;
    for (let j = 0; j < vocabulary.length && added < Math.max(1, top); j++) {
      const other = vocabulary[(k + 1 + j) % vocabulary.length]!;
      if (other in entries) continue;
      entries[other] = Number((lp - 0.5 * added - Math.abs(logprobOf(seed, k, other))).toFixed(7));
      added++;
    }
    out.top_logprobs.push(entries);
  }
  return out;
}

/** What one choice sends: its text (the prompt first with `echo`) and, when asked, its logprobs. */
interface Sent {
  text: string;
  /** Where the generated text starts in `text`. */
  start: number;
  seed: string;
  /** The prompt is sent first (`echo`): its first token has no log probability. */
  echo: boolean;
  offset: number;
  /** Its distinct tokens (the alternatives `top_logprobs` names), made when log probabilities are first asked. */
  vocabulary?: string[];
}

function sentOf(a: Answered, ctx: Ctx): Sent {
  const echo = ctx.wire.body.echo === true;
  const text = generated(a.choice);
  const whole = echo ? a.prompt + text : text;
  return { text: whole, start: echo ? a.prompt.length : 0, seed: a.choice.idSeed, echo, offset: echo ? 0 : a.prompt.length };
}

function wantedLogprobs(ctx: Ctx): number | undefined {
  const n = ctx.wire.body.logprobs;
  return typeof n === "number" ? n : undefined;
}

/** One choice of the JSON answer. */
function jsonChoice(a: Answered, index: number, ctx: Ctx) {
  const sent = sentOf(a, ctx);
  const top = wantedLogprobs(ctx);
  return { text: sent.text, index, logprobs: top === undefined ? null : logprobsOf(sent.text, sent, top, sent.offset, 0), finish_reason: a.choice.finishReason };
}

export function renderCompletionsJson(reply: Reply, ctx: Ctx): unknown {
  const { list, scale } = answered(reply, ctx);
  return {
    id: completionsId(reply),
    object: "text_completion",
    created: ctx.created,
    model: reply.model,
    choices: list.map((a, index) => jsonChoice(a, index, ctx)),
    usage: usage(reply, scale),
  };
}

/** Bytes a character of text costs in the answer, about, with its log probabilities (each token's entry and its alternatives). */
const LOGPROB_BYTES_PER_CHAR = 24;

/**
 * A large answer (past WHOLE_BODY_LIMIT, about: a long scripted text answering many prompts, or with log
 * probabilities) as pieces made as they are sent — the head, each choice, the tail — byte for byte `JSON.stringify`
 * of `renderCompletionsJson`; undefined for the others, built whole.
 */
export function renderCompletionsRaw(reply: Reply, ctx: Ctx): RawBody | undefined {
  const { list, scale } = answered(reply, ctx);
  const perChar = wantedLogprobs(ctx) === undefined ? 1 : LOGPROB_BYTES_PER_CHAR;
  let size = 0;
  for (const a of list) size += (generated(a.choice).length + (ctx.wire.body.echo === true ? a.prompt.length : 0)) * perChar;
  if (size <= WHOLE_BODY_LIMIT) return undefined;
  const head = JSON.stringify({ id: completionsId(reply), object: "text_completion", created: ctx.created, model: reply.model });
  const tail = JSON.stringify({ usage: usage(reply, scale) });
  function* pieces(): Generator<string> {
    yield `${head.slice(0, -1)},"choices":[`;
    for (const [index, a] of list.entries()) yield (index > 0 ? "," : "") + JSON.stringify(jsonChoice(a, index, ctx));
    yield `],${tail.slice(1)}`;
  }
  return { body: { pieces }, contentType: "application/json" };
}

/**
 * A chunk whose JSON is made when it is written (a paced stream writes it when its time comes), so a transcript of many
 * choices holds their pieces, not their chunks' text, before the first byte.
 */
function lazyEvent(encode: () => string, words: number): SseEvent {
  let data: string | undefined;
  return {
    words,
    oneLine: true,
    get data() {
      data ??= encode();
      return data;
    },
  };
}

/** One choice's chunks: the echoed prompt first, then its text in the reply's chunk size (its finish comes later). */
function choiceChunks(a: Answered, index: number, ctx: Ctx, chunkWords: number, frame: (choice: unknown) => string): SseEvent[] {
  const sent = sentOf(a, ctx);
  const top = wantedLogprobs(ctx);
  const pieces = [...(sent.start > 0 ? [{ text: sent.text.slice(0, sent.start), words: 0 }] : []), ...wordPieces(sent.text.slice(sent.start), chunkWords)];
  const out: SseEvent[] = [];
  let offset = 0;
  let at = 0;
  for (const piece of pieces) {
    if (piece.text === "") continue;
    const [from, first] = [sent.offset + offset, at];
    const logprobs = () => (top === undefined ? null : logprobsOf(piece.text, sent, top, from, first));
    offset += piece.text.length;
    // Token positions matter only to log probabilities: a stream without them does not cut its text into tokens.
    if (top !== undefined) at += tokensOf(piece.text).length;
    out.push(lazyEvent(() => frame({ text: piece.text, index, logprobs: logprobs(), finish_reason: null }), piece.words));
  }
  return out;
}

/**
 * The transcript: the choices' chunks in turn (several choices interleave, as `n > 1` streams do), each choice's
 * finish (an empty `text`) after them all, usage, `[DONE]`.
 */
export function renderCompletionsEvents(reply: Reply, ctx: Ctx): SseEvent[] {
  const { list, scale } = answered(reply, ctx);
  const id = completionsId(reply);
  const head = { id, object: "text_completion", created: ctx.created };
  const frame = (choice: unknown) => JSON.stringify({ ...head, choices: [choice], model: reply.model });
  const events = roundRobin(list.map((a, index) => choiceChunks(a, index, ctx, reply.pacing.chunkWords, frame)));
  const none = wantedLogprobs(ctx) === undefined ? null : { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
  list.forEach((a, index) => events.push({ data: frame({ text: "", index, logprobs: none, finish_reason: a.choice.finishReason }), oneLine: true }));
  if (ctx.wire.body.stream_options?.include_usage === true) {
    events.push({ data: JSON.stringify({ ...head, model: reply.model, usage: usage(reply, scale), choices: [] }), oneLine: true });
  }
  events.push({ data: "[DONE]" });
  return events;
}
