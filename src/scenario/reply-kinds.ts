/**
 * The reply kinds: one table, one entry per thing a step's `respond` can answer with. Each entry says, in one place:
 * its `respond` fields (zod: `ResponseSchema` in src/scenario/schema.ts is built from them, in table order), what the
 * engine puts on the canonical `Reply` (src/scenario/engine.ts `resolveReply`; the `Reply` fields are `KindReplies`
 * below, which src/canonical/outcome.ts's `Reply` extends), which endpoints it alone answers and what the journal's
 * canonical view records of it (src/session/canonical-view.ts), how verify words a step that scripts it
 * (src/session/verify.ts `describeRespond`) and the page that documents it. Renderers stay in the provider folders:
 * they read `reply.<kind>`. A new kind is one entry here (its fields and its `KindReplies` line) plus its renderers;
 * test/unit/reply-kinds.test.ts registers a throwaway kind to show the schema, the engine, the view and verify follow.
 *
 * Inventory (every place that switched on a kind before this table; what loops over the table now):
 * - the schema: `ResponseSchema` (src/scenario/schema.ts) listed every field; the surface kinds' schemas live in
 *   src/scenario/surface-replies.ts, `serverTools`' in server-tools-schema.ts, `frames`' in frames-schema.ts, the
 *   message's blocks in message-schema.ts → `replyKindFields` (the message's kinds, then the reply's own options —
 *   `finishReason`, `stopSequences`, `usage`, `model`, `latencyMs`, `stream`, `headers`, kept in schema.ts —, then
 *   the other kinds).
 * - the engine: `resolveReply` turned `json` into the text, defaulted the text to "" unless tool calls, a refusal or a
 *   compaction answered, made the default compaction of a compaction request and copied `embeddings`, `moderation`,
 *   `image`, `speech`, `transcript`, `rerank`, `serverTools`, `frames` (+ `timing`) one line each → `MESSAGE_TEXT`,
 *   `FILLS_TURN`, `resolveKinds`. The message's own parts (reasoning blocks, tool calls with their ids, finish
 *   reason) stay the engine's core. `decide()` answers a compaction request with compaction steps only: that is
 *   selection by request, not a reply kind, and stays there.
 * - the canonical reply: `Reply` (src/canonical/outcome.ts) declared each kind's field → `KindReplies`.
 * - the canonical view: a set of endpoints whose answer is not text (images, speech, moderations, rerank), the
 *   transcript's text on transcriptions, `answered.compaction`, `answered.serverTools` → `ANSWERED_BY` (endpoint →
 *   the kind that alone answers it) and each entry's `view`.
 * - verify: `describeRespond` named every kind → each entry's `describe`. Verify and coverage count compactions and
 *   server-tool uses from the view's `answered.compaction` / `answered.serverTools` (src/session/verify-compaction.ts,
 *   verify-server-tools.ts): what they count is what the entries' `view` records.
 * - templates (src/scenario/templates.ts) expand the message's strings (`text`, `json`, `refusal`, `reasoning`, tool
 *   arguments): the message is what templates apply to, so they stay there; `structured.ts` checks the message's text.
 * - the endpoint list (`ENDPOINTS`, src/canonical/request.ts) and the ready banner (src/client/cli/banner.ts) name
 *   surfaces, not kinds: each kind's `answers.endpoints` names the endpoints of its own surface, `doc` its page.
 * - the renderers in src/providers/<name>/ read `reply.<kind>`; the client builder (src/client/builder/step.ts) has a
 *   method for some kinds (`json`, `compaction`), typed by `ScenarioResponse`.
 */
import { z } from "zod";
import { defaultCompactionSummary, replyCompaction } from "../canonical/compaction";
import type { CanonicalRequest, Endpoint } from "../canonical/request";
import type { ServerToolUse } from "../canonical/server-tools";
import { FramesSchema, type RecordedFrames, type Timing, TimingSchema } from "./frames-schema";
import { ReasoningBlockSchema, ToolCallSchema } from "./message-schema";
import { ServerToolsSchema } from "./server-tools-schema";
import {
  type DecisionReply,
  type ImageReply,
  ImageReplySchema,
  type ModerationReply,
  ModerationReplySchema,
  DecisionReplySchema,
  type RerankReply,
  RerankReplySchema,
  type SpeechReply,
  SpeechReplySchema,
  type TranscriptReply,
  TranscriptReplySchema,
  transcriptText,
} from "./surface-replies";

/** What the kinds beside the message put on the canonical `Reply` (src/canonical/outcome.ts extends this): renderers read these. */
export interface KindReplies {
  /** Scripted embedding vectors (OpenAI `/v1/embeddings`, Gemini `:embedContent` / `:batchEmbedContents`, Cohere `/v2/embed`): one per input, in order. */
  embeddings?: number[][];
  /** A compaction answers the turn (`respond.compaction`, or the default one): rendered before the rest. */
  compaction?: { summary: string };
  /** The scripted answers of the surfaces beside the chat (`respond.moderation`, …); each surface defaults without. */
  moderation?: ModerationReply;
  image?: ImageReply;
  speech?: SpeechReply;
  transcript?: TranscriptReply;
  rerank?: RerankReply;
  decision?: DecisionReply;
  /** Server-side tools the model used this turn (`respond.serverTools`), rendered before its text. */
  serverTools?: ServerToolUse[];
  /** A recorded answer (`respond.frames`): sent byte for byte instead of rendering the fields above. */
  frames?: RecordedFrames;
  timing?: Timing;
}

/** What the journal's canonical view records of a chat answer per kind (`answered.<kind>`, each entry's `view`); verify and coverage count these. */
export interface KindViews {
  /** The compaction answered: the reply's own, a compaction request's default, or the threshold's (`replyCompaction`). */
  compaction?: { summary: string };
  /** The server-side tools used, by kind, in order. */
  serverTools?: string[];
}

/** The scripted values of an entry's own fields. */
export type Scripted<F extends z.ZodRawShape> = { [K in keyof F]?: z.output<F[K]> };

/** What the view hooks see of a reply: its kinds' fields and its usage (the default compaction depends on it). */
export type ViewedReply = KindReplies & { usage: { inputTokens: number } };

/** Verify's quoting: a string cut to its quote length, as JSON (`quote`), or an argument text cut without quoting (`clip`). */
export interface Words {
  quote(s: string): string;
  clip(s: string): string;
}

/** One reply kind. Hooks are methods (so a table of different kinds is one type); each sees its own fields only. */
export interface ReplyKind<F extends z.ZodRawShape = z.ZodRawShape> {
  /** Its `respond` fields, each with its description, the kind's own first. */
  fields: F;
  /** Part of the chat's assistant message: its fields come before the reply's options, and the engine's core builds the message. */
  message?: true;
  /** A message kind that is the message's text (the later in the table wins: `json` over `text`). */
  text?(scripted: Scripted<F>): string | undefined;
  /** The message answers without text when this holds (else its text defaults to ""). */
  fillsTurn?(scripted: Scripted<F>): boolean;
  /** The engine: what goes on the reply. Default (a kind beside the message): the kind's own field, copied when scripted. */
  resolve?(scripted: Scripted<F>, out: KindReplies, req: CanonicalRequest): void;
  /** Endpoints this kind alone answers (its surface's): their journaled answer is this, not the message's text and calls. */
  answers?: { endpoints: readonly Endpoint[]; text?(reply: KindReplies): string };
  /** The canonical view: what `answered.<kind>` records of a chat answer (absent: nothing); `cut` bounds a string. */
  view?(reply: ViewedReply, req: CanonicalRequest, cut: (s: string) => string): KindViews[keyof KindViews];
  /** Verify's words for a step that scripts it (`text "Sunny"`); `lead` puts it first, lowest first. */
  describe?: { lead?: number; words(scripted: Scripted<F>, w: Words): string[] };
  /** The page that documents it (under docs/). */
  doc?: string;
}

/** Types an entry's hooks by its own fields. */
export function replyKind<F extends z.ZodRawShape>(kind: ReplyKind<F>): ReplyKind<F> {
  return kind;
}

/** The kinds of the chat's assistant message, in the order of `respond`'s fields (scenario.schema.json, docs/reference/scenario.md). */
export const MESSAGE_KINDS = {
  text: replyKind({
    fields: { text: z.string().optional().describe("The assistant's text (templates allowed: `{{vars.x}}`, `{{request.model}}`, …).") },
    message: true,
    text: (s) => s.text,
    describe: { words: (s, w) => (s.text === undefined ? [] : [`text ${w.quote(s.text)}`]) },
    doc: "guide/scenarios.md",
  }),
  json: replyKind({
    fields: {
      json: z
        .unknown()
        .optional()
        .describe(
          "A structured answer (any JSON value), sent as the text content serialised as compact JSON, keys in the order written (templates allowed in its strings; a string that is one whole `{{…}}` becomes the value). Takes the place of `text`.",
        ),
    },
    message: true,
    text: (s) => (s.json === undefined ? undefined : JSON.stringify(s.json)),
    describe: { words: (s, w) => (s.json === undefined ? [] : [`json ${w.quote(JSON.stringify(s.json) ?? "null")}`]) },
    doc: "guide/structured-outputs.md",
  }),
  reasoning: replyKind({
    fields: {
      reasoning: z
        .union([z.string(), z.array(ReasoningBlockSchema)])
        .optional()
        .describe("Reasoning before the answer: a string, or thinking blocks (`{ text, signature? }`, `{ redacted }`)."),
      reasoningField: z.enum(["reasoning_content", "reasoning"]).optional().describe("OpenAI Chat Completions field that carries reasoning text."),
    },
    message: true,
    doc: "guide/scenarios.md",
  }),
  toolCalls: replyKind({
    fields: { toolCalls: z.array(ToolCallSchema).optional().describe("Tool calls, in order (several = parallel tool calls).") },
    message: true,
    fillsTurn: (s) => s.toolCalls !== undefined && s.toolCalls.length > 0,
    describe: {
      lead: 2,
      words: (s, w) => (s.toolCalls ?? []).map((c) => `tool call ${c.name} ${w.clip(typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}))}`),
    },
    doc: "guide/scenarios.md",
  }),
  refusal: replyKind({
    fields: { refusal: z.string().optional().describe('A refusal (OpenAI `refusal`, Anthropic `stop_reason: "refusal"`, …).') },
    message: true,
    fillsTurn: (s) => s.refusal !== undefined,
    describe: { words: (s, w) => (s.refusal === undefined ? [] : [`refusal ${w.quote(s.refusal)}`]) },
    doc: "guide/refusals-and-content-filters.md",
  }),
};

/** The kinds beside the message (surfaces' answers, compaction, server tools, recorded frames), in the order of `respond`'s fields. */
export const OTHER_KINDS = {
  embeddings: replyKind({
    fields: {
      embeddings: z
        .array(z.array(z.number()).min(1))
        .min(1)
        .optional()
        .describe(
          "`POST /v1/embeddings` (and Gemini's `:embedContent` / `:batchEmbedContents`, Cohere's `/v2/embed`): the vector for each input, in order (`embeddings[i]` answers input `i`); inputs past the end get the deterministic hash vector. Sent as given (float32 bytes when base64 is asked; Cohere's other types are derived from it).",
        ),
    },
    // No `answers`: an embeddings request journals the message's text and calls as a chat answer does (none unless scripted).
    describe: { words: (s) => (s.embeddings === undefined ? [] : [`${s.embeddings.length} embedding(s)`]) },
    doc: "providers/openai.md",
  }),
  compaction: replyKind({
    fields: {
      compaction: z
        .strictObject({
          summary: z.string().describe("The compaction's summary text."),
        })
        .optional()
        .describe(
          "Answers the turn with the surface's compaction (OpenAI: a `compaction` item, and the `response.compaction` object on `/v1/responses/compact`; Anthropic: a `compaction` block), before any `text` or `toolCalls`.",
        ),
    },
    fillsTurn: (s) => s.compaction !== undefined,
    resolve: (s, out, req) => {
      if (s.compaction !== undefined) out.compaction = { summary: s.compaction.summary };
      else if (req.compactionRequested) out.compaction = { summary: defaultCompactionSummary(req) };
    },
    view: (reply, req, cut) => {
      const compaction = replyCompaction(reply, req);
      return compaction === undefined ? undefined : { summary: cut(compaction.summary) };
    },
    describe: { lead: 1, words: (s, w) => (s.compaction === undefined ? [] : [`compaction ${w.quote(s.compaction.summary)}`]) },
    doc: "guide/compaction.md",
  }),
  moderation: replyKind({
    fields: { moderation: ModerationReplySchema.optional().describe("`POST /v1/moderations` (contract section 10): the categories flagged.") },
    answers: { endpoints: ["moderations"] },
    describe: {
      words: ({ moderation: m }) =>
        m === undefined
          ? []
          : [`moderation ${m.flagged === false || (m.flagged === undefined && (m.categories ?? []).length === 0) ? "not flagged" : `flagged ${(m.categories ?? []).join(", ")}`.trim()}`],
    },
    doc: "providers/openai-moderations.md",
  }),
  image: replyKind({
    fields: {
      image: ImageReplySchema.optional().describe(
        "`POST /v1/images/generations|edits|variations` and Imagen's `:predict`: the picture's colour; on Gemini's generateContent, an image answer (an `inlineData` PNG after the text).",
      ),
    },
    answers: { endpoints: ["images"] },
    describe: { words: ({ image }) => (image === undefined ? [] : [`image${image.color !== undefined ? ` ${image.color}` : ""}`]) },
    doc: "providers/openai-images.md",
  }),
  speech: replyKind({
    fields: {
      speech: SpeechReplySchema.optional().describe("`POST /v1/audio/speech`: the audio's length; on Gemini's generateContent, a speech answer (an `inlineData` of 24 kHz PCM)."),
    },
    answers: { endpoints: ["speech"] },
    describe: { words: ({ speech }) => (speech === undefined ? [] : [`speech${speech.durationMs !== undefined ? ` ${speech.durationMs} ms` : ""}`]) },
    doc: "providers/openai-audio.md",
  }),
  transcript: replyKind({
    fields: { transcript: TranscriptReplySchema.optional().describe("`POST /v1/audio/transcriptions|translations`: the transcript.") },
    answers: { endpoints: ["transcriptions"], text: (reply) => transcriptText(reply.transcript) },
    describe: { words: ({ transcript: t }, w) => (t === undefined ? [] : [`transcript ${w.quote(typeof t === "string" ? t : t.text)}`]) },
    doc: "providers/openai-audio.md",
  }),
  rerank: replyKind({
    fields: { rerank: RerankReplySchema.optional().describe("`POST /v2/rerank`, `/v1/rerank`: the documents' order or scores.") },
    answers: { endpoints: ["rerank"] },
    describe: { words: ({ rerank }) => (rerank === undefined ? [] : [`rerank${rerank.order !== undefined ? ` [${rerank.order.join(", ")}]` : ""}`]) },
    doc: "providers/cohere-rerank.md",
  }),
  decision: replyKind({
    fields: {
      decision: DecisionReplySchema.optional().describe(
        "`POST /v1/decisions` and Gemini's `/v1beta/decisions`: answers by question key (OpenAI's `name`, else its 0-based position; Gemini's question id): `true` / `false` or a probability for a predicate, the value for a choice, the level (index or label) for a score, `{ value, confidence }`, `{ refusal: true }`; questions left out get the default.",
      ),
    },
    answers: { endpoints: ["decisions"] },
    describe: { words: ({ decision }, w) => (decision === undefined ? [] : [`decision ${w.clip(JSON.stringify(decision))}`]) },
    doc: "guide/decisions.md",
  }),
  serverTools: replyKind({
    fields: { serverTools: ServerToolsSchema.optional() },
    view: (reply) => reply.serverTools?.map((u) => u.type),
    doc: "guide/server-tools.md",
  }),
  frames: replyKind({
    fields: {
      frames: FramesSchema.optional().describe("A recorded answer: sent instead of one rendered from the fields above."),
      timing: TimingSchema.optional().describe("How `frames` are paced: `none` (default), `recorded`, or `{ speed }`."),
    },
    resolve: (s, out) => {
      if (s.frames === undefined) return;
      out.frames = s.frames;
      out.timing = s.timing ?? "none";
    },
    doc: "guide/record-replay.md",
  }),
};

/** The table: every kind, the message's first. */
export const REPLY_KINDS: Table = { ...MESSAGE_KINDS, ...OTHER_KINDS };

export type ReplyKindName = keyof typeof MESSAGE_KINDS | keyof typeof OTHER_KINDS;

export type Table = Record<string, ReplyKind>;

type Merge<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/**
 * The `respond` fields of a table's kinds as one zod shape, in table order.
 * @example z.strictObject(kindFields(OTHER_KINDS)).shape.rerank
 */
export function kindFields<T extends Record<string, ReplyKind<z.ZodRawShape>>>(table: T): Merge<T[keyof T]["fields"]> {
  const shape: z.ZodRawShape = {};
  for (const kind of Object.values(table)) Object.assign(shape, kind.fields);
  return shape as Merge<T[keyof T]["fields"]>;
}

/** What the resolved kinds of a table do, precomputed once per table: the loops the engine and the view run. */
export interface KindLoops {
  /** The message's text from its kinds, the later winning. */
  text: ((scripted: Record<string, unknown>) => string | undefined)[];
  /** Whether a scripted answer fills the turn without text. */
  fillsTurn: ((scripted: Record<string, unknown>) => boolean)[];
  /** Each kind beside the message onto the reply. */
  resolve: ((scripted: Record<string, unknown>, out: KindReplies, req: CanonicalRequest) => void)[];
  /** Endpoint → the kind that alone answers it. */
  answeredBy: Map<Endpoint, NonNullable<ReplyKind["answers"]>>;
  /** The canonical view's `answered.<kind>` entries. */
  views: [string, NonNullable<ReplyKind["view"]>][];
  /** Verify's words, lead kinds first. */
  describe: NonNullable<ReplyKind["describe"]>[];
}

/** The loops over `table` (`REPLY_KINDS`, or a test's copy with a kind added). */
export function kindLoops(table: Table): KindLoops {
  const loops: KindLoops = { text: [], fillsTurn: [], resolve: [], answeredBy: new Map(), views: [], describe: [] };
  for (const [name, kind] of Object.entries(table)) {
    if (kind.text) loops.text.push(kind.text);
    if (kind.fillsTurn) loops.fillsTurn.push(kind.fillsTurn);
    if (kind.resolve) loops.resolve.push(kind.resolve);
    else if (kind.message !== true) loops.resolve.push(copyField(name));
    for (const endpoint of kind.answers?.endpoints ?? []) loops.answeredBy.set(endpoint, kind.answers!);
    if (kind.view) loops.views.push([name, kind.view]);
    if (kind.describe) loops.describe.push(kind.describe);
  }
  // A stable sort: the lead kinds by their rank, then the others in table order.
  const rank = (d: NonNullable<ReplyKind["describe"]>) => d.lead ?? Number.MAX_SAFE_INTEGER;
  loops.describe.sort((a, b) => rank(a) - rank(b));
  return loops;
}

/** The default `resolve`: the kind's own field onto the reply's field of the same name, when scripted. */
function copyField(name: string): (scripted: Record<string, unknown>, out: KindReplies) => void {
  return (scripted, out) => {
    const value = scripted[name];
    if (value !== undefined) (out as Record<string, unknown>)[name] = value;
  };
}

/** The loops over `REPLY_KINDS`. */
export const REPLY_KIND_LOOPS = kindLoops(REPLY_KINDS);
