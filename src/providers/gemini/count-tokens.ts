/**
 * Gemini's `POST /{version}/models/{model}:countTokens` (`models.countTokens` in `@google/genai`): `{ contents }` or
 * `{ generateContentRequest }` → `{ totalTokens, promptTokensDetails }`, the same deterministic estimate as Anthropic's
 * count (⌈characters / 4⌉ over the system text, every part's text, calls and results, and the tools), read through
 * generateContent's own parse, so a body generateContent refuses is refused here in the same words.
 */
import { readJsonBody } from "../../http/body";
import { apiError } from "../../http/errors";
import { isRecord, jsonResponse } from "../../http/json";
import { estimateInputTokens } from "../anthropic/count-tokens";
import type { SideRoute } from "../types";
import { checkGeminiAuth } from "./errors";
import { parseGenerateContent } from "./parse";

const PATH = /^\/(v1beta|v1alpha|v1)\/models\/([^/:]+)(?::|%3A)countTokens$/i;

export const geminiCountTokens: SideRoute = {
  knows: (path) => PATH.test(path),
  async serve(request, path, ctx) {
    const m = PATH.exec(path);
    if (!m) return undefined;
    if (request.method !== "POST") return ctx.refuse(apiError("method_not_allowed", `Use POST for ${path}.`));
    const query = new URL(request.url).searchParams;
    const auth = checkGeminiAuth(request.headers, { query });
    if (auth) return ctx.refuse(auth);
    const body = await readJsonBody(request);
    if (!body.ok) return ctx.refuse(body.error);
    const value = body.value;
    const inner =
      isRecord(value) && isRecord(value.generateContentRequest) ? value.generateContentRequest : isRecord(value) && isRecord(value.generate_content_request) ? value.generate_content_request : value;
    const { model: _model, ...generate } = isRecord(inner) ? inner : {};
    const parsed = parseGenerateContent(generate, request.headers, { path: `/${m[1]}/models/${m[2]}:generateContent`, query });
    if (!parsed.ok) return ctx.refuse(parsed.error);
    const total = estimateInputTokens(parsed.request, parsed.wire.body.tools ?? []);
    return jsonResponse({ totalTokens: total, promptTokensDetails: [{ modality: "TEXT", tokenCount: total }] });
  },
};
