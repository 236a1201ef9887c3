/**
 * Canonical reply → `chat.completion.chunk` SSE transcript, ending `data: [DONE]`.
 *
 * A stream's chunks differ only in their choice index, delta, finish reason and padding: every chunk is a template
 * of strings made once per stream (per choice and field for the text runs) with its own text spliced in, the bytes
 * of `JSON.stringify({ id, object, created, model, service_tier, system_fingerprint, choices: [{ index, delta,
 * logprobs: null, finish_reason }], usage?, obfuscation? })` without building or serialising an object per chunk.
 */
import { chatAnnotations } from "./server-tools";
import { replyChoices, type Reply } from "../../../canonical/outcome";
import { streamFragments, wordPieces } from "../../../util/text";
import type { Failure } from "../../../scenario/schema";
import type { RenderContext, SseEvent } from "../../types";
import { NO_OBFUSCATION, type ObfuscationSeed, obfuscationAfter, obfuscationSeed } from "../../../http/ids";
import { pieceScan, plainJson } from "../../../http/json";
import { chatToolCalls, chatUsage, completionId, reasoningText, servedTier, SYSTEM_FINGERPRINT } from "./render-json";
import type { ChatRequest } from "./wire";

/** Characters of tool-call arguments per fragment. */
const ARGUMENT_FRAGMENT = 16;

/** What every chunk of one transcript shares. */
interface ChunkFrame {
  /** The chunk's common fields as JSON, without the closing brace. */
  head: string;
  usageNull: string;
  obfuscate: boolean;
  /** obfuscationSeed of `{id}#`: each chunk's seed is that and its ordinal. */
  seed: ObfuscationSeed;
}

/** A chunk's JSON up to its delta's value: `{…head,"choices":[{"index":N,"delta":`. */
function opening(frame: ChunkFrame, index: number): string {
  return `${frame.head},"choices":[{"index":${index},"delta":`;
}

/** A chunk's JSON from after its delta up to its padding. */
function closing(frame: ChunkFrame, finish: string | null): string {
  return `,"logprobs":null,"finish_reason":${finish === null ? "null" : JSON.stringify(finish)}}]${frame.usageNull}`;
}

/**
 * The end of the `n`-th chunk: its `obfuscation` field (its ordinal seeds the padding; the alphabet needs no JSON
 * escaping) and the closing brace.
 */
function padding(frame: ChunkFrame, n: number, text: string, points: number | undefined): string {
  return frame.obfuscate ? `,"obfuscation":"${obfuscationAfter(frame.seed, String(n), text, 10, points)}"}` : "}";
}

/**
 * One chunk, encoded when its `data` is first read — when it is written, for a paced stream — so a transcript costs
 * next to nothing before its first byte. Its JSON is `before`, then its delta (given as JSON, or its `text` quoted
 * when the delta is one text field whose key ends `before`: between the quotes of `quoted` when it needs no
 * escaping), then `after`, its padding and the closing brace. The
 * bytes do not depend on when: the padding's seed is the chunk's ordinal, set once the chunks are in order.
 */
class ChunkEvent implements SseEvent {
  /** Ordinal in the transcript. */
  n = 0;
  readonly #frame: ChunkFrame;
  readonly #before: string;
  readonly #delta: string | undefined;
  readonly #after: string;
  readonly #text: string;
  readonly #quoted: { before: string; after: string } | undefined;
  readonly #points: number | undefined;
  readonly #plain: boolean;
  #data: string | undefined;

  constructor(
    frame: ChunkFrame,
    before: string,
    delta: string | undefined,
    after: string,
    /** The text it carries (what its padding counts). */
    text: string,
    readonly words: number,
    /** A text delta's `before` and `after` with the quotes around its text. */
    quoted?: { before: string; after: string },
    /** The code points of `text`, when known without counting them (its run holds no surrogate). */
    points?: number,
    /** `text` is known to need no JSON escaping (its whole run needs none). */
    plain = false,
  ) {
    this.#frame = frame;
    this.#before = before;
    this.#delta = delta;
    this.#after = after;
    this.#text = text;
    this.#quoted = quoted;
    this.#points = points;
    this.#plain = plain;
  }

  /** JSON text: never a raw newline. */
  get oneLine(): boolean {
    return true;
  }

  get data(): string {
    if (this.#data === undefined) {
      const end = padding(this.#frame, this.n, this.#text, this.#points);
      const delta = this.#delta;
      // A text that needs no escaping goes between quotes already on `before` and `after` (the run's `quoted`).
      if (delta !== undefined) this.#data = `${this.#before}${delta}${this.#after}${end}`;
      else if (this.#quoted !== undefined && (this.#plain || plainJson(this.#text))) this.#data = `${this.#quoted.before}${this.#text}${this.#quoted.after}${end}`;
      else this.#data = `${this.#before}${JSON.stringify(this.#text)}${this.#after}${end}`;
    }
    return this.#data;
  }
}

/** The chunks one choice streams, role first, finish chunk excluded. */
function choiceChunks(frame: ChunkFrame, choice: Reply, index: number, chunkSize: number): ChunkEvent[] {
  const hasText = choice.text !== undefined && choice.text !== "";
  const contentless = choice.toolCalls.length > 0 || choice.refusal !== undefined;
  const open = opening(frame, index);
  const close = closing(frame, null);
  const chunk = (delta: Record<string, unknown>, text = "", words = 0) => new ChunkEvent(frame, open, JSON.stringify(delta), close, text, words);
  // A run's pieces (`wordPieces`: only the last one's words counted) share the delta's key: `{"field":` opens the
  // text, `}` closes the delta. The shared strings are made flat once (`join`), not as concatenations every chunk's
  // copy walks again.
  const texts = (field: string, whole: string) => {
    const before = [open, "{", JSON.stringify(field), ":"].join("");
    const after = ["}", close].join("");
    const quoted = { before: [before, '"'].join(""), after: ['"', after].join("") };
    // One scan of the run, not one of each piece: whether they need escaping, and their code points (the padding's).
    const { plain, counted } = pieceScan(whole);
    for (const p of wordPieces(whole, chunkSize)) out.push(new ChunkEvent(frame, before, undefined, after, p.text, p.words, quoted, counted ? p.text.length : undefined, plain));
  };
  const out: ChunkEvent[] = [
    // A refusal's first delta says `refusal: ""` (recorded); otherwise `refusal: null`.
    chunk({ role: "assistant", content: hasText || !contentless ? "" : null, refusal: choice.refusal !== undefined ? "" : null }),
  ];
  texts(choice.reasoningField, reasoningText(choice));
  texts("content", choice.text ?? "");
  texts("refusal", choice.refusal ?? "");
  // Search models send the citations in one delta after the text.
  const annotations = chatAnnotations(choice);
  if (annotations.length > 0) out.push(chunk({ annotations }));
  chatToolCalls(choice).forEach((call, i) => {
    const head = { index: i, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } };
    out.push(chunk({ tool_calls: [head] }, call.function.name, 1));
    for (const fragment of streamFragments(call.function.arguments, ARGUMENT_FRAGMENT)) {
      out.push(chunk({ tool_calls: [{ index: i, function: { arguments: fragment } }] }, fragment, 1));
    }
  });
  return out;
}

/**
 * One item of every list in turn, as real `n > 1` streams send their choices' chunks (the legacy completions too).
 * @example roundRobin([[1, 2, 3], [4]]) // [1, 4, 2, 3]
 */
export function roundRobin<T>(lists: readonly (readonly T[])[]): T[] {
  if (lists.length === 1) return [...lists[0]!];
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}

/** Chat's round-robin: each choice's role chunk goes with its first token, then one chunk of every choice in turn. */
function interleave<T>(lists: T[][]): T[] {
  if (lists.length === 1) return lists[0]!;
  return roundRobin(lists.map((l) => (l.length > 1 ? [l.slice(0, 2), ...l.slice(2).map((d) => [d])] : [l]))).flat();
}

/**
 * The whole transcript. With several choices (`n > 1`, or the default responder's extra messages) the choices'
 * chunks interleave token by token and every `finish_reason` chunk comes at the end, as the real API sends them.
 * Each chunk carries `service_tier` and (unless `stream_options.include_obfuscation` is false) `obfuscation`.
 */
export function renderChatEvents(reply: Reply, ctx: RenderContext<ChatRequest>): SseEvent[] {
  const includeUsage = ctx.wire.stream_options?.include_usage === true;
  const includeObfuscation = ctx.wire.stream_options?.include_obfuscation !== false;
  const id = completionId(reply);
  const base = {
    id,
    object: "chat.completion.chunk",
    created: ctx.created,
    model: reply.model,
    service_tier: servedTier(ctx),
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
  // Every chunk starts with the same fields: serialised once, then each chunk appends its own.
  const frame: ChunkFrame = {
    head: JSON.stringify(base).slice(0, -1),
    usageNull: includeUsage ? `,"usage":null` : "",
    obfuscate: includeObfuscation,
    seed: includeObfuscation ? obfuscationSeed(`${id}#`) : NO_OBFUSCATION,
  };

  const choices = replyChoices(reply);
  const chunks = [
    ...interleave(choices.map((choice, c) => choiceChunks(frame, choice, c, reply.pacing.chunkWords))),
    ...choices.map((choice, c) => new ChunkEvent(frame, opening(frame, c), "{}", closing(frame, choice.finishReason), "", 0)),
  ];
  chunks.forEach((chunk, n) => {
    chunk.n = n;
  });
  const events: SseEvent[] = chunks;
  if (includeUsage) {
    events.push({ data: `${frame.head},"choices":[],"usage":${JSON.stringify(chatUsage(reply))}${padding(frame, chunks.length, "", 0)}`, oneLine: true });
  }
  events.push({ data: "[DONE]" });
  return events;
}

/** `data: {"error":…}` — openai-node throws an APIError on a payload with a top-level `error`. */
export function renderChatStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  return {
    data: JSON.stringify({
      error: {
        message: failure.message ?? "The server had an error while processing your request. Sorry about that!",
        type: failure.errorType ?? "server_error",
        param: null,
        code: null,
      },
    }),
  };
}
