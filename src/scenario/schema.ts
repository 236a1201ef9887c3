/**
 * The scenario document (contract section 3): the single source of truth for what users write.
 * Strict objects throughout, so a typo fails loudly with its JSON path.
 */
import { z } from "zod";
import { ENDPOINTS, PROVIDERS } from "../canonical/request";
import { SAFETY_CATEGORIES } from "../canonical/safety-categories";
import { McpSchema } from "./mcp-schema";
import { ImageReplySchema, ModerationReplySchema, RerankReplySchema, SpeechReplySchema, TranscriptReplySchema } from "./surface-replies";
import { StringMatchSchema } from "./string-match";
import { templateIssues, VARIABLE_NAME } from "./templates";

export const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** What NAME_PATTERN allows, as every message about a bad name states it: `[a-z0-9][a-z0-9._-]{0,63}`. */
export const NAME_RULE = NAME_PATTERN.source.slice(1, -1);
/** The end of every "invalid … name" message, server and client alike (written here only: test/unit/name-rule.test.ts). */
export const NAMES_MATCH = `names match ${NAME_RULE}`;
/** Session names that would make a `/s/{scenario}/{session}/…` prefix ambiguous. */
export const RESERVED_SESSIONS = ["v1", "v1beta", "api"] as const;

export const NameSchema = z
  .string()
  .regex(NAME_PATTERN, `must match ${NAME_RULE}`);

export { StringMatchSchema, type StringMatch } from "./string-match";

const ProviderSchema = z.enum(PROVIDERS);

export const MatcherSchema = z.strictObject({
  provider: z.union([ProviderSchema, z.array(ProviderSchema).min(1)]).optional(),
  endpoint: z.union([z.enum(ENDPOINTS), z.array(z.enum(ENDPOINTS)).min(1)]).optional(),
  model: StringMatchSchema.optional(),
  stream: z.boolean().optional(),
  turn: z.number().int().min(1).optional(),
  firstUserMessage: StringMatchSchema.optional(),
  lastUserMessage: StringMatchSchema.optional(),
  system: StringMatchSchema.optional(),
  toolResult: z
    .strictObject({
      name: StringMatchSchema.optional(),
      toolCallId: StringMatchSchema.optional(),
      content: StringMatchSchema.optional(),
    })
    .optional(),
  tools: z.array(z.string()).optional(),
  headers: z.record(z.string(), StringMatchSchema).optional(),
  /** Any assistant message earlier in the conversation has text matching this. */
  assistantMessage: StringMatchSchema.optional(),
  /**
   * A tool call an assistant made earlier in the conversation: `name`, and `arguments` as a subset of its arguments
   * object (each value a JSON value compared exactly, nested objects as subsets, or a StringMatch object).
   */
  toolCall: z
    .strictObject({
      name: StringMatchSchema.optional(),
      arguments: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  /** The request carries (true) or does not carry (false) a compaction item/block (contract section 10). */
  compacted: z.boolean().optional(),
});
export type Matcher = z.output<typeof MatcherSchema>;

/** Agent CLIs whose housekeeping calls `sideCalls.preset` knows (src/scenario/side-calls.ts). */
export const SIDE_CALL_PRESETS = ["gemini", "opencode", "qwen", "claude"] as const;
/** Housekeeping calls answered without spending a step (journal outcome `side_call`; contract section 10). */
export const SideCallsSchema = z.strictObject({
  /** The side calls of these CLIs (Gemini CLI's router, opencode's title, Qwen Code's memory extraction, …). */
  preset: z.array(z.enum(SIDE_CALL_PRESETS)).optional(),
  /** Requests matching any of these are side calls too, answered with the text "ok". */
  match: z.array(MatcherSchema).optional(),
});
export type SideCalls = z.output<typeof SideCallsSchema>;

export const ExpectationsSchema = z.strictObject({
  tools: z.array(z.string()).optional(),
  allowMissingTools: z.boolean().optional(),
  temperature: z.number().optional(),
  topP: z.number().optional(),
  reasoning: z.enum(["enabled", "disabled"]).optional(),
  systemPromptMustInclude: z.array(z.string()).optional(),
  model: StringMatchSchema.optional(),
  maxTokens: z.number().int().optional(),
});
export type Expectations = z.output<typeof ExpectationsSchema>;

const HeadersSchema = z.record(z.string(), z.string());

/** Fields every failure kind takes. */
const failureBase = {
  message: z.string().optional(),
  retryAfterMs: z.number().min(0).optional(),
  retryable: z.boolean().optional(),
  headers: HeadersSchema.optional(),
};
const afterChunks = z.number().int().min(0).optional();

export const FailureSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("rate_limit"), ...failureBase }),
  z.strictObject({ kind: z.literal("overloaded"), ...failureBase }),
  z.strictObject({ kind: z.literal("model_error"), ...failureBase }),
  z.strictObject({
    kind: z.literal("timeout"),
    ...failureBase,
    /** No byte for this long, then the response. Default 600000 (the SDKs' default timeout). */
    delayMs: z.number().int().min(0).optional(),
  }),
  z.strictObject({ kind: z.literal("network_error"), ...failureBase, afterChunks }),
  z.strictObject({ kind: z.literal("invalid_response"), ...failureBase, afterChunks }),
  z.strictObject({
    kind: z.literal("stream_error"),
    ...failureBase,
    afterChunks,
    /** Anthropic `error.type` of the error event; default `overloaded_error`. OpenAI: `error.type`. */
    errorType: z.string().optional(),
  }),
  z.strictObject({
    kind: z.literal("content_filter"),
    ...failureBase,
    /**
     * Where the provider's safety system stops the turn: `prompt` blocks it before any output (OpenAI a refusal,
     * Anthropic `stop_reason: "refusal"` with no content, Gemini `promptFeedback.blockReason`, Bedrock
     * `guardrail_intervened`); `completion` stops the answer after `afterChunks` text chunks with the provider's
     * filter finish reason (OpenAI `content_filter`, Anthropic `refusal`, Gemini `SAFETY`, Bedrock
     * `guardrail_intervened`; Ollama has none: its text just stops, `done_reason: "stop"`). `message` is the
     * refusal text (OpenAI), `stop_details.explanation` (Anthropic), `blockReasonMessage` / `finishMessage` (Gemini)
     * or the guardrail's blocked message (Bedrock).
     */
    on: z.enum(["prompt", "completion"]),
    /** `on: "completion"`: text chunks (of `stream.chunkWords` words) answered before the filter stops it; default 0. */
    afterChunks,
    /**
     * What the filter flagged, in neutral names mapped per provider: `hate`, `sexual`, `violence`, `self_harm`,
     * `harassment`, `dangerous`, `jailbreak` (Gemini `HARM_CATEGORY_HATE_SPEECH`, `…_SEXUALLY_EXPLICIT`,
     * `…_DANGEROUS_CONTENT` for violence, self_harm and dangerous, `…_HARASSMENT`, `…_JAILBREAK`; Bedrock `HATE`,
     * `SEXUAL`, `VIOLENCE` for violence and self_harm, `INSULTS` for harassment, `MISCONDUCT` for dangerous, `PROMPT_ATTACK` for jailbreak).
     * Default `["dangerous"]`.
     */
    categories: z.array(z.enum(SAFETY_CATEGORIES)).min(1).optional(),
  }),
  z.strictObject({
    kind: z.literal("http"),
    ...failureBase,
    status: z.number().int().min(100).max(599),
    /** Sent verbatim: a string as-is, anything else as JSON. */
    body: z.unknown().optional(),
  }),
]);
export type Failure = z.output<typeof FailureSchema>;
export type FailureKind = Failure["kind"];

export const StreamOptionsSchema = z.strictObject({
  /** Delay before the first content event, after headers. */
  ttftMs: z.number().min(0).optional(),
  /** Words per second for content events; 0 = no pacing. */
  tokensPerSecond: z.number().min(0).optional(),
  /** Fixed delay between events. */
  chunkDelayMs: z.number().min(0).optional(),
  /** Words of text per content event. */
  chunkWords: z.number().int().min(1).optional(),
  /** Up to this many ms added to each delay, from a PRNG seeded with `seed`. */
  jitterMs: z.number().min(0).optional(),
  seed: z.number().int().optional(),
});
export type StreamOptions = z.output<typeof StreamOptionsSchema>;

export const UsageSchema = z.strictObject({
  inputTokens: z.number().int().min(0).optional(),
  outputTokens: z.number().int().min(0).optional(),
  cacheReadTokens: z.number().int().min(0).optional(),
  cacheWriteTokens: z.number().int().min(0).optional(),
  reasoningTokens: z.number().int().min(0).optional(),
});
export type Usage = z.output<typeof UsageSchema>;

export const ReasoningBlockSchema = z.union([
  z.strictObject({ text: z.string(), signature: z.string().optional() }),
  z.strictObject({ redacted: z.string() }),
]);

export const ToolCallSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  /** An object (sent as JSON), or a raw string sent verbatim — even invalid JSON. */
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
});

/** One recorded frame: `at` ms after the request, `data` one SSE event (blank line included), NDJSON line or JSON body. */
export const FrameSchema = z.strictObject({ at: z.number().min(0), data: z.string() });

/** A recorded answer, replayed byte for byte (contract section 8, `respond.frames`). */
export const FramesSchema = z.strictObject({
  status: z.number().int().min(200).max(599),
  headers: HeadersSchema,
  frames: z.array(FrameSchema),
  /** The upstream broke off after these frames: the replay breaks the connection the same way. */
  truncated: z.boolean().optional(),
});
export type RecordedFrames = z.output<typeof FramesSchema>;

/** How a `frames` answer is paced: no delays (default), as recorded, or the recorded offsets divided by `speed`. */
export const TimingSchema = z.union([z.enum(["none", "recorded"]), z.strictObject({ speed: z.number().positive() })]);
export type Timing = z.output<typeof TimingSchema>;

export const ResponseSchema = z.strictObject({
  text: z.string().optional(),
  reasoning: z.union([z.string(), z.array(ReasoningBlockSchema)]).optional(),
  /** OpenAI Chat Completions field that carries reasoning text. */
  reasoningField: z.enum(["reasoning_content", "reasoning"]).optional(),
  toolCalls: z.array(ToolCallSchema).optional(),
  refusal: z.string().optional(),
  finishReason: z.enum(["stop", "length", "tool_calls", "content_filter"]).optional(),
  usage: UsageSchema.optional(),
  model: z.string().optional(),
  latencyMs: z.number().min(0).optional(),
  stream: StreamOptionsSchema.optional(),
  headers: HeadersSchema.optional(),
  /**
   * `POST /v1/embeddings`: the vector for each input, in order (`embeddings[i]` answers input `i`); inputs past
   * the end get the deterministic hash vector. Sent as given (float32 bytes when base64 is asked).
   */
  embeddings: z.array(z.array(z.number()).min(1)).min(1).optional(),
  /**
   * Answers the turn with the surface's compaction (OpenAI: a `compaction` item, and the `response.compaction` object
   * on `/v1/responses/compact`; Anthropic: a `compaction` block), before any `text` or `toolCalls`.
   */
  compaction: z.strictObject({ summary: z.string() }).optional(),
  /** `POST /v1/moderations` (contract section 10): the categories flagged. */
  moderation: ModerationReplySchema.optional(),
  /** `POST /v1/images/generations|edits|variations`: the picture's colour. */
  image: ImageReplySchema.optional(),
  /** `POST /v1/audio/speech`: the audio's length. */
  speech: SpeechReplySchema.optional(),
  /** `POST /v1/audio/transcriptions|translations`: the transcript. */
  transcript: TranscriptReplySchema.optional(),
  /** `POST /v2/rerank`, `/v1/rerank`: the documents' order or scores. */
  rerank: RerankReplySchema.optional(),
  /** A recorded answer: sent instead of one rendered from the fields above. */
  frames: FramesSchema.optional(),
  timing: TimingSchema.optional(),
});
export type ScenarioResponse = z.output<typeof ResponseSchema>;

export const StepSchema = z.strictObject({
  id: z.string().min(1).optional(),
  match: MatcherSchema.optional(),
  expect: ExpectationsSchema.optional(),
  consume: z.boolean().optional(),
  failures: z.array(FailureSchema).optional(),
  respond: ResponseSchema.optional(),
});
export type Step = z.output<typeof StepSchema>;

const UpstreamUrlSchema = z.string().regex(/^https?:\/\/[^/\s]+(\/\S*)?$/, "must be an http(s) URL");

/** Requests no step answers are proxied to the provider's upstream and recorded (contract section 8). */
export const RecordSchema = z.strictObject({
  upstream: z.strictObject({
    openai: UpstreamUrlSchema.optional(),
    anthropic: UpstreamUrlSchema.optional(),
    gemini: UpstreamUrlSchema.optional(),
    ollama: UpstreamUrlSchema.optional(),
  }),
});
export type RecordSettings = z.output<typeof RecordSchema>;

export const ScenarioSchema = z
  .strictObject({
    $schema: z.string().optional(),
    name: NameSchema,
    description: z.string().optional(),
    priority: z.number().optional(),
    match: MatcherSchema.optional(),
    systemPromptMustInclude: z.array(z.string()).optional(),
    onMismatch: z.enum(["error", "report"]).optional(),
    /** `onMismatch: "report"`: the report's first line when no step answers / when a step's expectations fail. */
    reportTitles: z.strictObject({ noStep: z.string().optional(), expectations: z.string().optional() }).optional(),
    /** Anthropic: enforce the real API's checks (thinking signatures echoed back). Default true. */
    strict: z.boolean().optional(),
    defaults: z
      .strictObject({
        usage: UsageSchema.optional(),
        stream: StreamOptionsSchema.optional(),
        latencyMs: z.number().min(0).optional(),
      })
      .optional(),
    /** Values response strings can use as `{{vars.name}}` (names: letters, digits, `_`). */
    variables: z.record(z.string().regex(VARIABLE_NAME, "variable names are letters, digits and _, not starting with a digit"), z.unknown()).optional(),
    /** Recording proxy: upstream base URLs per provider. */
    record: RecordSchema.optional(),
    /** May be empty (a recording scenario needs no steps). */
    steps: z.array(StepSchema),
    /** The session's scripted MCP server at `/s/{scenario}/{session}/mcp` (contract section 9). */
    mcp: McpSchema.optional(),
    /** Agent CLIs' housekeeping calls, answered before any step is tried and without spending one. */
    sideCalls: SideCallsSchema.optional(),
  })
  .superRefine((doc, ctx) => {
    for (const issue of templateIssues(doc)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    const seen = new Map<string, number>();
    doc.steps.forEach((step, i) => {
      const id = step.id ?? `step-${i + 1}`;
      const prev = seen.get(id);
      if (prev !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["steps", i, "id"],
          message: `duplicate step id "${id}" (also steps[${prev}])`,
        });
      }
      seen.set(id, i);
    });
  });
export type Scenario = z.output<typeof ScenarioSchema>;

/** Step id as the journal and session state show it. */
export function stepId(step: Step, index: number): string {
  return step.id ?? `step-${index + 1}`;
}
