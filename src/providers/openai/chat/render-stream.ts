/**
 * Canonical reply → `chat.completion.chunk` SSE transcript, ending `data: [DONE]`.
 */
import { replyChoices, type Reply } from "../../../canonical/outcome";
import { chunkChars, chunkWords, wordCount } from "../../../util/text";
import type { Failure } from "../../../scenario/schema";
import type { RenderContext, SseEvent } from "../../types";
import { obfuscationAfter, obfuscationSeed } from "../../../http/ids";
import { chatToolCalls, chatUsage, completionId, reasoningText, servedTier, SYSTEM_FINGERPRINT } from "./render-json";
import type { ChatRequest } from "./wire";

/** Characters of tool-call arguments per fragment. */
const ARGUMENT_FRAGMENT = 16;

/**
 * One chunk before encoding: its choice index, delta (as JSON, or the one text field `field` set to `text`), finish
 * reason, words of content, and the text it carries.
 */
interface ChunkDraft {
  index: number;
  delta?: string;
  field?: string;
  finish: string | null;
  words: number;
  text: string;
}

/** The chunks one choice streams, role first, finish chunk excluded. */
function choiceDrafts(choice: Reply, index: number, chunkSize: number): ChunkDraft[] {
  const hasText = choice.text !== undefined && choice.text !== "";
  const contentless = choice.toolCalls.length > 0 || choice.refusal !== undefined;
  const draft = (delta: Record<string, unknown>, text = "", words = 0): ChunkDraft => ({ index, delta: JSON.stringify(delta), finish: null, words, text });
  // Every piece holds `chunkSize` words but the last, which holds the rest: only the last is counted.
  const texts = (field: string, whole: string) => {
    const pieces = chunkWords(whole, chunkSize);
    const last = pieces.length - 1;
    pieces.forEach((piece, i) => {
      out.push({ index, field, finish: null, words: i < last ? chunkSize : Math.max(1, wordCount(piece)), text: piece });
    });
  };
  const out: ChunkDraft[] = [
    // A refusal's first delta says `refusal: ""` (recorded); otherwise `refusal: null`.
    draft({ role: "assistant", content: hasText || !contentless ? "" : null, refusal: choice.refusal !== undefined ? "" : null }),
  ];
  texts(choice.reasoningField, reasoningText(choice));
  texts("content", choice.text ?? "");
  texts("refusal", choice.refusal ?? "");
  chatToolCalls(choice).forEach((call, i) => {
    const head = { index: i, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } };
    out.push(draft({ tool_calls: [head] }, call.function.name, 1));
    for (const fragment of chunkChars(call.function.arguments, ARGUMENT_FRAGMENT)) {
      out.push(draft({ tool_calls: [{ index: i, function: { arguments: fragment } }] }, fragment, 1));
    }
  });
  return out;
}

/**
 * Round-robin as real `n > 1` streams send it: each choice's role chunk with its first token, then one chunk of
 * every choice in turn.
 */
function interleave(lists: ChunkDraft[][]): ChunkDraft[] {
  if (lists.length === 1) return lists[0]!;
  const rounds = lists.map((l) => (l.length > 1 ? [l.slice(0, 2), ...l.slice(2).map((d) => [d])] : [l]));
  const out: ChunkDraft[] = [];
  const longest = Math.max(0, ...rounds.map((r) => r.length));
  for (let i = 0; i < longest; i++) for (const r of rounds) out.push(...(r[i] ?? []));
  return out;
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
  // Every chunk starts with the same fields: serialised once, then each chunk appends its own. The bytes are those of
  // JSON.stringify({ ...base, choices, usage?, obfuscation? }), without re-serialising `base` per chunk.
  const frame: ChunkFrame = {
    head: JSON.stringify(base).slice(0, -1),
    usageNull: includeUsage ? `,"usage":null` : "",
    obfuscate: includeObfuscation,
    seed: includeObfuscation ? obfuscationSeed(`${id}#`) : 0,
  };

  const choices = replyChoices(reply);
  const drafts = [
    ...interleave(choices.map((choice, c) => choiceDrafts(choice, c, reply.pacing.chunkWords))),
    ...choices.map((choice, c): ChunkDraft => ({ index: c, delta: "{}", finish: choice.finishReason, words: 0, text: "" })),
  ];
  const events: SseEvent[] = drafts.map((d, n) => new ChunkEvent(frame, d, n));
  if (includeUsage) {
    events.push({ data: `${frame.head},"choices":[],"usage":${JSON.stringify(chatUsage(reply))}${padding(frame, drafts.length, "")}}` });
  }
  events.push({ data: "[DONE]" });
  return events;
}

/** What every chunk of one transcript shares. */
interface ChunkFrame {
  /** The chunk's common fields as JSON, without the closing brace. */
  head: string;
  usageNull: string;
  obfuscate: boolean;
  /** obfuscationSeed of `{id}#`: each chunk's seed is that and its ordinal. */
  seed: number;
}

/** The `obfuscation` field of the `n`-th chunk (its ordinal seeds the padding); the alphabet needs no JSON escaping. */
function padding(frame: ChunkFrame, n: number, text: string): string {
  return frame.obfuscate ? `,"obfuscation":"${obfuscationAfter(frame.seed, String(n), text, 10)}"` : "";
}

/**
 * One chunk, encoded when its `data` is first read — when it is written, for a paced stream — so a transcript costs
 * next to nothing before its first byte. The bytes do not depend on when: the padding's seed is the ordinal given here.
 */
class ChunkEvent implements SseEvent {
  readonly words: number;
  #frame: ChunkFrame;
  #draft: ChunkDraft;
  #n: number;
  #data: string | undefined;

  constructor(frame: ChunkFrame, draft: ChunkDraft, n: number) {
    this.#frame = frame;
    this.#draft = draft;
    this.#n = n;
    this.words = draft.words;
  }

  /** JSON text: never a raw newline. */
  get oneLine(): boolean {
    return true;
  }

  get data(): string {
    if (this.#data === undefined) {
      const d = this.#draft;
      // A delta of one text field is serialised directly: the bytes of JSON.stringify({ [field]: text }).
      const delta = d.delta ?? `{"${d.field}":${JSON.stringify(d.text)}}`;
      const finish = d.finish === null ? "null" : JSON.stringify(d.finish);
      this.#data = `${this.#frame.head},"choices":[{"index":${d.index},"delta":${delta},"logprobs":null,"finish_reason":${finish}}]${this.#frame.usageNull}${padding(this.#frame, this.#n, d.text)}}`;
    }
    return this.#data;
  }
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
