/**
 * What clients send to the legacy `POST /v1/completions` (the OpenAI SDK's `client.completions`, LangChain's `OpenAI`,
 * the Vercel AI SDK's `openai.completion(…)`, editors' autocomplete). Loose: unknown fields pass.
 */
import { z } from "zod";
import { lazily } from "../../../util/memo";

/** Built on the first completions request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const completionsWire = lazily(() => {
  const Tokens = z.array(z.number().int());
  const CompletionsBodySchema = z.looseObject({
    model: z.string().min(1),
    /** A string, strings, token ids, or lists of token ids; `null` (the API's default) is the start of a document. */
    prompt: z.union([z.string(), z.array(z.string()), Tokens, z.array(Tokens), z.null()]),
    suffix: z.string().nullish(),
    max_tokens: z.number().int().nullish(),
    temperature: z.number().nullish(),
    top_p: z.number().nullish(),
    n: z.number().int().nullish(),
    best_of: z.number().int().nullish(),
    stream: z.boolean().nullish(),
    stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
    logprobs: z.number().int().nullish(),
    echo: z.boolean().nullish(),
    stop: z.union([z.string(), z.array(z.string())]).nullish(),
    presence_penalty: z.number().nullish(),
    frequency_penalty: z.number().nullish(),
    logit_bias: z.record(z.string(), z.number()).nullish(),
    seed: z.number().int().nullish(),
    user: z.string().nullish(),
  });
  return { CompletionsBodySchema };
});

export type CompletionsBody = z.output<ReturnType<typeof completionsWire>["CompletionsBodySchema"]>;

/** The parsed body and its prompts as text (token ids joined by spaces, as the engine matches them). */
export interface CompletionsRequest {
  body: CompletionsBody;
  prompts: string[];
}
