/**
 * What clients send to `POST /v1/embeddings`. Loose: unknown fields pass.
 */
import { z } from "zod";
import { lazily } from "../../../util/memo";

/** Built on the first Embeddings request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const embeddingsWire = lazily(() => {
  const EmbeddingsRequestSchema = z.looseObject({
    model: z.string().min(1),
    /** A string, strings, a token array, or token arrays. */
    input: z.union([z.string(), z.array(z.string()), z.array(z.number().int()), z.array(z.array(z.number().int()))]),
    encoding_format: z.enum(["float", "base64"]).nullish(),
    dimensions: z.number().int().nullish(),
    user: z.string().nullish(),
  });
  return { EmbeddingsRequestSchema };
});
export type EmbeddingsBody = z.output<ReturnType<typeof embeddingsWire>["EmbeddingsRequestSchema"]>;

/** The parsed request: the body and its inputs, one text (or token list) each. */
export interface EmbeddingsRequest {
  body: EmbeddingsBody;
  inputs: EmbeddingInput[];
}

export type EmbeddingInput = { kind: "text"; text: string } | { kind: "tokens"; tokens: number[] };
