/**
 * What clients send to Cohere's `POST /v2/rerank` and `/v1/rerank`. Loose: unknown fields pass.
 */
import { z } from "zod";
import { lazily } from "../../util/memo";

/** Built on the first rerank request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const rerankWire = lazily(() => {
  const common = {
    query: z.string(),
    top_n: z.number().int().nullish(),
    return_documents: z.boolean().nullish(),
  };

  /** v2: `model` is required and documents are strings. */
  const RerankV2Schema = z.looseObject({
    ...common,
    model: z.string(),
    documents: z.array(z.string()),
    max_tokens_per_doc: z.number().int().nullish(),
    priority: z.number().int().nullish(),
  });

  /** v1: documents may be objects (`{ text, … }`, or the fields `rank_fields` names). */
  const RerankV1Schema = z.looseObject({
    ...common,
    model: z.string().nullish(),
    documents: z.array(z.union([z.string(), z.record(z.string(), z.unknown())])),
    rank_fields: z.array(z.string()).nullish(),
    max_chunks_per_doc: z.number().int().nullish(),
  });
  return { RerankV2Schema, RerankV1Schema };
});

export type RerankVersion = "1" | "2";

/** One document as given, and the text it is ranked by. */
export interface RerankDocument {
  text: string;
  /** What `return_documents` sends back: `{ text }` for a string, the object as given for an object (v1). */
  returned: Record<string, unknown>;
}

/** The parsed request. */
export interface RerankRequest {
  version: RerankVersion;
  query: string;
  documents: RerankDocument[];
  topN?: number;
  returnDocuments: boolean;
}
