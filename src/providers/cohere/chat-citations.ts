/**
 * Cohere Chat's citations for a request's `documents` (RAG): each sentence of the answer's text cites the document it
 * shares the most distinctive words with (rerank's lexical overlap, score.ts), when it shares enough, as
 * `{ start, end, text, sources: [{ type: "document", id, document }], type: "TEXT_CONTENT" }` — the shape recorded
 * from the API (the Vercel AI SDK's `cohere-citations` fixture). Deterministic: a scripted text that quotes a document
 * cites it; the default responder's lorem text cites nothing. `citation_options.mode` `OFF` (or `DISABLED`) turns them off.
 */
import { overlapScorer } from "./score";

/** A document as the answer's sources show it: its id (`doc:{i}` unless the client gave one) and its fields. */
export interface CohereDocument {
  id: string;
  /** The words it is matched by: its string, or its fields' string values joined (cut to its share of MATCHED_CHARS). */
  text: string;
  document: Record<string, unknown>;
}

export interface CohereCitation {
  start: number;
  end: number;
  text: string;
  sources: { type: "document"; id: string; document: Record<string, unknown> }[];
  type: "TEXT_CONTENT";
}

/** The least overlap (rerank's score, 0–1) at which a sentence cites a document. */
const MIN_SCORE = 0.2;
/** Sentences looked at, from the start: the work stays bounded by the answer and the documents however long the text. */
const MAX_SENTENCES = 256;
/** Documents read for citations: Cohere's own limit on `documents` is lower. */
const MAX_DOCUMENTS = 1000;
/** Characters of the documents' text matched, in all — an equal share of each document's, from its start: a bound on the work and the memory. */
const MATCHED_CHARS = 1 << 20;

const SENTENCE = /[^.!?\n]+[.!?]*/g;

/**
 * The request's documents: a string is `{ id: "doc:{i}", text }`; an object `{ id?, data }` is its `data` (an object's
 * fields, or `{ text }` for a string) with its id first. Anything else is skipped.
 * @example cohereDocuments(["Paris is in France."]) // [{ id: "doc:0", text: "Paris is in France.", document: { id: "doc:0", text: "Paris is in France." } }]
 */
export function cohereDocuments(documents: readonly unknown[] | null | undefined): CohereDocument[] {
  const out: CohereDocument[] = [];
  const read = (documents ?? []).slice(0, MAX_DOCUMENTS);
  const share = Math.floor(MATCHED_CHARS / Math.max(1, read.length));
  const matched = (text: string) => text.slice(0, share);
  for (const [i, d] of read.entries()) {
    if (typeof d === "string") {
      const id = `doc:${i}`;
      out.push({ id, text: matched(d), document: { id, text: d } });
      continue;
    }
    if (typeof d !== "object" || d === null) continue;
    const { id: given, data } = d as { id?: unknown; data?: unknown };
    const id = typeof given === "string" && given !== "" ? given : `doc:${i}`;
    const fields = typeof data === "string" ? { text: data } : typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
    if (fields === undefined) continue;
    const text = Object.values(fields)
      .filter((v): v is string => typeof v === "string")
      .join("\n");
    out.push({ id, text: matched(text), document: { id, ...fields } });
  }
  return out;
}

/**
 * The citations an answer's text makes of the request's `documents`: none for a turn that calls tools, without
 * documents, or with citations off (`mode`: v2's `citation_options.mode`, v1's `citation_quality`, `OFF` or `DISABLED`).
 */
export function answerCitations(text: string, callsTools: boolean, documents: readonly unknown[] | null | undefined, mode: unknown): CohereCitation[] {
  if (callsTools || !documents?.length || mode === "OFF" || mode === "DISABLED") return [];
  return cohereCitations(text, cohereDocuments(documents));
}

/**
 * The citations of `text` among `documents`: one per sentence that shares enough with a document, spanning the
 * sentence without its surrounding spaces.
 * @example cohereCitations("Paris is the capital.", cohereDocuments(["Paris is the capital of France."]))[0]?.text // "Paris is the capital."
 */
export function cohereCitations(text: string, documents: CohereDocument[]): CohereCitation[] {
  if (text === "" || documents.length === 0) return [];
  const score = overlapScorer(documents.map((d) => d.text));
  const out: CohereCitation[] = [];
  let seen = 0;
  for (const m of text.matchAll(SENTENCE)) {
    if (++seen > MAX_SENTENCES) break;
    const lead = m[0].length - m[0].trimStart().length;
    const sentence = m[0].trim();
    if (sentence === "") continue;
    const scores = score(sentence);
    let best = 0;
    for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
    if (scores[best]! < MIN_SCORE) continue;
    const start = m.index! + lead;
    const doc = documents[best]!;
    out.push({ start, end: start + sentence.length, text: sentence, sources: [{ type: "document", id: doc.id, document: doc.document }], type: "TEXT_CONTENT" });
  }
  return out;
}
