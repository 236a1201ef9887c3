/**
 * Gemini's decisions (`POST /v1/decisions`, where `@google/genai`'s `ai.decisions.create` posts, also `/v1beta` and `/v1alpha`):
 * questions keyed by id — `noul` (true or false), `choice` among option ids, `score` on levels `0…n-1` — about one
 * input (a string or content blocks, as the Interactions API takes them), answered by id with calibrated
 * probabilities and `usage` as an interaction's. A step's `respond.decision` answers by question id; a refusal leaves
 * the question out of `answers`; a `content_filter` failure blocks the input (`prompt_feedback.block_reason`, no
 * answers). `/v1/decisions` is OpenAI's path too: a request there with Google's key is Gemini's (`claims`).
 */
import { z } from "zod";
import { decide, type CanonicalAnswer, type CanonicalQuestion } from "../../canonical/decisions";
import type { Reply } from "../../canonical/outcome";
import type { CanonicalRequest } from "../../canonical/request";
import { apiError, type ApiError } from "../../http/errors";
import { headerRecord } from "../../http/headers";
import { valueAt } from "../../http/json";
import { safeParseFast } from "../../util/fast-parse";
import { lazily } from "../../util/memo";
import { echoed } from "../../util/text";
import type { Failure } from "../../scenario/schema";
import type { ParseResult, ProviderSurface, RenderContext, SseEvent } from "../types";
import { checkGeminiAuth, GEMINI_FAILURE_MESSAGES, geminiFailureHeaders, renderGeminiError, renderGeminiLimited } from "./errors";
import { interactionUsage } from "./interactions/render";
import { blocksText, CONTENT_TYPES } from "./interactions/wire";

/** A choice's options and a score's levels: "between 2 and 255". */
const MIN_OPTIONS = 2;
const MAX_OPTIONS = 255;

const decisionsWire = lazily(() => {
  const Block = z.looseObject({ type: z.string().refine((t) => CONTENT_TYPES.has(t)), text: z.string().optional() });
  const TextBlock = z.looseObject({ type: z.literal("text"), text: z.string() });
  const Instructions = z.union([z.string(), TextBlock, z.array(TextBlock)]);
  const Question = z.discriminatedUnion("type", [
    z.looseObject({
      type: z.literal("noul"),
      instructions: Instructions,
      criteria: z.looseObject({ true_description: z.string().optional(), false_description: z.string().optional() }).optional(),
    }),
    z.looseObject({ type: z.literal("choice"), instructions: Instructions, criteria: z.record(z.string(), z.string()) }),
    z.looseObject({ type: z.literal("score"), instructions: Instructions, criteria: z.array(z.string()) }),
  ]);
  return z.looseObject({
    model: z.string(),
    input: z.union([z.string(), Block, z.array(Block)]),
    questions: z.record(z.string(), Question),
  });
});
type Body = z.output<ReturnType<typeof decisionsWire>>;
type Question = Body["questions"][string];

/** The parsed request: the questions (keyed by id, in the order sent; a score's options are its levels) and the input's text (the defaults' seed). */
export interface GeminiDecisionsWire {
  questions: CanonicalQuestion[];
  inputText: string;
}

const invalid = (message: string, param: string): ApiError => apiError("invalid_request", message, { param });

/** The first fault of a body the schema refused, named as the Interactions API names fields. */
function issueError(body: unknown, issue: z.core.$ZodIssue): ApiError {
  const field = issue.path.map(String).join(".");
  const value = valueAt(body, issue.path);
  if (value === undefined) return invalid(`Missing required field: '${field}'.`, field);
  return invalid(`Invalid value at '${field}': got ${echoed(JSON.stringify(value).slice(0, 64))}.`, field);
}

/** "Option IDs must be non-empty with no control characters or leading/trailing whitespace." */
function badOptionId(id: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the refusal is of control characters.
  return id === "" || id.trim() !== id || /[\u0000-\u001f\u007f]/.test(id);
}

function instructionsText(instructions: Question["instructions"]): string {
  if (typeof instructions === "string") return instructions;
  return Array.isArray(instructions) ? blocksText(instructions) : instructions.text;
}

function questionError(id: string, q: Question): ApiError | undefined {
  const at = `questions.${id}`;
  const blocks = q.instructions;
  if ((typeof blocks === "string" && blocks.trim() === "") || (Array.isArray(blocks) && blocks.length === 0)) {
    return invalid(`Invalid value at '${at}.instructions': at least one content block is required.`, `${at}.instructions`);
  }
  if (q.type === "noul") return undefined;
  const options = q.type === "choice" ? Object.keys(q.criteria) : q.criteria;
  const what = q.type === "choice" ? "options" : "levels";
  if (options.length < MIN_OPTIONS || options.length > MAX_OPTIONS) {
    return invalid(`Invalid value at '${at}.criteria': expected between ${MIN_OPTIONS} and ${MAX_OPTIONS} ${what}, got ${options.length}.`, `${at}.criteria`);
  }
  if (q.type === "choice") {
    const bad = options.find(badOptionId);
    if (bad !== undefined)
      return invalid(`Invalid value at '${at}.criteria': option ID ${echoed(JSON.stringify(bad))} must be non-empty with no control characters or leading/trailing whitespace.`, `${at}.criteria`);
  } else {
    const empty = q.criteria.findIndex((level) => level.trim() === "");
    if (empty >= 0) return invalid(`Invalid value at '${at}.criteria[${empty}]': a score level must not be empty.`, `${at}.criteria[${empty}]`);
  }
  return undefined;
}

function canonicalQuestion(key: string, q: Question): CanonicalQuestion {
  const instructions = instructionsText(q.instructions);
  if (q.type === "noul") return { key, kind: "predicate", instructions, options: [] };
  if (q.type === "choice") return { key, kind: "choice", instructions, options: Object.keys(q.criteria) };
  return { key, kind: "score", instructions, options: q.criteria };
}

export function parseGeminiDecisions(raw: unknown, headers: Headers): ParseResult<GeminiDecisionsWire> {
  const parsed = safeParseFast(decisionsWire(), raw, { reportInput: true });
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return { ok: false, error: first ? issueError(raw, first) : invalid("Invalid decision request.", "") };
  }
  const body = parsed.data;
  const model = body.model.replace(/^models\//, "");
  if (model === "") return { ok: false, error: invalid("Missing required field: 'model'.", "model") };
  const entries = Object.entries(body.questions);
  if (entries.length === 0) return { ok: false, error: invalid("Invalid value at 'questions': at least 1 question is required.", "questions") };
  for (const [id, q] of entries) {
    const refused = questionError(id, q);
    if (refused) return { ok: false, error: refused };
  }
  const blocks = typeof body.input === "string" ? undefined : Array.isArray(body.input) ? body.input : [body.input];
  if (blocks !== undefined && blocks.length === 0) return { ok: false, error: invalid("Missing required field: 'input'.", "input") };
  const inputText = blocks === undefined ? (body.input as string) : blocksText(blocks);
  const questions = entries.map(([id, q]) => canonicalQuestion(id, q));
  const request: CanonicalRequest = {
    provider: "gemini",
    endpoint: "decisions",
    model,
    stream: false,
    system: "",
    messages: [{ role: "user", text: inputText }],
    tools: [],
    reasoning: "disabled",
    headers: headerRecord(headers),
    questions,
  };
  return { ok: true, wire: { questions, inputText }, request };
}

const byIndex = <T>(values: readonly T[]) => Object.fromEntries(values.map((v, i) => [String(i), v]));

function answer(q: CanonicalQuestion, a: Exclude<CanonicalAnswer, { kind: "refusal" }>): Record<string, unknown> {
  switch (a.kind) {
    case "predicate": {
      // "Calibrated probability P(true) in [0.01, 0.99]"; confidence is the winning outcome's.
      const noul = Math.min(0.99, Math.max(0.01, a.probability));
      return { type: "noul", noul, confidence: Math.max(noul, Math.round((1 - noul) * 1e4) / 1e4) };
    }
    case "choice":
      return {
        type: "choice",
        choice: q.options[a.index],
        confidence: a.probabilities[a.index],
        probabilities: Object.fromEntries(q.options.map((id, i) => [String(id), a.probabilities[i]])),
      };
    case "score":
      return { type: "score", score: a.score, confidence: a.probabilities[a.level], probabilities: byIndex(a.probabilities), legend: byIndex(q.options) };
  }
}

export function renderGeminiDecisionJson(reply: Reply, ctx: RenderContext<GeminiDecisionsWire>): Record<string, unknown> {
  const usage = interactionUsage(reply);
  if (reply.safety !== undefined) {
    const message = reply.safety.message;
    return { prompt_feedback: { block_reason: "safety", ...(message !== undefined ? { block_reason_message: message } : {}) }, usage };
  }
  const { questions, inputText } = ctx.wire;
  const decided = decide(questions, reply.decision, inputText).answers;
  const answers: Record<string, unknown> = {};
  for (const [i, q] of questions.entries()) {
    const a = decided[i]!;
    if (a.kind !== "refusal") answers[q.key] = answer(q, a);
  }
  return { answers, usage };
}

function renderGeminiDecisionEvents(reply: Reply, ctx: RenderContext<GeminiDecisionsWire>): SseEvent[] {
  return [{ data: JSON.stringify(renderGeminiDecisionJson(reply, ctx)) }];
}

function renderGeminiDecisionStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  return { data: JSON.stringify({ error: { code: 500, message: failure.message ?? GEMINI_FAILURE_MESSAGES.model_error, status: "INTERNAL" } }) };
}

export const geminiDecisions: ProviderSurface<GeminiDecisionsWire> = {
  provider: "gemini",
  endpoint: "decisions",
  paths: ["/v1beta/decisions", "/v1alpha/decisions", "/v1/decisions"],
  // `/v1/decisions` is OpenAI's too (`client.decisions.create`): a request with Google's key (`x-goog-api-key`,
  // `?key=`), what `@google/genai` sends, is Gemini's there.
  claims: (request) => request.headers.has("x-goog-api-key") || new URL(request.url).searchParams.has("key"),
  requestIdHeader: "x-request-id",
  checkHeaders: checkGeminiAuth,
  parse: parseGeminiDecisions,
  failureMessages: GEMINI_FAILURE_MESSAGES,
  renderError: renderGeminiError,
  failureHeaders: geminiFailureHeaders,
  renderLimited: (limit, retryAfterMs) => renderGeminiLimited(limit, retryAfterMs),
  renderJson: renderGeminiDecisionJson,
  renderEvents: renderGeminiDecisionEvents,
  renderStreamError: renderGeminiDecisionStreamError,
};
