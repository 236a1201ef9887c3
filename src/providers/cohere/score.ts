/**
 * Default relevance: a deterministic lexical overlap of the query and each document (cosine of their sets of words
 * and adjacent word pairs, each weighted by how rare it is among the documents), so a document sharing the query's
 * distinctive words and phrases ranks first. Scores lie in (0, 1), rounded to 8 decimals; a tiny hash of the document separates equal overlaps.
 */
import { seededRandom, stableHash } from "../../util/hash";

/** Lower-cased words (letters and digits, any script) and pairs of adjacent words, so a phrase counts for more. */
export function terms(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const out = new Set(words);
  for (let i = 1; i < words.length; i++) out.add(`${words[i - 1]} ${words[i]}`);
  return out;
}

const round8 = (x: number) => Math.round(x * 1e8) / 1e8;

/**
 * A scorer over `documents`: their words are read and weighed once, then each query is scored against all of them
 * (what rerank does for one query, and what Chat's citations do for each sentence of an answer).
 * @example overlapScorer(["green pear", "red apple pie"])("red apple") // [0.0…, 0.8…]
 */
export function overlapScorer(documents: string[]): (query: string) => number[] {
  const docs = documents.map(terms);
  const df = new Map<string, number>();
  for (const d of docs) for (const w of d) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string) => Math.log(1 + (docs.length + 1) / ((df.get(w) ?? 0) + 1));
  const norms = docs.map((d) => {
    let n = 0;
    for (const w of d) n += idf(w) ** 2;
    return n;
  });
  const jitters = documents.map((text) => seededRandom(stableHash(`rerank|${text}`))() * 1e-4);
  return (query) => {
    const q = terms(query);
    let qNorm = 0;
    for (const w of q) qNorm += idf(w) ** 2;
    return docs.map((d, i) => {
      let dot = 0;
      for (const w of q) if (d.has(w)) dot += idf(w) ** 2;
      const cosine = qNorm > 0 && norms[i]! > 0 ? dot / Math.sqrt(qNorm * norms[i]!) : 0;
      return round8(0.0001 + cosine * 0.9997 + jitters[i]!);
    });
  };
}

/**
 * The default score of every document for `query`, by index.
 * @example overlapScores("red apple", ["green pear", "red apple pie"]) // [0.0…, 0.8…]
 */
export function overlapScores(query: string, documents: string[]): number[] {
  return overlapScorer(documents)(query);
}
