/**
 * Cohere rerank bodies → canonical request: the query is the user message (so `lastUserMessage` matches it), the
 * documents stay on the wire for the renderer. Messages follow docs.cohere.com/reference/errors (`invalid request: …`).
 */
import { headerRecord } from "../../http/headers";
import { inputsRequest } from "../../canonical/request";
import type { ApiError } from "../../http/errors";
import type { ParseResult } from "../types";
import { firstWireIssue } from "../wire-issues";
import { rerankWire, type RerankDocument, type RerankRequest, type RerankVersion } from "./wire";
import { safeParseFast } from "../../util/fast-parse";

/** Most documents one v2 request may carry (Cohere's stated ceiling). */
export const MAX_RERANK_DOCUMENTS = 1000;
/** v1: documents × `max_chunks_per_doc` must stay below this. */
export const MAX_RERANK_CHUNKS = 10_000;
/** v1's `max_chunks_per_doc` when the request sets none. */
const DEFAULT_CHUNKS_PER_DOC = 10;
/** The model a v1 request without one is ranked by. */
export const DEFAULT_V1_RERANK_MODEL = "rerank-english-v2.0";

/** A 400 in Cohere's words: `invalid request: …`. */
export function invalid(message: string): ApiError {
  return { code: "invalid_request", message: `invalid request: ${message}` };
}

/** A body that does not fit the schema: the field missing, or wrong and why. */
export function issueError(error: Parameters<typeof firstWireIssue>[0]): ApiError {
  const issue = firstWireIssue(error);
  const param = issue.param === "" ? "body" : issue.param;
  return invalid(issue.missing ? `${param} is required` : `${param} is invalid: ${error.issues[0]?.message ?? "wrong type"}`);
}

/** A v1 object document's text: the `rank_fields` it names (`key: value` lines), else its `text` field. */
function objectText(doc: Record<string, unknown>, rankFields: string[] | undefined): string | undefined {
  if (rankFields && rankFields.length > 0) {
    return rankFields.flatMap((f) => (doc[f] === undefined ? [] : [`${f}: ${typeof doc[f] === "string" ? doc[f] : JSON.stringify(doc[f])}`])).join("\n");
  }
  return typeof doc.text === "string" ? doc.text : undefined;
}

/** The checks both versions share, after the shape is known. */
function checkCommon(query: string, documents: unknown[], topN: number | null | undefined): ApiError | undefined {
  if (query.trim() === "") return invalid("query must not be empty or be only whitespace");
  if (documents.length === 0) return invalid("list of documents must not be empty");
  if (topN !== undefined && topN !== null && topN < 1) return invalid("top_n must be greater than 0");
  return undefined;
}

function result(version: RerankVersion, query: string, documents: RerankDocument[], topN: number | null | undefined, returnDocuments: boolean): RerankRequest {
  return { version, query, documents, returnDocuments, ...(topN !== undefined && topN !== null ? { topN } : {}) };
}

export function parseRerankV2(raw: unknown, headers: Headers): ParseResult<RerankRequest> {
  const parsed = safeParseFast(rerankWire().RerankV2Schema, raw);
  if (!parsed.success) return { ok: false, error: issueError(parsed.error) };
  const body = parsed.data;
  if (body.model.trim() === "") return { ok: false, error: invalid("model is required") };
  const bad = checkCommon(body.query, body.documents, body.top_n);
  if (bad) return { ok: false, error: bad };
  if (body.documents.length > MAX_RERANK_DOCUMENTS) {
    return { ok: false, error: invalid(`too many documents: received ${body.documents.length}, the maximum is ${MAX_RERANK_DOCUMENTS}`) };
  }
  if (body.max_tokens_per_doc !== undefined && body.max_tokens_per_doc !== null && body.max_tokens_per_doc < 1) {
    return { ok: false, error: invalid("max_tokens_per_doc must be greater than 0") };
  }
  const documents = body.documents.map((text) => ({ text, returned: { text } }));
  const wire = result("2", body.query, documents, body.top_n, body.return_documents === true);
  return { ok: true, wire, request: inputsRequest("cohere", "rerank", body.model, [body.query], headerRecord(headers)) };
}

export function parseRerankV1(raw: unknown, headers: Headers): ParseResult<RerankRequest> {
  const parsed = safeParseFast(rerankWire().RerankV1Schema, raw);
  if (!parsed.success) return { ok: false, error: issueError(parsed.error) };
  const body = parsed.data;
  const bad = checkCommon(body.query, body.documents, body.top_n);
  if (bad) return { ok: false, error: bad };
  // At least one chunk per document: zero or less would defeat the chunk limit below.
  if (body.max_chunks_per_doc !== undefined && body.max_chunks_per_doc !== null && body.max_chunks_per_doc < 1) {
    return { ok: false, error: invalid("max_chunks_per_doc must be greater than 0") };
  }
  const chunks = body.documents.length * (body.max_chunks_per_doc ?? DEFAULT_CHUNKS_PER_DOC);
  if (chunks > MAX_RERANK_CHUNKS) {
    return { ok: false, error: invalid(`number of total max chunks (number of documents * max chunks per doc) must be less than ${MAX_RERANK_CHUNKS}`) };
  }
  const documents: RerankDocument[] = [];
  for (const [i, doc] of body.documents.entries()) {
    if (typeof doc === "string") {
      documents.push({ text: doc, returned: { text: doc } });
      continue;
    }
    const text = objectText(doc, body.rank_fields ?? undefined);
    if (text === undefined) return { ok: false, error: invalid(`documents[${i}] must have a text field, or rank_fields must name its fields`) };
    documents.push({ text, returned: doc });
  }
  const model = body.model ?? DEFAULT_V1_RERANK_MODEL;
  const wire = result("1", body.query, documents, body.top_n, body.return_documents === true);
  return { ok: true, wire, request: inputsRequest("cohere", "rerank", model, [body.query], headerRecord(headers)) };
}
