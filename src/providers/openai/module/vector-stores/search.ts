/**
 * Vector store search, lexical and deterministic: each file's text is split into chunks of its chunking strategy
 * (tokens counted as whitespace-separated words), chunks are ranked by BM25 over the query's terms, and a score is
 * mapped into (0, 1] as `s / (s + 1)`, rounded to 4 places; chunks sharing no term with the query are left out.
 * Attribute filters are OpenAI's comparison (`eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`, `nin`) and compound
 * (`and`, `or`) filters.
 */
import { unsupportedValue } from "../../request-error";

export interface ChunkingStrategy {
  type: "static";
  static: { max_chunk_size_tokens: number; chunk_overlap_tokens: number };
}

/** What `auto` means: 800-token chunks overlapping by 400. */
export const AUTO_CHUNKING: ChunkingStrategy = { type: "static", static: { max_chunk_size_tokens: 800, chunk_overlap_tokens: 400 } };

export type Attributes = Record<string, string | number | boolean>;

/** A file's text split into chunks of `size` words, each starting `size - overlap` words after the last. */
export function chunkText(text: string, strategy: ChunkingStrategy): string[] {
  const words = text.split(/\s+/).filter((w) => w !== "");
  if (words.length === 0) return [];
  const { max_chunk_size_tokens: size, chunk_overlap_tokens: overlap } = strategy.static;
  const step = Math.max(1, size - overlap);
  const chunks: string[] = [];
  for (let start = 0; start < words.length; start += step) {
    chunks.push(words.slice(start, start + size).join(" "));
    if (start + size >= words.length) break;
  }
  return chunks;
}

function terms(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export interface Chunk {
  fileId: string;
  filename: string;
  attributes: Attributes;
  text: string;
}

export interface Hit extends Chunk {
  score: number;
}

/** The chunks ranked by BM25 against `queries` (best first; ties by file id, then position), zero scores left out. */
export function rank(chunks: Chunk[], queries: string[]): Hit[] {
  const queryTerms = [...new Set(queries.flatMap(terms))];
  if (queryTerms.length === 0 || chunks.length === 0) return [];
  const docs = chunks.map((c) => terms(c.text));
  const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length || 1;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const k1 = 1.2;
  const b = 0.75;
  const hits: (Hit & { at: number })[] = [];
  docs.forEach((d, at) => {
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    let s = 0;
    for (const q of queryTerms) {
      const f = tf.get(q) ?? 0;
      if (f === 0) continue;
      const n = df.get(q) ?? 0;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      s += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / avg));
    }
    if (s > 0) hits.push({ ...(chunks[at] as Chunk), score: Math.max(0.0001, Math.round((s / (s + 1)) * 10_000) / 10_000), at });
  });
  hits.sort((x, y) => y.score - x.score || (x.fileId < y.fileId ? -1 : x.fileId > y.fileId ? 1 : 0) || x.at - y.at);
  return hits.map(({ at: _at, ...h }) => h);
}

const COMPARISONS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin"];

/** Why `filter` is not a valid filter (a message naming `param`), or undefined when it is. */
export function checkFilter(filter: unknown, param: string): string | undefined {
  if (typeof filter !== "object" || filter === null || Array.isArray(filter)) return `Invalid type for '${param}': expected an object.`;
  const f = filter as Record<string, unknown>;
  if (f.type === "and" || f.type === "or") {
    if (!Array.isArray(f.filters)) return `Missing required parameter: '${param}.filters'.`;
    for (const [i, sub] of f.filters.entries()) {
      const bad = checkFilter(sub, `${param}.filters[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (typeof f.type !== "string" || !COMPARISONS.includes(f.type)) {
    return unsupportedValue(f.type, [...COMPARISONS, "and", "or"], `${param}.type`).message;
  }
  if (typeof f.key !== "string") return `Missing required parameter: '${param}.key'.`;
  if (!("value" in f)) return `Missing required parameter: '${param}.value'.`;
  return undefined;
}

/** Whether attributes pass a (checked) filter. */
export function passes(filter: unknown, attributes: Attributes): boolean {
  const f = filter as Record<string, unknown>;
  if (f.type === "and") return (f.filters as unknown[]).every((s) => passes(s, attributes));
  if (f.type === "or") return (f.filters as unknown[]).some((s) => passes(s, attributes));
  const actual = attributes[f.key as string];
  const want = f.value;
  switch (f.type) {
    case "eq":
      return actual === want;
    case "ne":
      return actual !== want;
    case "in":
      return Array.isArray(want) && want.includes(actual);
    case "nin":
      return Array.isArray(want) && !want.includes(actual);
  }
  if (actual === undefined || typeof actual === "boolean" || typeof want !== typeof actual) return false;
  const a = actual as number | string;
  const w = want as number | string;
  if (f.type === "gt") return a > w;
  if (f.type === "gte") return a >= w;
  if (f.type === "lt") return a < w;
  return a <= w;
}
