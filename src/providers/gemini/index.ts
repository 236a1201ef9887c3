import type { ProviderSurface } from "../types";
import { checkGeminiAuth, GEMINI_FAILURE_MESSAGES, geminiFailureHeaders, renderGeminiError, renderGeminiLimited } from "./errors";
import { geminiTarget, parseGenerateContent } from "./parse";
import { isVertex, renderGenerateContentJson, renderSpeechRaw } from "./render-json";
import { validateThoughtSignatures } from "./signatures";
import { functionTurnsError } from "./function-turns";
import { renderGenerateContentEvents, renderGenerateContentStreamError, streamChunks } from "./render-stream";
import type { GeminiWire } from "./wire";
import { missingFileReference } from "./file-refs";
import { applyCachedContent } from "./cached-contents";
import { replyMedia } from "./media-output";

/**
 * Google Gemini (Developer API): `POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse` (also under `/v1` and `/v1alpha`, and for `tunedModels/…`).
 */
export const geminiGenerateContent: ProviderSurface<GeminiWire> = {
  provider: "gemini",
  endpoint: "generateContent",
  paths: [],
  matchPath: (path) => geminiTarget(path) !== undefined,
  requestIdHeader: "x-request-id",
  checkHeaders: checkGeminiAuth,
  parse: parseGenerateContent,
  // Schemas the API's proto parser refuses are answered first, then function turns out of order, then signatures.
  validate: (wire, request) => wire.refused ?? functionTurnsError(wire.body.contents, request) ?? validateThoughtSignatures(wire, request),
  // A `fileData.fileUri` naming a Files API file the caller's namespace does not have: the API's 403; a
  // `cachedContent`: the cache in front of the request (cached-contents.ts).
  prepare: (wire, request, rt) => {
    const checked = missingFileReference(wire.body.contents, rt);
    // Most requests name neither: answered without a promise.
    if (checked === undefined && wire.body.cachedContent === undefined) return { ok: true, wire, request };
    return (async () => {
      const missing = await checked;
      return missing ? { ok: false as const, error: missing } : applyCachedContent(wire, request, rt);
    })();
  },
  failureMessages: GEMINI_FAILURE_MESSAGES,
  renderError: renderGeminiError,
  failureHeaders: geminiFailureHeaders,
  renderLimited: (limit, retryAfterMs) => renderGeminiLimited(limit, retryAfterMs),
  // `:streamGenerateContent` without `?alt=sse` answers every chunk in one JSON array.
  renderJson: (reply, ctx) => (ctx.wire.method === "streamGenerateContent" ? streamChunks(reply, isVertex(ctx), replyMedia(reply, ctx)).map((c) => c.object) : renderGenerateContentJson(reply, ctx)),
  // Speech past 1 MiB of JSON is sent as it is made (render-json.ts).
  renderRaw: renderSpeechRaw,
  renderEvents: renderGenerateContentEvents,
  renderStreamError: renderGenerateContentStreamError,
};
