/**
 * `POST /v1/decisions` body → canonical request. The input (a string, or messages, function and custom tool calls and
 * their outputs) becomes the conversation — user messages, the developer's and system's text as `system`, assistant
 * turns with their calls, tool results — so the matchers work on it; the questions become `CanonicalQuestion`s keyed
 * by `name`, else by position. Loose as the other surfaces: unknown fields pass.
 */
import { z } from "zod";
import { headerRecord } from "../../../http/headers";
import type { CanonicalQuestion } from "../../../canonical/decisions";
import { assistantTurn, type CanonicalMessage, type CanonicalRequest } from "../../../canonical/request";
import type { ApiError } from "../../../http/errors";
import { lazily } from "../../../util/memo";
import { safeParseFast } from "../../../util/fast-parse";
import type { ParseResult } from "../../types";
import { openaiRequestError } from "../request-error";

/** Most questions one request may ask (the API reference: "Ask 1–400 questions"). */
export const MAX_DECISION_QUESTIONS = 400;
/** A choice's options and a score's levels: 2 to 255 ("Provide between 2 and 255 choices"). */
const MIN_OPTIONS = 2;
const MAX_OPTIONS = 255;

/** Built on the first decisions request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const decisionsWire = lazily(() => {
  const TextPart = z.looseObject({ type: z.literal("input_text"), text: z.string() });
  const ImagePart = z.looseObject({ type: z.literal("input_image"), image_url: z.string().min(1) });
  const JsonPart = z.looseObject({ type: z.literal("input_json"), data: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]) });
  const InputPart = z.discriminatedUnion("type", [TextPart, ImagePart, JsonPart]);
  const OutputPart = z.discriminatedUnion("type", [z.looseObject({ type: z.literal("output_text"), text: z.string() }), z.looseObject({ type: z.literal("refusal"), refusal: z.string() })]);
  const Evidence = z.union([z.string(), z.array(z.discriminatedUnion("type", [TextPart, ImagePart]))]);
  const Message = z.looseObject({
    type: z.literal("message").optional(),
    role: z.enum(["user", "developer", "system", "assistant"]),
    content: z.union([z.string(), z.array(z.union([InputPart, OutputPart]))]),
  });
  const Item = z.union([
    Message,
    z.looseObject({ type: z.literal("function_call"), call_id: z.string(), name: z.string(), arguments: z.string() }),
    z.looseObject({ type: z.literal("function_call_output"), call_id: z.string(), output: Evidence }),
    z.looseObject({ type: z.literal("custom_tool_call"), call_id: z.string(), name: z.string(), input: z.string() }),
    z.looseObject({ type: z.literal("custom_tool_call_output"), call_id: z.string(), output: Evidence }),
  ]);
  const Instructions = z.union([z.string(), z.array(InputPart).min(1)]);
  const common = { instructions: Instructions, name: z.string().optional() };
  const Question = z.discriminatedUnion("type", [
    z.looseObject({ type: z.literal("predicate"), ...common }),
    z.looseObject({
      type: z.literal("choice"),
      ...common,
      choices: z
        .array(z.looseObject({ value: z.union([z.string(), z.boolean()]), description: z.string().optional() }))
        .min(MIN_OPTIONS)
        .max(MAX_OPTIONS),
    }),
    z.looseObject({
      type: z.literal("score"),
      ...common,
      levels: z
        .array(z.looseObject({ label: z.string(), description: z.string().optional() }))
        .min(MIN_OPTIONS)
        .max(MAX_OPTIONS),
    }),
  ]);
  const DecisionsRequestSchema = z.looseObject({
    input: z.union([z.string(), z.array(Item)]),
    model: z.string(),
    questions: z.array(Question).min(1).max(MAX_DECISION_QUESTIONS),
    stream: z.unknown().optional(),
  });
  return { DecisionsRequestSchema };
});
export type DecisionsBody = z.output<ReturnType<typeof decisionsWire>["DecisionsRequestSchema"]>;
type Item = Exclude<DecisionsBody["input"], string>[number];
type Part = { type: string; text?: string; refusal?: string; data?: unknown };

/** The parsed request: the body, its questions and the input's text (the defaults' seed). */
export interface DecisionsRequest {
  body: DecisionsBody;
  questions: CanonicalQuestion[];
  inputText: string;
}

function invalid(message: string, param: string): ApiError {
  return { code: "invalid_request", message, param };
}

/** A part's text: text as written, JSON as compact JSON, an image as nothing. */
function partText(p: Part): string {
  if (p.type === "input_json") return JSON.stringify(p.data);
  return p.text ?? p.refusal ?? "";
}

function contentText(content: string | readonly Part[]): string {
  return typeof content === "string"
    ? content
    : content
        .map(partText)
        .filter((t) => t !== "")
        .join("\n");
}

/** The input's items → system text and conversation (consecutive assistant-side items are one assistant turn). */
function conversation(items: readonly Item[]): { system: string[]; messages: CanonicalMessage[] } {
  const system: string[] = [];
  const messages: CanonicalMessage[] = [];
  const assistant = () => assistantTurn(messages);
  for (const item of items) {
    if ("role" in item) {
      const text = contentText(item.content as string | Part[]);
      if (item.role === "assistant") assistant().text += text;
      else if (item.role === "user") messages.push({ role: "user", text });
      else system.push(text);
    } else if (item.type === "function_call") assistant().toolCalls.push({ id: item.call_id, name: item.name, arguments: item.arguments });
    else if (item.type === "custom_tool_call") assistant().toolCalls.push({ id: item.call_id, name: item.name, arguments: item.input });
    else messages.push({ role: "tool", toolCallId: item.call_id, content: contentText(item.output as string | Part[]), isError: false });
  }
  return { system, messages };
}

/** "Each tool output must identify a matching call by call ID": the Responses API's words for one that does not. */
function unmatchedOutput(items: readonly Item[]): ApiError | undefined {
  const calls = new Set<string>();
  for (const item of items) {
    if ("role" in item) continue;
    if (item.type === "function_call" || item.type === "custom_tool_call") calls.add(item.call_id);
    else if (!calls.has(item.call_id)) return invalid(`No tool call found for ${item.type === "function_call_output" ? "function" : "custom tool"} call output with call_id ${item.call_id}.`, "input");
  }
  return undefined;
}

function question(q: DecisionsBody["questions"][number], index: number): CanonicalQuestion {
  const instructions = contentText(q.instructions as string | Part[]);
  const key = q.name ?? String(index);
  if (q.type === "choice") return { key, kind: "choice", instructions, options: q.choices.map((c) => c.value) };
  if (q.type === "score") return { key, kind: "score", instructions, options: q.levels.map((l) => l.label) };
  return { key, kind: "predicate", instructions, options: [] };
}

/** The index of a choice whose value another choice of the question repeats (typed: `"true"` and `true` differ). */
function repeatedChoice(q: DecisionsBody["questions"][number]): number {
  if (q.type !== "choice") return -1;
  const seen = new Set<string | boolean>();
  return q.choices.findIndex((c) => seen.size === seen.add(c.value).size);
}

export function parseDecisionsRequest(raw: unknown, headers: Headers): ParseResult<DecisionsRequest> {
  const schema = decisionsWire().DecisionsRequestSchema;
  const parsed = safeParseFast(schema, raw);
  if (!parsed.success) return { ok: false, error: openaiRequestError(parsed.error, schema, raw) };
  const body = parsed.data;
  if (body.stream !== undefined && body.stream !== false) return { ok: false, error: invalid("Unrecognized request argument supplied: stream", "stream") };
  if (body.model.trim() === "") return { ok: false, error: invalid("Invalid 'model': empty string. Expected a string with minimum length 1, but got an empty string instead.", "model") };
  for (const [i, q] of body.questions.entries()) {
    const repeated = repeatedChoice(q);
    if (repeated >= 0) return { ok: false, error: invalid(`Invalid 'questions[${i}].choices': each choice must be unique; choices[${repeated}] repeats an earlier value.`, `questions[${i}].choices`) };
  }
  const items = typeof body.input === "string" ? undefined : body.input;
  if (items !== undefined) {
    if (items.length === 0) return { ok: false, error: invalid("Invalid 'input': empty array. Expected an array with minimum length 1, but got an empty array instead.", "input") };
    const unmatched = unmatchedOutput(items);
    if (unmatched) return { ok: false, error: unmatched };
  }
  const { system, messages } = items === undefined ? { system: [], messages: [{ role: "user" as const, text: body.input as string }] } : conversation(items);
  const questions = body.questions.map(question);
  const request: CanonicalRequest = {
    provider: "openai",
    endpoint: "decisions",
    model: body.model,
    stream: false,
    system: system.join("\n"),
    messages,
    tools: [],
    reasoning: "disabled",
    headers: headerRecord(headers),
    questions,
  };
  const inputText = messages.map((m) => ("text" in m ? m.text : m.content)).join("\n");
  return { ok: true, wire: { body, questions, inputText }, request };
}
