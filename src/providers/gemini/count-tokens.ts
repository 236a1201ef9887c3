/**
 * Gemini's `POST /{version}/models/{model}:countTokens` (`models.countTokens` in `@google/genai`): `{ contents }` or
 * `{ generateContentRequest }` → `{ totalTokens, promptTokensDetails }`, the same deterministic estimate as Anthropic's
 * count (⌈characters / 4⌉ over the system text, every part's text, calls and results, and the tools), read through
 * generateContent's own parse, so a body generateContent refuses is refused here in the same words.
 */
import { readJsonBody } from "../../http/body";
import { apiError, type ApiError } from "../../http/errors";
import { isRecord, jsonResponse } from "../../http/json";
import { estimateInputTokens } from "../anthropic/count-tokens";
import type { SideRoute } from "../types";
import { checkGeminiAuth } from "./errors";
import { parseGenerateContent } from "./parse";
import { safeDecode } from "../../http/url";

/**
 * The estimate for a countTokens body (`{ contents }` or `{ generateContentRequest }`) to `model`: the tokens and the
 * characters counted, or generateContent's refusal of it.
 */
export function estimateGeminiTokens(value: unknown, headers: Headers, model: string, query: URLSearchParams): { tokens: number; characters: number } | ApiError {
  const inner =
    isRecord(value) && isRecord(value.generateContentRequest) ? value.generateContentRequest : isRecord(value) && isRecord(value.generate_content_request) ? value.generate_content_request : value;
  const { model: _model, ...generate } = isRecord(inner) ? inner : {};
  const parsed = parseGenerateContent(generate, headers, { path: `/v1beta/models/${model}:generateContent`, query });
  if (!parsed.ok) return parsed.error;
  const tokens = estimateInputTokens(parsed.request, parsed.wire.body.tools ?? []);
  const r = parsed.request;
  const characters = r.system.length + r.messages.reduce((n, m) => n + (m.role === "tool" ? m.content.length : m.text.length), 0);
  return { tokens, characters };
}

/**
 * A countTokens route: `path`'s first group the model (percent-decoded), `check` the provider's auth, `answer` the
 * body from the estimate. The Gemini API's below; Vertex AI's in ../vertex/embeddings.ts.
 */
export function countTokensRoute(
  path: RegExp,
  check: (headers: Headers, target: { query: URLSearchParams }) => ApiError | undefined,
  answer: (counted: { tokens: number; characters: number }) => unknown,
): SideRoute {
  return {
    knows: (p) => path.test(p),
    async serve(request, p, ctx) {
      const m = path.exec(p);
      if (!m) return undefined;
      if (request.method !== "POST") return ctx.refuse(apiError("method_not_allowed", `Use POST for ${p}.`));
      const query = new URL(request.url).searchParams;
      const auth = check(request.headers, { query });
      if (auth) return ctx.refuse(auth);
      const body = await readJsonBody(request);
      if (!body.ok) return ctx.refuse(body.error);
      const counted = estimateGeminiTokens(body.value, request.headers, safeDecode(m[1]!), query);
      return "code" in counted ? ctx.refuse(counted) : jsonResponse(answer(counted));
    },
  };
}

export const geminiCountTokens = countTokensRoute(/^\/(?:v1beta|v1alpha|v1)\/models\/([^/:]+)(?::|%3A)countTokens$/i, checkGeminiAuth, ({ tokens }) => ({
  totalTokens: tokens,
  promptTokensDetails: [{ modality: "TEXT", tokenCount: tokens }],
}));
