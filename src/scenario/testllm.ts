/**
 * The TestLLM scenario format (contract section 3, "Seed format"): a document with `id` and `turns` loads
 * unchanged and means what it meant in that harness. Validated strictly (issue paths point into the document as
 * written), then converted to a native Scenario:
 *  - each turn becomes a turn-pinned step `turn-{n}` (`match.turn`, `consume: false`), so a retried or repeated
 *    turn keeps answering;
 *  - `expected*` fields become expectations; `failuresBeforeSuccess` × the failure the `failure*` fields describe;
 *  - `tool-call` / `final-report` / `text` responses become text, tool calls and reasoning;
 *  - `onMismatch` defaults to "report", titled `# Test Harness Error` (a validation failed) or `# Scenario Failure`
 *    (no step for the turn), as the harness answered.
 */
import { z } from "zod";
import { lazily } from "../util/memo";
import { FINAL_REPORT_TOOL } from "./engine";
import { NameSchema, ScenarioSchema, type Failure, type Scenario, type ScenarioResponse, type Step } from "./schema";

export const TESTLLM_FAILURE_STATUSES = ["timeout", "invalid_response", "network_error", "rate_limit", "model_error"] as const;

/** Report titles the harness used: a validation failed / no step for the turn. */
export const TESTLLM_REPORT_TITLES = { expectations: "# Test Harness Error", noStep: "# Scenario Failure" } as const;

/**
 * The format's schemas, built when the first TestLLM document is read (util/memo.ts `lazily`): a start that loads
 * none pays for none of them.
 */
export const testLlmSchemas = lazily(() => {
  /** AI SDK provider metadata: `{ anthropic: { signature, redactedData }, … }`. */
  const ProviderMetadataSchema = z.record(z.string(), z.record(z.string(), z.unknown()));

  /** An AI SDK `ReasoningOutput`. */
  const ReasoningOutputSchema = z.strictObject({
    type: z.literal("reasoning").optional(),
    text: z.string(),
    providerMetadata: ProviderMetadataSchema.optional(),
  });

  const count = z.number().int().min(0).optional();
  const TokenUsageSchema = z.strictObject({
    inputTokens: count,
    outputTokens: count,
    totalTokens: count,
    cachedTokens: count,
    cachedInputTokens: count,
    cacheReadInputTokens: count,
    cacheWriteInputTokens: count,
    reasoningTokens: count,
  });

  /** Fields every response kind takes besides its own. */
  const responseBase = {
    assistantText: z.string().optional(),
    tokenUsage: TokenUsageSchema.optional(),
    reasoning: z.array(ReasoningOutputSchema).optional(),
    reasoningContent: z.union([z.string(), ReasoningOutputSchema, z.array(z.union([z.string(), ReasoningOutputSchema]))]).optional(),
    /** Turn metadata for accounting (`actualProvider`, costs, …): accepted, nothing on the wire carries it. */
    providerMetadata: z.record(z.string(), z.unknown()).optional(),
    finishReason: z.string().optional(),
  };

  const TestLlmToolCallSchema = z.strictObject({
    toolName: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()),
    callId: z.string().min(1).optional(),
    assistantText: z.string().optional(),
  });

  const TestLlmResponseSchema = z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("tool-call"), ...responseBase, toolCalls: z.array(TestLlmToolCallSchema) }),
    z.strictObject({
      kind: z.literal("final-report"),
      ...responseBase,
      reportContent: z.string(),
      reportFormat: z.string(),
      status: z.enum(["success", "failure"]).optional(),
      reportContentJson: z.record(z.string(), z.unknown()).optional(),
      /** slack-block-kit: sent as `messages` instead of `report_content` / `content_json`. */
      reportMessages: z.array(z.unknown()).optional(),
    }),
    z.strictObject({ kind: z.literal("text"), ...responseBase, assistantText: z.string() }),
  ]);

  const TestLlmTurnSchema = z.strictObject({
    turn: z.number().int().min(1),
    response: TestLlmResponseSchema,
    expectedTools: z.array(z.string()).optional(),
    allowMissingTools: z.boolean().optional(),
    expectedTemperature: z.number().optional(),
    expectedTopP: z.number().optional(),
    expectedReasoning: z.enum(["enabled", "disabled"]).optional(),
    failuresBeforeSuccess: z.number().int().min(0).optional(),
    failureThrows: z.boolean().optional(),
    failureStatus: z.enum(TESTLLM_FAILURE_STATUSES).optional(),
    failureMessage: z.string().optional(),
    failureRetryable: z.boolean().optional(),
    failureRetryAfterMs: z.number().min(0).optional(),
    /** With `failureThrows`: the thrown error's fields (`message`, `statusCode`, `isRetryable`, …). */
    failureError: z.record(z.string(), z.unknown()).optional(),
  });

  const TestLlmObjectSchema = z
    .strictObject({
      $schema: z.string().optional(),
      id: NameSchema,
      description: z.string().optional(),
      systemPromptMustInclude: z.array(z.string()).optional(),
      /** Not in the harness (it always reported); "error" answers mismatches with HTTP 400 instead. */
      onMismatch: z.enum(["error", "report"]).optional(),
      turns: z.array(TestLlmTurnSchema),
    })
    .superRefine((doc, ctx) => {
      const seen = new Map<number, number>();
      doc.turns.forEach((t, i) => {
        const prev = seen.get(t.turn);
        if (prev !== undefined) {
          ctx.addIssue({ code: "custom", path: ["turns", i, "turn"], message: `duplicate turn ${t.turn} (also turns[${prev}])` });
        }
        seen.set(t.turn, i);
      });
    });

  /**
   * The TestLLM format, validated and converted to a native Scenario.
   * @example testLlmSchemas().TestLlmScenarioSchema.parse({ id: "run-test-1", turns: [{ turn: 1, response: { kind: "text", assistantText: "hi" } }] })
   */
  const TestLlmScenarioSchema = TestLlmObjectSchema.transform((doc, ctx): Scenario => {
    // Without zod's generated parsers, as the document itself is validated (document.ts): once per version.
    const checked = ScenarioSchema.safeParse(testLlmToScenario(doc), { jitless: true });
    if (checked.success) return checked.data;
    // Not reachable for a valid TestLLM document; reported rather than thrown if the conversion ever drifts.
    for (const issue of checked.error.issues) {
      ctx.addIssue({ code: "custom", path: issue.path, message: `converted scenario: ${issue.message}` });
    }
    return z.NEVER;
  });
  return { ReasoningOutputSchema, TestLlmResponseSchema, TestLlmTurnSchema, TestLlmObjectSchema, TestLlmScenarioSchema };
});
type TestLlmSchemas = ReturnType<typeof testLlmSchemas>;
type ReasoningOutput = z.output<TestLlmSchemas["ReasoningOutputSchema"]>;
type TestLlmResponse = z.output<TestLlmSchemas["TestLlmResponseSchema"]>;
type TestLlmTurn = z.output<TestLlmSchemas["TestLlmTurnSchema"]>;
export type TestLlmScenario = z.output<TestLlmSchemas["TestLlmObjectSchema"]>;

/** Whether `input` is in the TestLLM format: an object with both `id` and `turns`. */
export function isTestLlmDocument(input: unknown): boolean {
  return typeof input === "object" && input !== null && !Array.isArray(input) && "id" in input && "turns" in input;
}

/** The native scenario a validated TestLLM document means. */
export function testLlmToScenario(doc: TestLlmScenario): Scenario {
  return {
    name: doc.id,
    ...(doc.description !== undefined ? { description: doc.description } : {}),
    ...(doc.systemPromptMustInclude !== undefined ? { systemPromptMustInclude: doc.systemPromptMustInclude } : {}),
    onMismatch: doc.onMismatch ?? "report",
    reportTitles: { ...TESTLLM_REPORT_TITLES },
    steps: doc.turns.map(turnToStep),
  };
}

function turnToStep(t: TestLlmTurn): Step {
  const expect: NonNullable<Step["expect"]> = {};
  // The harness skipped the tool check for final reports and under allowMissingTools.
  const tools = t.expectedTools ?? [];
  if (tools.length > 0 && t.allowMissingTools !== true && t.response.kind !== "final-report") expect.tools = tools;
  if (t.expectedTemperature !== undefined) expect.temperature = t.expectedTemperature;
  if (t.expectedTopP !== undefined) expect.topP = t.expectedTopP;
  if (t.expectedReasoning !== undefined) expect.reasoning = t.expectedReasoning;
  const n = t.failuresBeforeSuccess ?? 0;
  return {
    id: `turn-${t.turn}`,
    match: { turn: t.turn },
    ...(Object.keys(expect).length > 0 ? { expect } : {}),
    consume: false,
    ...(n > 0 ? { failures: Array.from({ length: n }, () => turnFailure(t)) } : {}),
    respond: toResponse(t.response),
  };
}

/**
 * The failure a turn's `failure*` fields describe. `failureThrows` (a thrown provider error) is a model error, or an
 * HTTP error with the status its `failureError.statusCode` / `status` names; otherwise `failureStatus` (default
 * model_error) names the native kind. `failureError` only counts with `failureThrows`, as in the harness.
 */
export function turnFailure(t: TestLlmTurn): Failure {
  const thrown = t.failureThrows === true ? t.failureError : undefined;
  const thrownMessage = typeof thrown?.message === "string" ? thrown.message : undefined;
  const message = thrownMessage ?? t.failureMessage;
  const thrownRetryable = typeof thrown?.isRetryable === "boolean" ? thrown.isRetryable : undefined;
  const retryable = thrownRetryable ?? t.failureRetryable;
  const common = {
    ...(message !== undefined ? { message } : {}),
    ...(retryable !== undefined ? { retryable } : {}),
    ...(t.failureRetryAfterMs !== undefined ? { retryAfterMs: t.failureRetryAfterMs } : {}),
  };
  if (t.failureThrows === true) {
    const status = [thrown?.statusCode, thrown?.status].find((s): s is number => typeof s === "number");
    if (status !== undefined && Number.isInteger(status) && status >= 100 && status <= 599) {
      const body = { error: { message: message ?? "Simulated failure", type: "api_error" } };
      return { kind: "http", status, body, ...common };
    }
    return { kind: "model_error", ...common };
  }
  return { kind: t.failureStatus ?? "model_error", ...common };
}

/** AI SDK finish reasons → native; `error`, `other`, `unknown` leave it derived from the content. */
const FINISH: Record<string, NonNullable<ScenarioResponse["finishReason"]>> = {
  stop: "stop",
  length: "length",
  "tool-calls": "tool_calls",
  "content-filter": "content_filter",
  refusal: "content_filter",
};

/** `o` without its undefined fields. */
function compact<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

function nonBlank(s: string | undefined): s is string {
  return s !== undefined && s.trim().length > 0;
}

/** Reasoning segments, trimmed and without empty ones; Anthropic signatures and redacted data kept. */
type ReasoningBlock = NonNullable<Exclude<ScenarioResponse["reasoning"], string>>[number];

function reasoningBlocks(r: TestLlmResponse): ReasoningBlock[] {
  const entries: (string | ReasoningOutput)[] = [...(r.reasoning ?? [])];
  const raw = r.reasoningContent;
  if (raw !== undefined) entries.push(...(Array.isArray(raw) ? raw : [raw]));
  return entries.flatMap((e): ReasoningBlock[] => {
    const text = (typeof e === "string" ? e : e.text).trim();
    const anthropic = typeof e === "string" ? undefined : e.providerMetadata?.anthropic;
    const redacted = typeof anthropic?.redactedData === "string" ? anthropic.redactedData.trim() : "";
    if (redacted !== "") return [{ redacted }];
    if (text === "") return [];
    const signature = typeof anthropic?.signature === "string" ? anthropic.signature.trim() : "";
    return [{ text, ...(signature !== "" ? { signature } : {}) }];
  });
}

/** The `agent__final_report` arguments the harness sent. */
function finalReportArguments(r: Extract<TestLlmResponse, { kind: "final-report" }>): Record<string, unknown> {
  return {
    status: r.status ?? "success",
    report_format: r.reportFormat,
    ...(r.reportMessages !== undefined
      ? { messages: r.reportMessages }
      : {
          report_content: r.reportContent,
          ...(r.reportContentJson !== undefined ? { content_json: r.reportContentJson } : {}),
        }),
  };
}

/**
 * A TestLLM response as a native one. Texts (the response's `assistantText`, then each call's) are joined with a blank
 * line; tool calls keep `callId` (default `call-{n}`); a final report is the `agent__final_report` call with id
 * `agent-final-report`; usage defaults to 64 in / 32 out.
 */
export function toResponse(r: TestLlmResponse): ScenarioResponse {
  const texts = [r.assistantText];
  const toolCalls: NonNullable<ScenarioResponse["toolCalls"]> = [];
  if (r.kind === "tool-call") {
    r.toolCalls.forEach((call, i) => {
      texts.push(call.assistantText);
      toolCalls.push({ id: call.callId ?? `call-${i + 1}`, name: call.toolName, arguments: call.arguments });
    });
  }
  if (r.kind === "final-report") {
    toolCalls.push({ id: "agent-final-report", name: FINAL_REPORT_TOOL, arguments: finalReportArguments(r) });
  }
  const text = texts.filter(nonBlank).join("\n\n");
  const reasoning = reasoningBlocks(r);
  const finishReason = r.finishReason !== undefined ? FINISH[r.finishReason] : undefined;
  const u = r.tokenUsage;
  const usage = compact({
    inputTokens: u?.inputTokens,
    outputTokens: u?.outputTokens,
    reasoningTokens: u?.reasoningTokens,
    cacheReadTokens: u?.cacheReadInputTokens ?? u?.cachedInputTokens ?? u?.cachedTokens,
    cacheWriteTokens: u?.cacheWriteInputTokens,
  });
  return {
    ...(text !== "" ? { text } : {}),
    ...(reasoning.length > 0 ? { reasoning } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(finishReason !== undefined ? { finishReason } : {}),
    ...(Object.keys(usage).length > 0 ? { usage } : {}),
  };
}
