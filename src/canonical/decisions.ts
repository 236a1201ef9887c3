/**
 * Decisions (OpenAI `POST /v1/decisions`, Gemini's `POST /v1beta/decisions`): questions about one input, each a
 * predicate (Gemini: `noul`), a choice among options or a score on ordered levels, answered with calibrated
 * probabilities. Both surfaces parse their questions into `CanonicalQuestion`s and render `CanonicalAnswer`s; this
 * module answers them: a step's `respond.decision` by question key, else a deterministic default from a hash of the
 * input and the question. A scripted answer that does not fit its question (a label the question lacks, a number for
 * a choice, a key no question has) gets the default instead and an error the journal keeps (verify's
 * `schema_violation`, src/scenario/structured.ts).
 */
import { seededRandom, stableHash } from "../util/hash";
import type { DecisionAnswer, DecisionReply } from "../scenario/surface-replies";

/** A question as both APIs ask it. */
export interface CanonicalQuestion {
  /** What a script answers it by: OpenAI's `name` (else its 0-based position, `"0"`, `"1"`, …); Gemini's question id. */
  key: string;
  kind: "predicate" | "choice" | "score";
  /** The question's instructions as text (the default's seed). */
  instructions: string;
  /** A choice's option values (OpenAI's strings and booleans, Gemini's option ids); a score's level labels, in level order. */
  options: readonly (string | boolean)[];
}

export type CanonicalAnswer =
  /** `probability` is P(true). */
  | { kind: "predicate"; probability: number }
  /** `index` is the chosen option's; `probabilities` are by option, summing to 1. */
  | { kind: "choice"; index: number; probabilities: number[] }
  /** `probabilities` by level (0-based); `level` the likeliest; `score` the expected level, Σ k·p(k). */
  | { kind: "score"; level: number; probabilities: number[]; score: number }
  | { kind: "refusal" };

/** What a decision answers: one answer per question, in order, and what did not fit. */
export interface Decided {
  answers: CanonicalAnswer[];
  errors: { path: string; message: string }[];
}

const DEFAULT_PREDICATE_CONFIDENCE = 0.95;
const DEFAULT_CONFIDENCE = 0.9;

/** Probabilities keep 4 decimals, as calibrated scores are usually shown. */
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * `winner` gets `confidence`; the rest is spread: evenly over the other options (a choice), or over the levels
 * beside the winner (a score: half to each side, all to the one side at an end), so a scripted level is the expected
 * score too unless it is at an end. The last share takes what rounding left, so the probabilities add up to 1.
 */
function spread(n: number, winner: number, confidence: number, neighbours: boolean): number[] {
  const p = new Array<number>(n).fill(0);
  p[winner] = round4(confidence);
  const rest = 1 - p[winner]!;
  const others = neighbours ? [winner - 1, winner + 1].filter((i) => i >= 0 && i < n) : [...p.keys()].filter((i) => i !== winner);
  let left = rest;
  for (const [k, i] of others.entries()) {
    p[i] = k === others.length - 1 ? Math.max(0, round4(left)) : round4(rest / others.length);
    left -= p[i]!;
  }
  return p;
}

function scoreAnswer(n: number, level: number, confidence: number): CanonicalAnswer {
  const probabilities = spread(n, level, confidence, true);
  return { kind: "score", level, probabilities, score: round4(probabilities.reduce((sum, p, k) => sum + k * p, 0)) };
}

/**
 * The unscripted answer: drawn from a hash of the input and the question, so the same request always decides alike.
 * A predicate leans one way (P(true) in 0.03…0.3 or 0.7…0.97), a choice and a score pick one outcome at 0.55…0.9
 * (two decimals).
 * @example defaultAnswer({ key: "spam", kind: "predicate", instructions: "Is it spam?", options: [] }, "Buy now").kind // "predicate"
 */
export function defaultAnswer(q: CanonicalQuestion, input: string): CanonicalAnswer {
  const draw = seededRandom(stableHash(`decision|${q.key}|${q.instructions}|${input}`));
  if (q.kind === "predicate") {
    const lean = draw() < 0.5;
    const strength = 0.7 + Math.floor(draw() * 28) / 100;
    return { kind: "predicate", probability: round4(lean ? strength : 1 - strength) };
  }
  const n = q.options.length;
  const winner = Math.floor(draw() * n);
  // Two decimals: a score's neighbours then split the rest exactly, and the expected score is the level.
  const confidence = 0.55 + Math.floor(draw() * 36) / 100;
  if (q.kind === "choice") return { kind: "choice", index: winner, probabilities: spread(n, winner, confidence, false) };
  return scoreAnswer(n, winner, confidence);
}

function shown(value: unknown): string {
  return JSON.stringify(value);
}

function listed(options: readonly (string | boolean)[]): string {
  const all = options.slice(0, 8).map(shown).join(", ");
  return options.length > 8 ? `${all}, … (${options.length} in all)` : all;
}

/** A scripted answer for `q`, or why it does not fit. */
function scriptedAnswer(q: CanonicalQuestion, scripted: DecisionAnswer): CanonicalAnswer | string {
  if (typeof scripted === "object" && "refusal" in scripted) return { kind: "refusal" };
  const value = typeof scripted === "object" ? scripted.value : scripted;
  const confidence = typeof scripted === "object" ? scripted.confidence : undefined;
  if (q.kind === "predicate") {
    if (typeof value === "boolean") {
      const c = confidence ?? DEFAULT_PREDICATE_CONFIDENCE;
      return { kind: "predicate", probability: round4(value ? c : 1 - c) };
    }
    if (typeof value === "number" && confidence === undefined) {
      return value >= 0 && value <= 1 ? { kind: "predicate", probability: value } : `a predicate's probability must lie in 0…1, got ${value}`;
    }
    return `a predicate is answered with true, false or a probability, got ${shown(value)}${confidence !== undefined && typeof value === "number" ? " with a confidence" : ""}`;
  }
  const index = q.kind === "score" && typeof value === "number" ? (Number.isInteger(value) && value >= 0 && value < q.options.length ? value : -1) : q.options.indexOf(value as string | boolean);
  if (index < 0) {
    return q.kind === "choice"
      ? `must be one of the question's choices (${listed(q.options)}), got ${shown(value)}`
      : `must be a level of the question: an index 0…${q.options.length - 1} or a label (${listed(q.options)}), got ${shown(value)}`;
  }
  const c = confidence ?? DEFAULT_CONFIDENCE;
  if (q.kind === "choice") return { kind: "choice", index, probabilities: spread(q.options.length, index, c, false) };
  return scoreAnswer(q.options.length, index, c);
}

/**
 * The scripted answers that fit, by question (undefined: none scripted, or it does not fit), and the errors —
 * JSON-pointer paths under `/decision` — of each that does not and of each key no question has.
 */
function fitted(questions: readonly CanonicalQuestion[], scripted: DecisionReply | undefined): { fit: (CanonicalAnswer | undefined)[]; errors: Decided["errors"] } {
  const errors: Decided["errors"] = [];
  if (scripted === undefined) return { fit: questions.map(() => undefined), errors };
  const fit = questions.map((q) => {
    const given = Object.hasOwn(scripted, q.key) ? scripted[q.key] : undefined;
    if (given === undefined) return undefined;
    const answer = scriptedAnswer(q, given);
    if (typeof answer !== "string") return answer;
    errors.push({ path: `/decision/${pointerToken(q.key)}`, message: answer });
    return undefined;
  });
  const keys = new Set(questions.map((q) => q.key));
  for (const key of Object.keys(scripted)) {
    if (!keys.has(key)) errors.push({ path: `/decision/${pointerToken(key)}`, message: `names no question of the request (its questions: ${listed([...keys])})` });
  }
  return { fit, errors };
}

/**
 * Answers every question: a scripted answer by its key where it fits, else the default; `errors` name (JSON-pointer
 * paths under `/decision`) each scripted answer that did not fit and each key no question has.
 * @example decide([{ key: "spam", kind: "predicate", instructions: "", options: [] }], { spam: true }, "").answers // [{ kind: "predicate", probability: 0.95 }]
 */
export function decide(questions: readonly CanonicalQuestion[], scripted: DecisionReply | undefined, input: string): Decided {
  const { fit, errors } = fitted(questions, scripted);
  return { answers: questions.map((q, i) => fit[i] ?? defaultAnswer(q, input)), errors };
}

/**
 * What of a scripted decision does not fit the request's questions (the journal's check: no default is drawn).
 * @example decisionErrors([{ key: "spam", kind: "predicate", instructions: "", options: [] }], { spam: "yes" })[0]?.path // "/decision/spam"
 */
export function decisionErrors(questions: readonly CanonicalQuestion[], scripted: DecisionReply): Decided["errors"] {
  return fitted(questions, scripted).errors;
}

/** A key as a JSON-pointer token (RFC 6901: `~` → `~0`, `/` → `~1`). */
function pointerToken(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
