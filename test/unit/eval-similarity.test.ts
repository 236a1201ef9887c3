/**
 * The text_similarity grader's metrics: each worked by hand (and checked against nltk's and python-Levenshtein's
 * numbers for the same tokens), the edges of each, and the bound on how much of a text is compared.
 */
import { describe, expect, it } from "vitest";
import { MAX_COMPARED_CHARS, SIMILARITY_METRICS, similarity, type SimilarityMetric } from "../../src/providers/openai/module/evals/similarity";

/** Every metric's score of `input` against `reference`, by name. */
function scores(input: string, reference: string): Record<SimilarityMetric, number> {
  return Object.fromEntries(SIMILARITY_METRICS.map((m) => [m, similarity(m, input, reference)])) as Record<SimilarityMetric, number>;
}

const CAT_SAT = "the cat sat on the mat";
const CAT_IS = "the cat is on the mat";

describe("similarity metrics", () => {
  it("lists every metric, in the API's order", () => {
    expect(SIMILARITY_METRICS).toEqual(["cosine", "fuzzy_match", "bleu", "gleu", "meteor", "rouge_1", "rouge_2", "rouge_3", "rouge_4", "rouge_5", "rouge_l"]);
  });

  it("scores identical text 1 by every metric", () => {
    // 40 tokens: long enough for METEOR's fragmentation penalty, 0.5 / 40³, to round away.
    const text = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    expect(scores(text, text)).toEqual(Object.fromEntries(SIMILARITY_METRICS.map((m) => [m, 1])));
  });

  it("scores text with no word in common 0 by every metric but fuzzy_match, which compares characters", () => {
    // "the cat" and "a dog" share one character in order (the space, or the "a"): 2·1 / (7 + 5).
    expect(scores("the cat", "a dog")).toEqual({ ...Object.fromEntries(SIMILARITY_METRICS.map((m) => [m, 0])), fuzzy_match: 0.1667 });
  });

  it("scores short identical text as each definition does", () => {
    // ROUGE-N has no n-gram in fewer than n tokens; METEOR keeps its penalty 0.5 / m³; BLEU uses the orders it can.
    expect(scores("the cat sat", "the cat sat")).toEqual({ ...Object.fromEntries(SIMILARITY_METRICS.map((m) => [m, 1])), meteor: 0.9815, rouge_4: 0, rouge_5: 0 });
    expect(similarity("meteor", "hello", "hello")).toBe(0.5);
  });

  it("scores empty text: two empty strings match by fuzzy_match only", () => {
    expect(scores("", "")).toEqual({ ...Object.fromEntries(SIMILARITY_METRICS.map((m) => [m, 0])), fuzzy_match: 1 });
    expect(scores("...", "the cat")).toEqual(Object.fromEntries(SIMILARITY_METRICS.map((m) => [m, 0])));
    expect(scores("the cat", "")).toEqual(Object.fromEntries(SIMILARITY_METRICS.map((m) => [m, 0])));
  });
});

describe("fuzzy_match", () => {
  it("is 2·LCS / (len(a) + len(b)) on the raw characters", () => {
    // LCS("kitten", "sitting") = "ittn", 4: the Indel distance is 6 + 7 − 8 = 5, and 1 − 5/13 = 8/13.
    expect(similarity("fuzzy_match", "kitten", "sitting")).toBe(0.6154);
    // The two sentences share "the cat ", " on the mat" and the "s" of "sat"/"is" … 20 of 22 and 21 characters.
    expect(similarity("fuzzy_match", CAT_SAT, CAT_IS)).toBe(Math.round((40 / 43) * 10000) / 10000);
  });

  it("is case-sensitive, as rapidfuzz is, while the token metrics are not", () => {
    expect(similarity("fuzzy_match", "ABC", "abc")).toBe(0);
    expect(similarity("rouge_1", "The CAT, sat!", "the cat sat")).toBe(1);
  });
});

describe("tokens", () => {
  it("are runs of Unicode letters and digits, lower-cased", () => {
    expect(similarity("rouge_2", "Café DÉJÀ-vu 42", "café déjà vu, 42")).toBe(1);
    expect(similarity("cosine", "naïve", "naive")).toBe(0);
  });
});

describe("bleu", () => {
  it("multiplies the clipped n-gram precisions' geometric mean by the brevity penalty, smoothing a zero as 0.1 / count", () => {
    // p1 = 5/6 (the ×2, cat, on, mat), p2 = 3/5 (the cat, on the, the mat), p3 = 1/4 (on the mat), p4 = 0 → 0.1/3.
    expect(similarity("bleu", CAT_SAT, CAT_IS)).toBe(Math.round(((5 / 6) * (3 / 5) * (1 / 4) * (0.1 / 3)) ** (1 / 4) * 10000) / 10000);
    expect(similarity("bleu", CAT_SAT, CAT_IS)).toBe(0.2541);
  });

  it("uses only the orders both texts are long enough for, and penalises a short hypothesis", () => {
    // 3 tokens against 5: orders 1–3, p1 = 3/3, p2 = 1/2 (cat sat), p3 = 0 → 0.1/1; brevity e^(1 − 5/3).
    expect(similarity("bleu", "the cat sat", "the black cat sat down")).toBe(Math.round(Math.exp(1 - 5 / 3) * (1 * 0.5 * 0.1) ** (1 / 3) * 10000) / 10000);
    expect(similarity("bleu", "the cat sat", "the black cat sat down")).toBe(0.1891);
  });

  it("is 0 when not even a unigram matches, smoothing or not", () => {
    expect(similarity("bleu", "cat", "dog")).toBe(0);
  });
});

describe("gleu", () => {
  it("is the clipped overlap of all 1- to 4-grams over the larger side's count", () => {
    // 6 + 5 + 4 + 3 = 18 n-grams each side; 5 + 3 + 1 + 0 = 9 shared.
    expect(similarity("gleu", CAT_SAT, CAT_IS)).toBe(0.5);
    // 3 + 2 + 1 hypothesis n-grams, 5 + 4 + 3 + 2 = 14 reference ones; 3 + 1 shared: min(4/6, 4/14).
    expect(similarity("gleu", "the cat sat", "the black cat sat down")).toBe(0.2857);
  });
});

describe("meteor", () => {
  it("weighs Fmean down by the fragmentation of the matches into chunks", () => {
    // 5 matches in 2 chunks ("the cat", "on the mat"): Fmean = 5/6, penalty 0.5·(2/5)³ = 0.032.
    expect(similarity("meteor", CAT_SAT, CAT_IS)).toBe(Math.round((5 / 6) * (1 - 0.032) * 10000) / 10000);
    // Every word matches, in 3 chunks ("the", "quick brown", "fox"): 1 − 0.5·(3/4)³.
    expect(similarity("meteor", "the quick brown fox", "the fox quick brown")).toBe(0.7891);
  });

  it("matches each token once, in order, and weighs recall nine times precision", () => {
    // "a a b" / "a b b": the second "a" finds no partner; 2 matches in 2 chunks, P = R = 2/3, penalty 0.5.
    expect(similarity("meteor", "a a b", "a b b")).toBe(0.3333);
    // P = 3/3, R = 3/5, Fmean = 10·0.6 / (0.6 + 9) = 0.625; 2 chunks ("the", "cat sat"): penalty 0.5·(2/3)³.
    expect(similarity("meteor", "the cat sat", "the black cat sat down")).toBe(Math.round(0.625 * (1 - 0.5 * (2 / 3) ** 3) * 10000) / 10000);
  });
});

describe("rouge", () => {
  it("rouge_n is the F1 of the clipped n-gram overlap", () => {
    expect([1, 2, 3, 4, 5].map((n) => similarity(`rouge_${n}` as SimilarityMetric, CAT_SAT, CAT_IS))).toEqual([0.8333, 0.6, 0.25, 0, 0]);
    // 3 of 3 unigrams and 3 of 5: F1 = 2·1·0.6 / 1.6; 1 of 2 bigrams and 1 of 4.
    expect(similarity("rouge_1", "the cat sat", "the black cat sat down")).toBe(0.75);
    expect(similarity("rouge_2", "the cat sat", "the black cat sat down")).toBe(0.3333);
  });

  it("rouge_l is the F1 of the longest common token subsequence", () => {
    expect(similarity("rouge_l", CAT_SAT, CAT_IS)).toBe(0.8333);
    expect(similarity("rouge_l", "the cat sat", "the black cat sat down")).toBe(0.75);
    // Same words, new order: every unigram matches, the LCS ("the quick brown") is 3 of 4.
    expect(similarity("rouge_1", "the quick brown fox", "the fox quick brown")).toBe(1);
    expect(similarity("rouge_l", "the quick brown fox", "the fox quick brown")).toBe(0.75);
  });
});

describe("cosine", () => {
  it("compares word counts, not order", () => {
    // (2, 1)·(1, 2) / (√5·√5).
    expect(similarity("cosine", "a a b", "a b b")).toBe(0.8);
    // the: 2·2, cat, on, mat: 1 each → 7 / (√8·√8).
    expect(similarity("cosine", CAT_SAT, CAT_IS)).toBe(0.875);
    expect(similarity("cosine", "the quick brown fox", "the fox quick brown")).toBe(1);
  });
});

describe("the bound on what is compared", () => {
  const long = Array.from({ length: 5000 }, (_, i) => ["alpha", "beta", "gamma", "delta"][i % 4])
    .join(" ")
    .padEnd(30_000, " omega");

  it("scores a 30,000-character text as its first 20,000 characters, by every metric", () => {
    expect(long.length).toBe(30_000);
    const prefix = long.slice(0, MAX_COMPARED_CHARS);
    const reference = "alpha beta gamma delta omega";
    expect(scores(long, reference)).toEqual(scores(prefix, reference));
    expect(scores(reference, long)).toEqual(scores(reference, prefix));
  });

  it("ignores what lies past the bound", () => {
    expect(similarity("rouge_1", `${"a ".repeat(9_999)}b`, "b")).toBeGreaterThan(0);
    expect(similarity("rouge_1", `${"a ".repeat(10_000)}b`, "b")).toBe(0);
    expect(similarity("fuzzy_match", "x".repeat(MAX_COMPARED_CHARS) + "y".repeat(10), "y".repeat(10))).toBe(0);
  });
});
