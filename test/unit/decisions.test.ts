// Decisions (src/canonical/decisions.ts): scripted answers by question key in each of their forms, what does not fit
// (the default instead, and the error verify reports), and the deterministic defaults.
import { describe, expect, it } from "vitest";
import { decide, defaultAnswer, type CanonicalQuestion } from "../../src/canonical/decisions";
import { DecisionReplySchema } from "../../src/scenario/surface-replies";

const spam: CanonicalQuestion = { key: "spam", kind: "predicate", instructions: "Is it spam?", options: [] };
const topic: CanonicalQuestion = { key: "topic", kind: "choice", instructions: "Which topic?", options: ["billing", "shipping", true] };
const tone: CanonicalQuestion = { key: "1", kind: "score", instructions: "How polite?", options: ["rude", "neutral", "polite", "warm"] };
const QUESTIONS = [spam, topic, tone];

const sum = (ps: number[]) => Math.round(ps.reduce((a, b) => a + b, 0) * 1e6) / 1e6;

describe("decide", () => {
  it("answers each short form: a boolean or a probability, a choice's value, a score's index or label", () => {
    expect(decide(QUESTIONS, { spam: true, topic: "shipping", 1: 2 }, "x")).toEqual({
      answers: [
        { kind: "predicate", probability: 0.95 },
        { kind: "choice", index: 1, probabilities: [0.05, 0.9, 0.05] },
        { kind: "score", level: 2, probabilities: [0, 0.05, 0.9, 0.05], score: 2 },
      ],
      errors: [],
    });
    const other = decide(QUESTIONS, { spam: 0.3, topic: true, 1: "rude" }, "x").answers;
    expect(other).toEqual([
      { kind: "predicate", probability: 0.3 },
      { kind: "choice", index: 2, probabilities: [0.05, 0.05, 0.9] },
      // At an end, the rest goes to the one neighbour: the expected score leans off the level.
      { kind: "score", level: 0, probabilities: [0.9, 0.1, 0, 0], score: 0.1 },
    ]);
  });

  it("a confidence sets the winner's probability; a refusal declines the question", () => {
    const { answers } = decide(QUESTIONS, { spam: { value: false, confidence: 0.8 }, topic: { value: "billing", confidence: 0.7 }, 1: { refusal: true } }, "x");
    expect(answers).toEqual([{ kind: "predicate", probability: 0.2 }, { kind: "choice", index: 0, probabilities: [0.7, 0.15, 0.15] }, { kind: "refusal" }]);
  });

  it("a choice's values are typed: the string 'true' is not the option true", () => {
    const { answers, errors } = decide([topic], { topic: "true" }, "x");
    expect(answers).toEqual([defaultAnswer(topic, "x")]);
    expect(errors).toEqual([{ path: "/decision/topic", message: 'must be one of the question\'s choices ("billing", "shipping", true), got "true"' }]);
  });

  it("what does not fit gets the default and an error under /decision/{key}; so does a key no question has", () => {
    const { answers, errors } = decide(QUESTIONS, { spam: "yes", topic: 1, 1: 7, "a/b": true, spam2: { value: 0.4, confidence: 0.9 } }, "in");
    expect(answers).toEqual(QUESTIONS.map((q) => defaultAnswer(q, "in")));
    expect(errors).toEqual([
      { path: "/decision/spam", message: 'a predicate is answered with true, false or a probability, got "yes"' },
      { path: "/decision/topic", message: 'must be one of the question\'s choices ("billing", "shipping", true), got 1' },
      { path: "/decision/1", message: 'must be a level of the question: an index 0…3 or a label ("rude", "neutral", "polite", "warm"), got 7' },
      { path: "/decision/a~1b", message: 'names no question of the request (its questions: "spam", "topic", "1")' },
      { path: "/decision/spam2", message: 'names no question of the request (its questions: "spam", "topic", "1")' },
    ]);
    expect(decide([spam], { spam: 1.5 }, "").errors).toEqual([{ path: "/decision/spam", message: "a predicate's probability must lie in 0…1, got 1.5" }]);
    expect(decide([spam], { spam: { value: 0.4, confidence: 0.9 } }, "").errors[0]!.message).toBe("a predicate is answered with true, false or a probability, got 0.4 with a confidence");
  });

  it("defaults are deterministic per input and question, lean one way, and their probabilities add up to 1", () => {
    const a = decide(QUESTIONS, undefined, "Where is my parcel?");
    expect(decide(QUESTIONS, undefined, "Where is my parcel?")).toEqual(a);
    expect(a.errors).toEqual([]);
    const inputs = Array.from({ length: 40 }, (_, i) => `message ${i}`);
    const predicates = inputs.map((input) => (defaultAnswer(spam, input) as { probability: number }).probability);
    for (const p of predicates) expect(p <= 0.3 || p >= 0.7).toBe(true);
    expect(predicates.some((p) => p > 0.5) && predicates.some((p) => p < 0.5)).toBe(true);
    for (const input of inputs) {
      const c = defaultAnswer(topic, input) as { index: number; probabilities: number[] };
      expect(sum(c.probabilities)).toBe(1);
      expect(Math.max(...c.probabilities)).toBe(c.probabilities[c.index]);
      const s = defaultAnswer(tone, input) as { level: number; probabilities: number[]; score: number };
      expect(sum(s.probabilities)).toBe(1);
      // An inner level is the expected score; an end one leans toward its neighbour by what the neighbour holds.
      const inner = s.level > 0 && s.level < 3;
      expect(s.score).toBe(inner ? s.level : s.level === 0 ? s.probabilities[1] : Math.round((3 - s.probabilities[2]!) * 1e4) / 1e4);
    }
  });

  it("the scenario schema takes the short forms, the object form and a refusal, and refuses others", () => {
    expect(DecisionReplySchema.safeParse({ a: true, b: 0.2, c: "x", d: { value: 2, confidence: 0.6 }, e: { refusal: true } }).success).toBe(true);
    expect(DecisionReplySchema.safeParse({ a: { value: 1, confidence: 2 } }).success).toBe(false);
    expect(DecisionReplySchema.safeParse({ a: { refusal: false } }).success).toBe(false);
    expect(DecisionReplySchema.safeParse({ a: null }).success).toBe(false);
  });
});
