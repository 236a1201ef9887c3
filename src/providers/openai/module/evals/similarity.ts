/**
 * The text similarity metrics of OpenAI's `text_similarity` grader (Evals and reinforcement fine-tuning), each a
 * score in [0, 1] rounded to 4 decimals. The definitions follow the libraries OpenAI describes its graders with —
 * rapidfuzz (`fuzzy_match`), nltk (`bleu`, `gleu`, `meteor`) and rouge-score (`rouge_*`) — but the tokenisation is
 * mockllm's own, so a score may differ from the real one in its last decimals:
 *
 * - tokens: the text lower-cased and split on every run of characters that is not a letter or digit (Unicode-aware),
 *   empty pieces dropped. Every metric but `fuzzy_match` compares tokens.
 * - `fuzzy_match`: rapidfuzz `fuzz.ratio`, scaled to [0, 1]: the normalised Indel similarity of the raw strings
 *   (case-sensitive, over UTF-16 code units), 2·LCS / (len(a) + len(b)); two empty strings score 1.
 * - `bleu`: nltk `sentence_bleu` with `SmoothingFunction().method1`: modified (clipped) n-gram precisions, uniform
 *   weights, the brevity penalty, and a precision with no match counted as 0.1 over its denominator. Unlike nltk,
 *   only orders up to min(4, hypothesis tokens, reference tokens) are used, so identical text shorter than 4 tokens
 *   scores 1; as in nltk, no unigram match (or no tokens on either side) scores 0.
 * - `gleu`: nltk `sentence_gleu`: over all 1- to 4-grams, min(precision, recall) of the clipped overlap.
 * - `meteor`: nltk `meteor_score` on exact token matches only (no stemming, no synonyms): Fmean = 10PR / (R + 9P)
 *   times 1 − 0.5·(chunks / matches)³. Its fragmentation penalty is never 0, so identical text of m tokens scores
 *   1 − 0.5/m³ (0.9815 for 3 tokens; 1 once rounded from 37 tokens on), as nltk's does.
 * - `rouge_1` … `rouge_5`: rouge-score ROUGE-N F1 of the clipped n-gram overlap; text with fewer than n tokens has no
 *   n-grams and scores 0, even against itself.
 * - `rouge_l`: rouge-score ROUGE-L F1 from the longest common token subsequence.
 * - `cosine`: the real API compares the texts' embeddings (text-embedding-3-large); mockllm compares their word counts
 *   (bag of words), so identical text scores 1, text with no word in common 0, and text without a word 0.
 *
 * Each text is cut to its first MAX_COMPARED_CHARS characters before comparing, which bounds the work of `fuzzy_match`
 * and `rouge_l` (a bit-parallel LCS, len(a)·len(b) / 32 word operations: about 45 ms for two unrelated 20,000-character
 * texts here) whatever a request sends.
 */

/** A `text_similarity` grader's `evaluation_metric`. */
export type SimilarityMetric = "cosine" | "fuzzy_match" | "bleu" | "gleu" | "meteor" | "rouge_1" | "rouge_2" | "rouge_3" | "rouge_4" | "rouge_5" | "rouge_l";

/** Every metric, in the order the API documents them. */
export const SIMILARITY_METRICS: readonly SimilarityMetric[] = ["cosine", "fuzzy_match", "bleu", "gleu", "meteor", "rouge_1", "rouge_2", "rouge_3", "rouge_4", "rouge_5", "rouge_l"];

/** Characters (UTF-16 code units) of each text compared at most: the rest is ignored. */
export const MAX_COMPARED_CHARS = 20_000;

/** Highest n-gram order BLEU and GLEU count. */
const MAX_ORDER = 4;
/** nltk's method1 smoothing: a precision with no match counts this over its denominator. */
const SMOOTHING_EPSILON = 0.1;

/**
 * How similar `input` is to `reference` by `metric`, in [0, 1] rounded to 4 decimals (definitions at the top of this
 * file).
 * @example similarity("rouge_1", "the cat sat", "the cat sat") // 1
 * @example similarity("fuzzy_match", "kitten", "sitting") // 0.6154
 * @example similarity("cosine", "a a b", "a b b") // 0.8
 */
export function similarity(metric: SimilarityMetric, input: string, reference: string): number {
  const a = input.slice(0, MAX_COMPARED_CHARS);
  const b = reference.slice(0, MAX_COMPARED_CHARS);
  return rounded(metric === "fuzzy_match" ? fuzzyMatch(a, b) : tokenScore(metric, tokens(a), tokens(b)));
}

/** The score of a metric that compares tokens. */
function tokenScore(metric: Exclude<SimilarityMetric, "fuzzy_match">, hyp: string[], ref: string[]): number {
  switch (metric) {
    case "cosine":
      return cosine(hyp, ref);
    case "bleu":
      return bleu(hyp, ref);
    case "gleu":
      return gleu(hyp, ref);
    case "meteor":
      return meteor(hyp, ref);
    case "rouge_l":
      return rougeL(hyp, ref);
    case "rouge_1":
      return rougeN(hyp, ref, 1);
    case "rouge_2":
      return rougeN(hyp, ref, 2);
    case "rouge_3":
      return rougeN(hyp, ref, 3);
    case "rouge_4":
      return rougeN(hyp, ref, 4);
    case "rouge_5":
      return rougeN(hyp, ref, 5);
  }
}

/** Clamped to [0, 1] (floating-point error can step just past either end) and rounded to 4 decimals. */
function rounded(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 10000) / 10000;
}

/** The lower-cased runs of letters and digits of `text`. */
function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== "");
}

/** rapidfuzz `fuzz.ratio` / 100: 1 − Indel distance / (len(a) + len(b)), which is 2·LCS / (len(a) + len(b)). */
function fuzzyMatch(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  return (2 * lcsLength(codeUnits(a), codeUnits(b))) / total;
}

/** The UTF-16 code units of `text`. */
function codeUnits(text: string): Uint16Array {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}

/** Each token as a number, equal tokens as equal numbers: the LCS then compares numbers, not strings. */
function tokenIds(hyp: readonly string[], ref: readonly string[]): [Uint32Array, Uint32Array] {
  const ids = new Map<string, number>();
  const idsOf = (toks: readonly string[]) =>
    Uint32Array.from(toks, (t) => {
      const known = ids.get(t);
      if (known !== undefined) return known;
      ids.set(t, ids.size);
      return ids.size - 1;
    });
  return [idsOf(hyp), idsOf(ref)];
}

/**
 * The length of the longest common subsequence of `a` and `b`: O(len(a)·len(b) / 32) time, O(len) memory.
 */
function lcsLength(a: Uint16Array | Uint32Array, b: Uint16Array | Uint32Array): number {
  // A common prefix or suffix adds its length to the LCS of what lies between: counting it first spares its rows, so
  // near-identical long texts cost next to nothing.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return head + tail + lcsTable(a.subarray(head, a.length - tail), b.subarray(head, b.length - tail));
}

/**
 * The LCS length, bit-parallel (Allison and Dix; Crochemore et al.): one bit per symbol of the shorter sequence, a
 * row of the dynamic-programming table advanced 32 cells per word operation — O(len(a)·len(b) / 32) time, as
 * rapidfuzz computes it. A symbol's match mask is kept whole when it occurs more than a row's words (at most 32 such
 * symbols), else as its positions, set into a scratch row for its step: memory stays O(len) whatever the alphabet.
 */
function lcsTable(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const [outer, inner] = a.length >= b.length ? [a, b] : [b, a];
  const m = inner.length;
  if (m === 0) return 0;
  const words = Math.ceil(m / 32);
  const positions = new Map<number, number[]>();
  for (let i = 0; i < m; i++) {
    const at = positions.get(inner[i]!);
    if (at === undefined) positions.set(inner[i]!, [i]);
    else at.push(i);
  }
  const dense = new Map<number, Uint32Array>();
  for (const [symbol, at] of positions) {
    if (at.length <= words) continue;
    const mask = new Uint32Array(words);
    for (const i of at) mask[i >>> 5]! |= 1 << (i & 31);
    dense.set(symbol, mask);
  }
  const scratch = new Uint32Array(words);
  // V: a 0 bit at each position where the row's LCS value steps up; the LCS is the count of 0 bits.
  const v = new Uint32Array(words).fill(0xffffffff);
  for (let k = 0; k < outer.length; k++) {
    const symbol = outer[k]!;
    const at = positions.get(symbol);
    if (at === undefined) continue; // no match anywhere: the row does not change
    let mask = dense.get(symbol);
    if (mask === undefined) {
      for (const i of at) scratch[i >>> 5]! |= 1 << (i & 31);
      mask = scratch;
    }
    // V = (V + (V & M)) | (V & ~M), the addition carried across words.
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const old = v[w]!;
      const u = (old & mask[w]!) >>> 0;
      const sum = old + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = (sum >>> 0) | (old & ~mask[w]!);
    }
    if (mask === scratch) for (const i of at) scratch[i >>> 5] = 0;
  }
  let zeros = 0;
  for (let i = 0; i < m; i++) if ((v[i >>> 5]! & (1 << (i & 31))) === 0) zeros++;
  return zeros;
}

/** The n-grams of `toks`, each as its tokens joined by a space (tokens never hold one), counted. */
function ngramCounts(toks: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= toks.length; i++) {
    const gram = toks.slice(i, i + n).join(" ");
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

/** Σ min(hyp count, ref count) over the n-grams: the overlap, each n-gram counted no more often than the other holds it. */
function clippedOverlap(hyp: ReadonlyMap<string, number>, ref: ReadonlyMap<string, number>): number {
  let overlap = 0;
  for (const [gram, count] of hyp) overlap += Math.min(count, ref.get(gram) ?? 0);
  return overlap;
}

/** Σ of a count map's counts. */
function total(counts: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const c of counts.values()) sum += c;
  return sum;
}

/** 2PR / (P + R), 0 when both are 0. */
function f1(precision: number, recall: number): number {
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/** Cosine similarity of the two texts' token count vectors; 0 when either has no token. */
function cosine(hyp: string[], ref: string[]): number {
  if (hyp.length === 0 || ref.length === 0) return 0;
  const a = ngramCounts(hyp, 1);
  const b = ngramCounts(ref, 1);
  let dot = 0;
  for (const [word, count] of a) dot += count * (b.get(word) ?? 0);
  return dot / (norm(a) * norm(b));
}

/** The Euclidean length of a count vector. */
function norm(counts: ReadonlyMap<string, number>): number {
  let squares = 0;
  for (const c of counts.values()) squares += c * c;
  return Math.sqrt(squares);
}

/** Sentence BLEU with nltk's method1 smoothing, over the orders both texts are long enough for (up to 4). */
function bleu(hyp: string[], ref: string[]): number {
  const orders = Math.min(MAX_ORDER, hyp.length, ref.length);
  if (orders === 0) return 0;
  let logSum = 0;
  for (let n = 1; n <= orders; n++) {
    const matches = clippedOverlap(ngramCounts(hyp, n), ngramCounts(ref, n));
    // nltk scores 0 outright when not even a unigram matches, whatever the smoothing.
    if (n === 1 && matches === 0) return 0;
    // n ≤ hyp.length, so the hypothesis has at least one n-gram and the denominator is never 0.
    const candidates = hyp.length - n + 1;
    logSum += Math.log((matches === 0 ? SMOOTHING_EPSILON : matches) / candidates);
  }
  return brevityPenalty(hyp.length, ref.length) * Math.exp(logSum / orders);
}

/** BLEU's brevity penalty: 1 for a hypothesis at least as long as the reference, e^(1 − r/c) for a shorter one. */
function brevityPenalty(hypLength: number, refLength: number): number {
  return hypLength >= refLength ? 1 : Math.exp(1 - refLength / hypLength);
}

/** Google-BLEU: min(precision, recall) of the clipped overlap of all 1- to 4-grams; 0 when either text has none. */
function gleu(hyp: string[], ref: string[]): number {
  let matches = 0;
  let hypGrams = 0;
  let refGrams = 0;
  for (let n = 1; n <= MAX_ORDER; n++) {
    const h = ngramCounts(hyp, n);
    const r = ngramCounts(ref, n);
    matches += clippedOverlap(h, r);
    hypGrams += total(h);
    refGrams += total(r);
  }
  if (hypGrams === 0 || refGrams === 0) return 0;
  return Math.min(matches / hypGrams, matches / refGrams);
}

/**
 * METEOR on exact matches: each hypothesis token, in order, matched to the first unmatched equal reference token;
 * Fmean = 10PR / (R + 9P) weighed down by the fragmentation penalty 0.5·(chunks / matches)³.
 */
function meteor(hyp: string[], ref: string[]): number {
  const pairs = exactMatches(hyp, ref);
  const m = pairs.length;
  if (m === 0) return 0;
  const precision = m / hyp.length;
  const recall = m / ref.length;
  const fmean = (10 * precision * recall) / (recall + 9 * precision);
  const penalty = 0.5 * (chunks(pairs) / m) ** 3;
  return fmean * (1 - penalty);
}

/** [hypothesis index, reference index] of each matched token, in hypothesis order. */
function exactMatches(hyp: string[], ref: string[]): [number, number][] {
  // Each token's unmatched reference positions, in order: a match takes the first.
  const free = new Map<string, number[]>();
  ref.forEach((t, j) => {
    const positions = free.get(t);
    if (positions) positions.push(j);
    else free.set(t, [j]);
  });
  const pairs: [number, number][] = [];
  const next = new Map<string, number>();
  hyp.forEach((t, i) => {
    const positions = free.get(t);
    const k = next.get(t) ?? 0;
    if (positions === undefined || k >= positions.length) return;
    pairs.push([i, positions[k]!]);
    next.set(t, k + 1);
  });
  return pairs;
}

/** Runs of matches adjacent, and in the same order, in both texts (at least 1 for a non-empty list). */
function chunks(pairs: readonly [number, number][]): number {
  let count = pairs.length === 0 ? 0 : 1;
  for (let k = 1; k < pairs.length; k++) {
    const [i, j] = pairs[k]!;
    const [pi, pj] = pairs[k - 1]!;
    if (i !== pi + 1 || j !== pj + 1) count++;
  }
  return count;
}

/** ROUGE-N F1 of the clipped n-gram overlap; 0 when either text has no n-gram. */
function rougeN(hyp: string[], ref: string[], n: number): number {
  const h = ngramCounts(hyp, n);
  const r = ngramCounts(ref, n);
  const hypGrams = total(h);
  const refGrams = total(r);
  if (hypGrams === 0 || refGrams === 0) return 0;
  const overlap = clippedOverlap(h, r);
  return f1(overlap / hypGrams, overlap / refGrams);
}

/** ROUGE-L F1 from the longest common token subsequence; 0 when either text has no token. */
function rougeL(hyp: string[], ref: string[]): number {
  if (hyp.length === 0 || ref.length === 0) return 0;
  const lcs = lcsLength(...tokenIds(hyp, ref));
  return f1(lcs / hyp.length, lcs / ref.length);
}
