/**
 * The scenario document (contract section 3): the single source of truth for what users write.
 * Strict objects throughout, so a typo fails loudly with its JSON path.
 */
import { z } from "zod";
import { ENDPOINTS, PROVIDERS } from "../canonical/request";
import { SAFETY_CATEGORIES } from "../canonical/safety-categories";
import { PricesSchema, ScenarioExpectSchema } from "./budget-schema";
import { ChaosSchema } from "./chaos-schema";
import { LimitsSchema } from "./limits-schema";
import { McpSchema } from "./mcp-schema";
import { kindFields, MESSAGE_KINDS, OTHER_KINDS } from "./reply-kinds";
import { SERVER_TOOL_KINDS } from "./server-tools-schema";
import { StringMatchSchema } from "./string-match";
import { OutputSchemaMatchSchema } from "./structured";
import { templateIssues, VARIABLE_NAME } from "./templates";

import { NAME_PATTERN, NAME_RULE } from "./names";

export { NAME_PATTERN, NAME_RULE, NAMES_MATCH } from "./names";
/** Session names that would make a `/s/{scenario}/{session}/…` prefix ambiguous. */
export const RESERVED_SESSIONS = ["v1", "v1beta", "api"] as const;

export const NameSchema = z.string().regex(NAME_PATTERN, `must match ${NAME_RULE}`);

export { StringMatchSchema, type StringMatch } from "./string-match";

const ProviderSchema = z.enum(PROVIDERS);

export const MatcherSchema = z.strictObject({
  provider: z
    .union([ProviderSchema, z.array(ProviderSchema).min(1)])
    .optional()
    .describe(`The provider the request speaks (${PROVIDERS.map((p) => `\`${p}\``).join(", ")}), or any of a list.`),
  endpoint: z
    .union([z.enum(ENDPOINTS), z.array(z.enum(ENDPOINTS)).min(1)])
    .optional()
    .describe(
      "The endpoint (`chat.completions`, `responses`, `embeddings`, `messages`, `generateContent`, `converse`, `moderations`, `images`, `speech`, `transcriptions`, `rerank`, …), or any of a list.",
    ),
  model: StringMatchSchema.optional().describe("The request's model (Azure: the body's model, else the deployment name)."),
  stream: z.boolean().optional().describe("The request streams (true) or not (false)."),
  turn: z.number().int().min(1).optional().describe("The request's turn: the number of assistant messages in it, plus one."),
  firstUserMessage: StringMatchSchema.optional().describe("The text of the first user message."),
  lastUserMessage: StringMatchSchema.optional().describe("The text of the last user message."),
  system: StringMatchSchema.optional().describe("All system, developer and instructions text, joined with a blank line."),
  toolResult: z
    .strictObject({
      name: StringMatchSchema.optional().describe("The result's tool name."),
      toolCallId: StringMatchSchema.optional().describe("The result's tool-call id."),
      content: StringMatchSchema.optional().describe("The result's content."),
    })
    .optional()
    .describe("A tool result sent after the last assistant turn (`{}` = any result)."),
  tools: z.array(z.string()).optional().describe("These tool names are all offered."),
  headers: z.record(z.string(), StringMatchSchema).optional().describe("Request headers (names case-insensitive), each value matched."),
  assistantMessage: StringMatchSchema.optional().describe("Any assistant message earlier in the conversation has text matching this."),
  toolCall: z
    .strictObject({
      name: StringMatchSchema.optional().describe("The call's tool name."),
      arguments: z.record(z.string(), z.unknown()).optional().describe("A subset of the call's arguments."),
    })
    .optional()
    .describe(
      "A tool call an assistant made earlier in the conversation: `name`, and `arguments` as a subset of its arguments object (each value a JSON value compared exactly, nested objects as subsets, or a StringMatch object).",
    ),
  compacted: z.boolean().optional().describe("The request carries (true) or does not carry (false) a compaction item/block (contract section 10)."),
  customId: StringMatchSchema.optional().describe("A batch line's `custom_id` (contract section 11); a live call has none, so it never matches one."),
  outputSchema: OutputSchemaMatchSchema.optional().describe(
    "The request asks (true) or does not ask (false) for structured output (`response_format`, `text.format`, `output_config.format`, `responseSchema`, Ollama `format`, …), or `{ name }`: the schema's name where the wire carries one (contract section 11).",
  ),
  serverTool: z
    .union([z.enum(SERVER_TOOL_KINDS), z.array(z.enum(SERVER_TOOL_KINDS)).min(1)])
    .optional()
    .describe("The request offers this server-side tool (`web_search`, `web_fetch`, `code_execution`, `file_search`, `image_generation`, `mcp`), or any of a list (contract section 11)."),
});
export type Matcher = z.output<typeof MatcherSchema>;

/** Agent CLIs whose housekeeping calls `sideCalls.preset` knows (src/scenario/side-calls.ts). */
export const SIDE_CALL_PRESETS = ["gemini", "opencode", "qwen", "claude"] as const;
/** Housekeeping calls answered without spending a step (journal outcome `side_call`; contract section 10). */
export const SideCallsSchema = z.strictObject({
  preset: z.array(z.enum(SIDE_CALL_PRESETS)).optional().describe("The side calls of these CLIs (Gemini CLI's router, opencode's title, Qwen Code's memory extraction, …)."),
  match: z.array(MatcherSchema).optional().describe('Requests matching any of these are side calls too, answered with the text "ok".'),
});
export type SideCalls = z.output<typeof SideCallsSchema>;

export const ExpectationsSchema = z.strictObject({
  tools: z.array(z.string()).optional().describe("These tools must be offered (names starting `agent__` exempt)."),
  allowMissingTools: z.boolean().optional().describe("Missing `tools` do not make a mismatch."),
  temperature: z.number().optional().describe("The request's temperature (within 1e-6)."),
  topP: z.number().optional().describe("The request's top_p (within 1e-6)."),
  reasoning: z.enum(["enabled", "disabled"]).optional().describe("Whether the request asks for reasoning (OpenAI `reasoning_effort`/`reasoning`, Anthropic `thinking`, …)."),
  systemPromptMustInclude: z.array(z.string()).optional().describe("The system text must contain each of these."),
  model: StringMatchSchema.optional().describe("The request's model."),
  maxTokens: z.number().int().optional().describe("The request's output-token limit."),
});
export type Expectations = z.output<typeof ExpectationsSchema>;

/**
 * Headers a scenario adds to its answers: each name an HTTP token and each value printable ASCII (tabs too), since
 * a header is bytes — other text was a 500 on every answer (Node refuses it; workerd warns or refuses).
 */
const ResponseHeadersSchema = z.record(
  z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "a header name is letters, digits and !#$%&'*+-.^_`|~ only"),
  z.string().regex(/^[\t\x20-\x7e]*$/, "a header value is printable ASCII: percent-encode other text"),
);

/** Fields every failure kind takes. */
const failureBase = {
  message: z.string().optional().describe("The error message (default: the provider's own wording for the kind)."),
  retryAfterMs: z.number().min(0).optional().describe("Sent as `retry-after-ms` and, rounded up to seconds, `retry-after`; default 0 (SDK retries are instant)."),
  retryable: z
    .boolean()
    .optional()
    .describe("Sent as `x-should-retry`, which the official SDKs obey (also on a broken 200: `@anthropic-ai/sdk` 1.17+ sends a cut JSON body again unless it is false)."),
  headers: ResponseHeadersSchema.optional().describe("Extra response headers."),
};
const afterChunks = z.number().int().min(0).optional().describe("Events (SSE `data:` chunks, NDJSON lines, event-stream messages) sent before the failure; default 0.");

export const FailureSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("rate_limit"), ...failureBase }),
  z.strictObject({ kind: z.literal("overloaded"), ...failureBase }),
  z.strictObject({ kind: z.literal("model_error"), ...failureBase }),
  z.strictObject({
    kind: z.literal("timeout"),
    ...failureBase,
    delayMs: z.number().int().min(0).optional().describe("No byte for this long, then the response. Default 600000 (the SDKs' default timeout)."),
  }),
  z.strictObject({ kind: z.literal("network_error"), ...failureBase, afterChunks }),
  z.strictObject({ kind: z.literal("invalid_response"), ...failureBase, afterChunks }),
  z.strictObject({
    kind: z.literal("stream_error"),
    ...failureBase,
    afterChunks,
    errorType: z.string().optional().describe("Anthropic `error.type` of the error event; default `overloaded_error`. OpenAI: `error.type`."),
  }),
  z.strictObject({
    kind: z.literal("content_filter"),
    ...failureBase,
    on: z
      .enum(["prompt", "completion"])
      .describe(
        'Where the provider\'s safety system stops the turn: `prompt` blocks it before any output (OpenAI a refusal, Anthropic `stop_reason: "refusal"` with no content, Gemini `promptFeedback.blockReason`, Bedrock `guardrail_intervened`); `completion` stops the answer after `afterChunks` text chunks with the provider\'s filter finish reason (OpenAI `content_filter`, Anthropic `refusal`, Gemini `SAFETY`, Bedrock `guardrail_intervened`; Ollama has none: its text just stops, `done_reason: "stop"`). `message` is the refusal text (OpenAI), `stop_details.explanation` (Anthropic), `blockReasonMessage` / `finishMessage` (Gemini) or the guardrail\'s blocked message (Bedrock).',
      ),
    /** `on: "completion"`: text chunks (of `stream.chunkWords` words) answered before the filter stops it; default 0. */
    afterChunks,
    categories: z
      .array(z.enum(SAFETY_CATEGORIES))
      .min(1)
      .optional()
      .describe(
        'What the filter flagged, in neutral names mapped per provider: `hate`, `sexual`, `violence`, `self_harm`, `harassment`, `dangerous`, `jailbreak` (Gemini `HARM_CATEGORY_HATE_SPEECH`, `…_SEXUALLY_EXPLICIT`, `…_DANGEROUS_CONTENT` for violence, self_harm and dangerous, `…_HARASSMENT`, `…_JAILBREAK`; Bedrock `HATE`, `SEXUAL`, `VIOLENCE` for violence and self_harm, `INSULTS` for harassment, `MISCONDUCT` for dangerous, `PROMPT_ATTACK` for jailbreak). Default `["dangerous"]`.',
      ),
  }),
  z.strictObject({
    kind: z.literal("http"),
    ...failureBase,
    status: z.number().int().min(100).max(599).describe("The HTTP status to answer."),
    body: z.unknown().optional().describe("Sent verbatim: a string as-is, anything else as JSON."),
  }),
]);
export type Failure = z.output<typeof FailureSchema>;
export type FailureKind = Failure["kind"];

export const StreamOptionsSchema = z.strictObject({
  ttftMs: z.number().min(0).optional().describe("Delay before the first content event, after headers."),
  tokensPerSecond: z.number().min(0).optional().describe("Words per second for content events; 0 = no pacing."),
  chunkDelayMs: z.number().min(0).optional().describe("Fixed delay between events."),
  chunkWords: z.number().int().min(1).optional().describe("Words of text per content event."),
  jitterMs: z.number().min(0).optional().describe("Up to this many ms added to each delay, from a PRNG seeded with `seed`."),
  seed: z.number().int().optional().describe("Seed of the jitter's PRNG (default 0): the same seed, the same delays."),
});
export type StreamOptions = z.output<typeof StreamOptionsSchema>;

export const UsageSchema = z.strictObject({
  inputTokens: z.number().int().min(0).optional().describe("Prompt tokens reported (default 64)."),
  outputTokens: z.number().int().min(0).optional().describe("Completion tokens reported (default 32; a reply cut by the request's limit reports the words sent)."),
  cacheReadTokens: z.number().int().min(0).optional().describe("Cached prompt tokens read (OpenAI `cached_tokens`, Anthropic `cache_read_input_tokens`, …); default 0."),
  cacheWriteTokens: z.number().int().min(0).optional().describe("Prompt tokens written to the cache (Anthropic `cache_creation_input_tokens`, OpenAI Responses `cache_write_tokens`, …); default 0."),
  reasoningTokens: z.number().int().min(0).optional().describe("Reasoning tokens (OpenAI `reasoning_tokens`, Gemini `thoughtsTokenCount`, …); default 0."),
});
export type Usage = z.output<typeof UsageSchema>;

export { ReasoningBlockSchema, ToolCallSchema } from "./message-schema";
export { FrameSchema, FramesSchema, TimingSchema, type RecordedFrames, type Timing } from "./frames-schema";

/** A step's answer: the message's reply kinds, the reply's own options, then the other kinds (the table: src/scenario/reply-kinds.ts). */
export const ResponseSchema = z.strictObject({
  ...kindFields(MESSAGE_KINDS),
  finishReason: z
    .enum(["stop", "length", "tool_calls", "content_filter"])
    .optional()
    .describe("The finish reason (default: `tool_calls` with tool calls, `length` when the request's token limit cut the reply, else `stop`); sent as written, never cut."),
  stopSequences: z
    .literal("ignore")
    .optional()
    .describe(
      '`"ignore"` sends the text whole even when it holds one of the request\'s stop sequences (OpenAI `stop`, Anthropic `stop_sequences`, Gemini `stopSequences`, Bedrock `inferenceConfig.stopSequences`, Ollama `options.stop`). Without it the text ends before the first stop sequence, with the provider\'s stop-sequence finish (Anthropic `stop_reason: "stop_sequence"`).',
    ),
  usage: UsageSchema.optional().describe("Token usage reported (merged over `defaults.usage`)."),
  model: z.string().optional().describe("The model reported (default: the request's, a well-known alias as its dated snapshot)."),
  latencyMs: z.number().min(0).optional().describe("Delay before the first byte, counted from the request's arrival."),
  stream: StreamOptionsSchema.optional().describe("Stream pacing (merged over `defaults.stream`)."),
  headers: ResponseHeadersSchema.optional().describe("Extra response headers."),
  ...kindFields(OTHER_KINDS),
});
export type ScenarioResponse = z.output<typeof ResponseSchema>;

export const StepSchema = z.strictObject({
  id: z.string().min(1).optional().describe("The step's id in the journal, verify and coverage (default `step-{n}`, 1-based)."),
  match: MatcherSchema.optional().describe("When this step answers: every condition must hold (absent = any request)."),
  expect: ExpectationsSchema.optional().describe("What a matched request must also satisfy; a request that does not is a mismatch, reported, not skipped."),
  consume: z.boolean().optional().describe("Whether answering uses the step up (default true); false answers every time."),
  failures: z.array(FailureSchema).optional().describe("Failures answered, in order, on the attempts before the response (counted per session, step and provider)."),
  respond: ResponseSchema.optional().describe("The answer."),
  schemaCheck: z
    .boolean()
    .optional()
    .describe("Whether a `json` or `text` answer to a request with a strict schema is checked against it (default true; false to send deliberately malformed output)."),
});
export type Step = z.output<typeof StepSchema>;

const UpstreamUrlSchema = z.string().regex(/^https?:\/\/[^/\s]+(\/\S*)?$/, "must be an http(s) URL");

/** Requests no step answers are proxied to the provider's upstream and recorded (contract section 8). */
export const RecordSchema = z.strictObject({
  upstream: z
    .strictObject({
      openai: UpstreamUrlSchema.optional().describe("e.g. `https://api.openai.com`."),
      anthropic: UpstreamUrlSchema.optional().describe("e.g. `https://api.anthropic.com`."),
      gemini: UpstreamUrlSchema.optional().describe("e.g. `https://generativelanguage.googleapis.com`."),
      ollama: UpstreamUrlSchema.optional().describe("e.g. `http://localhost:11434`."),
      cohere: UpstreamUrlSchema.optional().describe("e.g. `https://api.cohere.com`."),
    })
    .describe("The upstream base URL per provider."),
});
export type RecordSettings = z.output<typeof RecordSchema>;

export const ScenarioSchema = z
  .strictObject({
    $schema: z.string().optional().describe("A JSON Schema reference for editors (`./scenario.schema.json`); ignored."),
    name: NameSchema.describe("The scenario's name: `[a-z0-9][a-z0-9._-]{0,63}`, equal to the name in the upload's URL."),
    description: z.string().optional().describe("What the scenario scripts, for people."),
    priority: z.number().optional().describe("Auto-selection order among scenarios whose `match` holds (higher first)."),
    match: MatcherSchema.optional().describe("Makes the scenario auto-selected for requests that name none (contract section 2, rule 4)."),
    systemPromptMustInclude: z.array(z.string()).optional().describe("Every request's system text must contain each of these, else a mismatch."),
    onMismatch: z.enum(["error", "report"]).optional().describe("A request no step answers: `error` (default, a 400 in the provider's shape) or `report` (a 200 carrying a final report)."),
    reportTitles: z
      .strictObject({
        noStep: z.string().optional().describe("The first line of the report when no step answers (default `# Scenario Failure`)."),
        expectations: z.string().optional().describe("The first line of the report when a step's expectations fail (default `# Scenario Failure`)."),
      })
      .optional()
      .describe("`onMismatch: \"report\"`: the report's first line when no step answers / when a step's expectations fail."),
    strict: z
      .boolean()
      .optional()
      .describe(
        "Enforce the real APIs' checks that need no state of mockllm's own (Anthropic thinking signatures echoed back, Gemini thought signatures, the schemas OpenAI strict mode and Gemini's `responseSchema` and function declarations refuse, a Bedrock Converse conversation's shape, tool results (Anthropic), tool messages and outputs (OpenAI) and function responses (Gemini) that answer no call or leave one unanswered, empty or whitespace text (Anthropic), and the refusals of docs/providers/fidelity.md: `stream_options` without `stream`, `max_tokens` on reasoning models, a forced tool choice without tools, `temperature` with `top_p` on Claude 4.5+, thinking with a forced tool). Default true; `false` answers such requests, as does a recording scenario (its upstream answers them).",
      ),
    defaults: z
      .strictObject({
        usage: UsageSchema.optional().describe("Usage for every answer."),
        stream: StreamOptionsSchema.optional().describe("Pacing for every stream."),
        latencyMs: z.number().min(0).optional().describe("Latency for every answer."),
      })
      .optional()
      .describe("Defaults for every step's `respond` (a step's own fields win; `usage` and `stream` merge)."),
    variables: z
      .record(z.string().regex(VARIABLE_NAME, "variable names are letters, digits and _, not starting with a digit"), z.unknown())
      .optional()
      .describe("Values response strings can use as `{{vars.name}}` (names: letters, digits, `_`)."),
    record: RecordSchema.optional().describe("Recording proxy: upstream base URLs per provider."),
    steps: z.array(StepSchema).describe("The script: the first unused step whose `match` holds answers (may be empty: a recording scenario needs none)."),
    mcp: McpSchema.optional().describe("The session's scripted MCP server at `/s/{scenario}/{session}/mcp` (contract section 9)."),
    sideCalls: SideCallsSchema.optional().describe("Agent CLIs' housekeeping calls, answered before any step is tried and without spending one."),
    async: z
      .strictObject({
        processingMs: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe("Milliseconds from creation until an asynchronous object (a batch, a background response) is done; default 0: done by the first retrieve after creation."),
      })
      .optional()
      .describe("Objects that complete later (background responses, batches, vector-store files): when they are done (contract section 11)."),
    chaos: ChaosSchema.optional().describe(
      "Seeded faults: each request that a step would answer draws from a generator seeded by (seed, scenario, session, request number); journal outcome `chaos`; the step stays for the retry.",
    ),
    expect: ScenarioExpectSchema.optional().describe("What each session as a whole must satisfy: `budget` (tokens, cost, requests), checked by verify."),
    prices: PricesSchema.optional(),
    limits: LimitsSchema.optional(),
    usage: z
      .enum(["fixed", "count"])
      .optional()
      .describe("`count`: usage a step does not script is counted, on surfaces that can (OpenAI and Azure with the model's tokenizer: docs/reference/usage.md); `fixed` (default): 64 in, 32 out."),
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
