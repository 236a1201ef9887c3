/**
 * OpenAI's graders, as evals' `testing_criteria` and `client.fineTuning.alpha.graders` use them: each one checked as
 * the API checks it when an eval or a job is made, then run on an item and a model's sample. `string_check` and
 * `text_similarity` are computed (./similarity.ts); `label_model` and `score_model` ask their model through the
 * scenario, as a Chat Completions turn with a JSON schema (`{"result": …}`), so a script decides a judge's verdict
 * and, without a script, the default responder answers one the schema allows; `multi` combines its graders by its
 * `calculate_output` formula (./formula.ts). mockllm runs no Python: a `python` grader is checked (it must define
 * `grade`) and each of its runs is the `python_grader_server_error` the API reports when its sandbox cannot run.
 */
import type { ApiError } from "../../../../http/errors";
import { isRecord, parseJsonOrUndefined } from "../../../../http/json";
import { own } from "../../../../util/own";
import { echoed } from "../../../../util/text";
import { invalid } from "../../platform";
import { invalidType, missingParameter, unsupportedValue } from "../../request-error";
import { evaluateFormula, formulaVariables } from "./formula";
import { MAX_COMPARED_CHARS, SIMILARITY_METRICS, similarity, type SimilarityMetric } from "./similarity";

export type Grader = Record<string, unknown> & { type: string; name: string };

const OPERATIONS = ["eq", "ne", "like", "ilike"] as const;
const ROLES = ["user", "assistant", "system", "developer"] as const;
/** Most characters a template renders (a longer rendering is cut): an item cannot make a grader's input unbounded. */
const MAX_RENDERED_CHARS = 1_000_000;
/** The deepest a multi grader nests. */
const MAX_DEPTH = 4;

/** Where a grader may be used: an eval's testing criteria, or the fine-tuning graders (which add `multi`). */
export type GraderUse = "eval" | "alpha";
const TYPES: Record<GraderUse, readonly string[]> = {
  eval: ["label_model", "string_check", "text_similarity", "python", "score_model"],
  alpha: ["string_check", "text_similarity", "python", "score_model", "multi"],
};

/** What a template may name: `item` always, `sample` when the data source has samples. */
export interface Namespaces {
  sample: boolean;
}

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * Checks each `{{ … }}` of `text` names `item.…` or (when there are samples) `sample.…`; exported for a run's
 * `item_reference`.
 * @example templateError("{{item.q}}", "testing_criteria[0].input", { sample: false }) // undefined
 */
export function templateError(text: string, at: string, ns: Namespaces): ApiError | undefined {
  for (const m of text.matchAll(TEMPLATE)) {
    const path = m[1]!;
    const root = /^[A-Za-z_][A-Za-z0-9_]*/.exec(path)?.[0];
    if (root === "item" || (root === "sample" && ns.sample)) continue;
    const allowed = ns.sample ? "'item' or 'sample'" : "'item'";
    return invalid(`Invalid '${at}': the template variable '{{${echoed(path)}}}' must start with ${allowed}.`, at);
  }
  return undefined;
}

/** Each text a grader's message content holds (a string, one content part, or a list of them), with its path. */
function contentTexts(content: unknown, at: string): { text: string; at: string }[] | ApiError {
  if (typeof content === "string") return [{ text: content, at }];
  const parts = Array.isArray(content) ? content : [content];
  const out: { text: string; at: string }[] = [];
  for (const [i, p] of parts.entries()) {
    const pat = Array.isArray(content) ? `${at}[${i}]` : at;
    if (typeof p === "string") {
      out.push({ text: p, at: pat });
      continue;
    }
    if (typeof p !== "object" || p === null) return invalidType(pat, "a string or a content part", p);
    const part = p as Record<string, unknown>;
    if (part.type === "input_text" || part.type === "output_text") {
      if (typeof part.text !== "string") return invalidType(`${pat}.text`, "a string", part.text);
      out.push({ text: part.text, at: `${pat}.text` });
    } else if (part.type === "input_image") {
      if (typeof part.image_url !== "string") return invalidType(`${pat}.image_url`, "a string", part.image_url);
      out.push({ text: part.image_url, at: `${pat}.image_url` });
    } else if (part.type !== "input_audio") {
      return unsupportedValue(part.type, ["input_text", "output_text", "input_image", "input_audio"], `${pat}.type`);
    }
  }
  return out;
}

/**
 * Messages to render (a model grader's `input`, a run's `input_messages.template`) at `at` checked: roles, content,
 * templates.
 */
export function messagesError(input: unknown, at: string, ns: Namespaces): ApiError | undefined {
  if (input === undefined || input === null) return missingParameter(at);
  if (!Array.isArray(input)) return invalidType(at, "an array", input);
  if (input.length === 0) return invalid(`Invalid '${at}': empty array. Expected an array with minimum length 1, but got an empty array instead.`, at);
  for (const [i, m] of input.entries()) {
    const mat = `${at}[${i}]`;
    if (typeof m !== "object" || m === null || Array.isArray(m)) return invalidType(mat, "an object", m);
    const msg = m as Record<string, unknown>;
    if (msg.role === undefined) return missingParameter(`${mat}.role`);
    if (!(ROLES as readonly unknown[]).includes(msg.role)) return unsupportedValue(msg.role, ROLES, `${mat}.role`);
    if (msg.content === undefined || msg.content === null) return missingParameter(`${mat}.content`);
    const texts = contentTexts(msg.content, `${mat}.content`);
    if (!Array.isArray(texts)) return texts;
    for (const t of texts) {
      const e = templateError(t.text, t.at, ns);
      if (e) return e;
    }
  }
  return undefined;
}

function stringField(g: Record<string, unknown>, key: string, at: string): ApiError | undefined {
  const v = g[key];
  if (v === undefined || v === null) return missingParameter(`${at}.${key}`);
  return typeof v === "string" ? undefined : invalidType(`${at}.${key}`, "a string", v);
}

function thresholdError(g: Record<string, unknown>, at: string, required: boolean): ApiError | undefined {
  const v = g.pass_threshold;
  if (v === undefined || v === null) return required ? missingParameter(`${at}.pass_threshold`) : undefined;
  return typeof v === "number" && Number.isFinite(v) ? undefined : invalidType(`${at}.pass_threshold`, "a number", v);
}

/** `range` of a score grader: two numbers, the first below the second (default [0, 1]). */
export function rangeOf(g: Record<string, unknown>): [number, number] {
  const r = g.range;
  return Array.isArray(r) && r.length === 2 && typeof r[0] === "number" && typeof r[1] === "number" ? [r[0], r[1]] : [0, 1];
}

function rangeError(g: Record<string, unknown>, at: string): ApiError | undefined {
  const r = g.range;
  if (r === undefined || r === null) return undefined;
  if (!Array.isArray(r) || r.length !== 2 || !r.every((n) => typeof n === "number" && Number.isFinite(n))) return invalidType(`${at}.range`, "an array of two numbers", r);
  return r[0] < r[1] ? undefined : invalid(`Invalid '${at}.range': the minimum (${r[0]}) must be below the maximum (${r[1]}).`, `${at}.range`);
}

/**
 * Why `value` is not a grader `use` accepts at `at` (undefined when it is one), the API's checks in its order: the
 * type, the fields each type requires, their values, the templates' variables, a multi grader's formula.
 * @example graderError({ type: "string_check", name: "eq", input: "{{sample.output_text}}", reference: "{{item.a}}", operation: "eq" }, "grader", "alpha", { sample: true }) // undefined
 */
export function graderError(value: unknown, at: string, use: GraderUse, ns: Namespaces, depth = 0): ApiError | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return invalidType(at, "an object", value);
  const g = value as Record<string, unknown>;
  if (g.type === undefined) return missingParameter(`${at}.type`);
  if (!TYPES[use].includes(g.type as string)) return unsupportedValue(g.type, TYPES[use], `${at}.type`);
  const name = stringField(g, "name", at);
  if (name) return name;
  switch (g.type) {
    case "string_check":
    case "text_similarity": {
      for (const key of ["input", "reference"]) {
        const e = stringField(g, key, at) ?? templateError(g[key] as string, `${at}.${key}`, ns);
        if (e) return e;
      }
      if (g.type === "string_check") {
        if (g.operation === undefined || g.operation === null) return missingParameter(`${at}.operation`);
        return (OPERATIONS as readonly unknown[]).includes(g.operation) ? undefined : unsupportedValue(g.operation, OPERATIONS, `${at}.operation`);
      }
      if (g.evaluation_metric === undefined || g.evaluation_metric === null) return missingParameter(`${at}.evaluation_metric`);
      if (!(SIMILARITY_METRICS as readonly unknown[]).includes(g.evaluation_metric)) return unsupportedValue(g.evaluation_metric, SIMILARITY_METRICS, `${at}.evaluation_metric`);
      return thresholdError(g, at, use === "eval");
    }
    case "label_model": {
      const e = stringField(g, "model", at) ?? messagesError(g.input, `${at}.input`, ns);
      if (e) return e;
      for (const key of ["labels", "passing_labels"]) {
        const v = g[key];
        if (v === undefined || v === null) return missingParameter(`${at}.${key}`);
        if (!Array.isArray(v) || !v.every((l) => typeof l === "string")) return invalidType(`${at}.${key}`, "an array of strings", v);
        if (v.length === 0) return invalid(`Invalid '${at}.${key}': empty array. Expected an array with minimum length 1, but got an empty array instead.`, `${at}.${key}`);
      }
      const labels = g.labels as string[];
      const stray = (g.passing_labels as string[]).find((l) => !labels.includes(l));
      return stray === undefined ? undefined : invalid(`Invalid '${at}.passing_labels': '${echoed(stray)}' is not one of the grader's labels.`, `${at}.passing_labels`);
    }
    case "score_model":
      return stringField(g, "model", at) ?? messagesError(g.input, `${at}.input`, ns) ?? rangeError(g, at) ?? thresholdError(g, at, false);
    case "python": {
      const e = stringField(g, "source", at) ?? thresholdError(g, at, false);
      if (e) return e;
      return /\bdef\s+grade\s*\(/.test(g.source as string) ? undefined : invalid(`Invalid '${at}.source': the Python grader must define a function 'grade(sample, item)'.`, `${at}.source`);
    }
    default: {
      // multi: its graders (a map of name to grader, or one grader), combined by `calculate_output`.
      if (depth >= MAX_DEPTH) return invalid(`Invalid '${at}': multi graders nest at most ${MAX_DEPTH} deep.`, at);
      const e = stringField(g, "calculate_output", at);
      if (e) return e;
      const subs = subGraders(g);
      if (subs === undefined) return invalidType(`${at}.graders`, "an object of graders", g.graders);
      for (const [key, sub] of subs) {
        const se = graderError(sub, `${at}.graders.${key}`, use, ns, depth + 1);
        if (se) return se;
      }
      const vars = formulaVariables(g.calculate_output as string);
      if (!Array.isArray(vars)) return invalid(`Invalid '${at}.calculate_output': ${vars.error}`, `${at}.calculate_output`);
      const names = new Set(subs.map(([key]) => key));
      const unknown = vars.find((v) => !names.has(v));
      return unknown === undefined ? undefined : invalid(`Invalid '${at}.calculate_output': '${echoed(unknown)}' names none of the grader's graders.`, `${at}.calculate_output`);
    }
  }
}

/** A multi grader's graders by the names its formula uses: a map's keys, or one grader's own name. */
function subGraders(g: Record<string, unknown>): [string, unknown][] | undefined {
  const gs = g.graders;
  if (typeof gs !== "object" || gs === null || Array.isArray(gs)) return undefined;
  if (typeof (gs as Record<string, unknown>).type === "string") return [[String((gs as Record<string, unknown>).name ?? "grader"), gs]];
  return Object.entries(gs);
}

/** The value at `path` (`a.b[0].c`) under `root`, or undefined. */
export function lookup(root: Record<string, unknown>, path: string): unknown {
  let v: unknown = root;
  for (const seg of path.split(/\.|\[(\d+)\]/).filter((s) => s !== undefined && s !== "")) {
    if (typeof v !== "object" || v === null) return undefined;
    v = Array.isArray(v) ? v[Number(seg)] : own(v as Record<string, unknown>, seg);
  }
  return v;
}

/** A template's variables that name nothing, the first; rendering them gives "" (the API's invalid variable). */
export class MissingVariable extends Error {}

/**
 * `text` with each `{{ path }}` replaced by its value in `vars` (a string as it is, anything else as JSON).
 * @example render("Q: {{item.q}}", { item: { q: "2+2?" } }) // "Q: 2+2?"
 */
export function render(text: string, vars: Record<string, unknown>): string {
  const out = text.replace(TEMPLATE, (_, path: string) => {
    const v = lookup(vars, path);
    if (v === undefined) throw new MissingVariable(`The template variable '{{${echoed(path)}}}' names nothing in this item or sample.`);
    return typeof v === "string" ? v : JSON.stringify(v);
  });
  return out.length > MAX_RENDERED_CHARS ? out.slice(0, MAX_RENDERED_CHARS) : out;
}

/** What a judge model was asked and answered: the chat request's messages, the reply text, its usage. */
export interface JudgeAnswer {
  ok: boolean;
  text: string;
  model: string;
  usage: TokenUsage;
  error?: { code: string; message: string };
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cached_tokens: number;
}

/** Asks `model` (through the scenario) the Chat Completions request `body`. */
export type Judge = (body: Record<string, unknown>) => Promise<JudgeAnswer>;

/** What went wrong in a grader's run, by the flags `fineTuning.alpha.graders.run` reports. */
export type GradeErrorKind =
  | "formula_parse_error"
  | "invalid_variable_error"
  | "model_grader_parse_error"
  | "model_grader_server_error"
  | "python_grader_server_error"
  | "sample_parse_error"
  | "other_error";

/** One grader's result on one item. */
export interface Grade {
  score: number;
  passed: boolean;
  /** Why it could not grade: the result is then an error, scored 0. */
  error?: { kind: GradeErrorKind; message: string };
  /** A model grader's exchange with its judge, as output items show it. */
  sample: Record<string, unknown> | null;
  /** Each sub-grader's score (a multi grader). */
  subRewards?: Record<string, number>;
  /** The label a label grader's judge chose. */
  label?: string;
  /** Tokens each judge model used. */
  usage: Record<string, TokenUsage & { invocation_count: number }>;
  /** The comparing it took, in word operations of a text similarity (what a run's read is budgeted by). */
  work?: number;
}

/** The namespaces a grader reads: the item, and the sample when there is one. */
export interface GradeInput {
  item: unknown;
  sample: Record<string, unknown> | null;
}

const failed = (kind: GradeErrorKind, message: string, usage: Grade["usage"] = {}, sample: Grade["sample"] = null): Grade => ({ score: 0, passed: false, error: { kind, message }, sample, usage });

function vars(input: GradeInput): Record<string, unknown> {
  return { item: input.item ?? {}, ...(input.sample !== null ? { sample: input.sample } : {}) };
}

/** A model grader's messages rendered for its judge: text parts joined, images as Chat image parts. */
function judgeMessages(input: unknown[], v: Record<string, unknown>): { role: string; content: string | Record<string, unknown>[] }[] {
  return input.map((raw) => {
    const m = raw as { role: string; content: unknown };
    if (typeof m.content === "string") return { role: m.role, content: render(m.content, v) };
    const parts = (Array.isArray(m.content) ? m.content : [m.content]) as (string | Record<string, unknown>)[];
    const chat = parts.flatMap((p): Record<string, unknown>[] => {
      if (typeof p === "string") return [{ type: "text", text: render(p, v) }];
      if (p.type === "input_image") return [{ type: "image_url", image_url: { url: render(p.image_url as string, v) } }];
      return typeof p.text === "string" ? [{ type: "text", text: render(p.text, v) }] : [];
    });
    const text = chat.every((p) => p.type === "text") ? chat.map((p) => p.text as string).join("\n") : undefined;
    return { role: m.role, content: text ?? chat };
  });
}

/** The JSON schema a judge answers with: `{"result": one of the labels}` or `{"result": a score in range}`. */
function verdictSchema(g: Grader): Record<string, unknown> {
  const result = g.type === "label_model" ? { type: "string", enum: g.labels } : { type: "number", minimum: rangeOf(g)[0], maximum: rangeOf(g)[1] };
  return { type: "object", properties: { result }, required: ["result"], additionalProperties: false };
}

/** The verdict in a judge's reply: `{"result": …}` (as the schema asks), or the bare label or number (JSON or not). */
function verdictOf(text: string): unknown {
  const v = parseJsonOrUndefined(text);
  if (isRecord(v) && "result" in v) return v.result;
  return typeof v === "number" || typeof v === "string" ? v : text.trim();
}

async function modelGrade(g: Grader, input: GradeInput, judge: Judge): Promise<Grade> {
  const v = vars(input);
  let messages: ReturnType<typeof judgeMessages>;
  try {
    messages = judgeMessages(g.input as unknown[], v);
  } catch (e) {
    return failed("invalid_variable_error", (e as Error).message);
  }
  const params = (g.sampling_params ?? {}) as Record<string, unknown>;
  const body: Record<string, unknown> = {
    model: g.model,
    messages,
    response_format: { type: "json_schema", json_schema: { name: g.type === "label_model" ? "label_result" : "score_result", strict: true, schema: verdictSchema(g) } },
    ...Object.fromEntries(["temperature", "top_p", "seed", "reasoning_effort"].filter((k) => params[k] !== undefined && params[k] !== null).map((k) => [k, params[k]])),
    ...(typeof params.max_completions_tokens === "number" ? { max_completion_tokens: params.max_completions_tokens } : {}),
  };
  const a = await judge(body);
  const usage = { [a.model]: { ...a.usage, invocation_count: 1 } };
  const sample = {
    input: messages,
    output: a.ok ? [{ role: "assistant", content: a.text }] : [],
    finish_reason: a.ok ? "stop" : "",
    model: a.model,
    usage: a.usage,
    error: a.error ?? null,
    seed: params.seed ?? null,
    temperature: params.temperature ?? 1,
    top_p: params.top_p ?? 1,
    max_completions_tokens: params.max_completions_tokens ?? null,
  };
  if (!a.ok) return failed("model_grader_server_error", a.error?.message ?? "The grader model did not answer.", usage, sample);
  const verdict = verdictOf(a.text);
  if (g.type === "label_model") {
    const labels = g.labels as string[];
    if (typeof verdict !== "string" || !labels.includes(verdict)) return failed("model_grader_parse_error", `The grader model answered no label of ${JSON.stringify(labels)}.`, usage, sample);
    const passed = (g.passing_labels as string[]).includes(verdict);
    return { score: passed ? 1 : 0, passed, sample, usage, label: verdict };
  }
  const [min, max] = rangeOf(g);
  const score = typeof verdict === "number" ? verdict : typeof verdict === "string" && verdict !== "" ? Number(verdict) : Number.NaN;
  if (!Number.isFinite(score) || score < min || score > max) return failed("model_grader_parse_error", `The grader model answered no score in [${min}, ${max}].`, usage, sample);
  return { score, passed: score >= threshold(g), sample, usage };
}

/** `text` as the `output_json` of a sample: the JSON object it holds, else `{}`. */
export function objectOf(text: string): Record<string, unknown> {
  const v = parseJsonOrUndefined(text);
  return isRecord(v) ? v : {};
}

/** What a score must reach to pass: the grader's `pass_threshold`, else its range's middle. */
function threshold(g: Grader): number {
  if (typeof g.pass_threshold === "number") return g.pass_threshold;
  const [min, max] = g.type === "score_model" ? rangeOf(g) : [0, 1];
  return (min + max) / 2;
}

function addUsage(into: Grade["usage"], from: Grade["usage"]): void {
  for (const [model, u] of Object.entries(from)) {
    const t = (into[model] ??= { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cached_tokens: 0, invocation_count: 0 });
    t.prompt_tokens += u.prompt_tokens;
    t.completion_tokens += u.completion_tokens;
    t.total_tokens += u.total_tokens;
    t.cached_tokens += u.cached_tokens;
    t.invocation_count += u.invocation_count;
  }
}

/**
 * Runs grader `g` (already checked by `graderError`) on `input`; `judge` answers model graders.
 * @example await grade({ type: "string_check", name: "eq", input: "{{sample.output_text}}", reference: "4", operation: "eq" }, { item: {}, sample: { output_text: "4" } }, judge) // { score: 1, passed: true, … }
 */
export async function grade(g: Grader, input: GradeInput, judge: Judge): Promise<Grade> {
  switch (g.type) {
    case "string_check":
    case "text_similarity": {
      let text: string;
      let reference: string;
      try {
        text = render(g.input as string, vars(input));
        reference = render(g.reference as string, vars(input));
      } catch (e) {
        return failed("invalid_variable_error", (e as Error).message);
      }
      if (g.type === "text_similarity") {
        const score = similarity(g.evaluation_metric as SimilarityMetric, text, reference);
        return { score, passed: score >= threshold(g), sample: null, usage: {}, work: similarityWork(text, reference) };
      }
      const ok = stringCheck(g.operation as (typeof OPERATIONS)[number], text, reference);
      return { score: ok ? 1 : 0, passed: ok, sample: null, usage: {} };
    }
    case "label_model":
    case "score_model":
      return modelGrade(g, input, judge);
    case "python":
      return failed("python_grader_server_error", "mockllm runs no Python: a python grader's result is always this error.");
    default:
      return multiGrade(g, input, judge);
  }
}

/** The word operations comparing two texts costs at most (the bit-parallel LCS's, the dearest metric). */
function similarityWork(a: string, b: string): number {
  const x = Math.min(a.length, MAX_COMPARED_CHARS);
  const y = Math.min(b.length, MAX_COMPARED_CHARS);
  return x + y + Math.ceil((x * y) / 32);
}

function stringCheck(op: (typeof OPERATIONS)[number], input: string, reference: string): boolean {
  if (op === "eq") return input === reference;
  if (op === "ne") return input !== reference;
  if (op === "like") return input.includes(reference);
  return input.toLowerCase().includes(reference.toLowerCase());
}

async function multiGrade(g: Grader, input: GradeInput, judge: Judge): Promise<Grade> {
  const usage: Grade["usage"] = {};
  const subRewards: Record<string, number> = {};
  let work = 0;
  for (const [key, sub] of subGraders(g) ?? []) {
    const r = await grade(sub as Grader, input, judge);
    addUsage(usage, r.usage);
    work += r.work ?? 0;
    if (r.error) return { ...failed(r.error.kind, r.error.message, usage), subRewards, work };
    subRewards[key] = r.score;
  }
  const out = evaluateFormula(g.calculate_output as string, subRewards);
  if (!out.ok) return { ...failed(out.error, out.message, usage), subRewards, work };
  return { score: out.value, passed: out.value >= threshold(g), sample: null, subRewards, usage, work };
}

export { addUsage };
