/**
 * Gemini (the Developer API): generateContent, the Interactions API, decisions, embeddings, Imagen, token counts, the Files API,
 * context caches, batch mode, ephemeral tokens, the model listing, and Gemini Live over WebSocket.
 */
import { replyChoices, type Reply } from "../../../canonical/outcome";
import { liveSocket } from "./sockets/live";
import type { ProviderModule, SocketSurface } from "../../registry/module";
import { MAX_BODY_BYTES } from "../../../http/body";
import { geminiGenerateContent } from "../index";
import { checkGeminiAuth } from "../errors";
import { geminiModelsRoute } from "../models";
import { geminiAuthTokens } from "../auth-tokens";
import { knowsGeminiBatchPath, serveGeminiBatches } from "./batches/batches";
import { geminiInteractions, geminiStoredInteractions } from "../interactions";
import { geminiFilesRoute } from "./files/files";
import { geminiEmbeddings } from "../embeddings";
import { geminiCountTokens } from "../count-tokens";
import { geminiCachesRoute } from "./caches/caches";
import { geminiImagen } from "../imagen";
import { geminiDecisions } from "../decisions";

/** Gemini calls carry no id unless the scenario scripted one. */
export function geminiToolCallIds(reply: Reply): (string | null)[] {
  return replyChoices(reply).flatMap((c) => c.toolCalls.map((call) => call.id ?? null));
}

const LIVE_PATH = /^\/+ws\/google\.ai\.generativelanguage\.(v1|v1alpha|v1beta)\.GenerativeService\.BidiGenerateContent(Constrained)?$/;

const liveWebSocket: SocketSurface = {
  kind: "live",
  endpoint: "bidiGenerateContent",
  matchPath: (path) => LIVE_PATH.test(path),
  surface: geminiGenerateContent,
  // An ephemeral token (`?access_token=auth_tokens/…`, what `@google/genai` sends on the constrained path) was checked
  // by the gate before the upgrade got here.
  check: (headers, query) => (query.get("access_token")?.startsWith("auth_tokens/") ? undefined : checkGeminiAuth(headers, { query })),
  initPath: (path) => path.replace(/^\/+/, "/"),
  open: liveSocket,
  // A turn carries what generateContent's body does: the same 10 MiB as HTTP.
  maxMessageBytes: MAX_BODY_BYTES,
};

const isModels = (path: string) => path === "/v1/models" || path.startsWith("/v1/models/");

export const geminiModule: ProviderModule = {
  name: "gemini",
  banner: [{ name: "Gemini", below: "", page: "providers/gemini.md" }],
  surfaces: [geminiGenerateContent, geminiInteractions, geminiEmbeddings, geminiImagen, geminiDecisions],
  sideRoutes: [
    geminiStoredInteractions,
    geminiFilesRoute,
    geminiCountTokens,
    geminiCachesRoute,
    { serve: (request, path, ctx) => geminiModelsRoute(request, path, ctx.rt, () => ctx.modelIds()) },
    // Batch mode with inline requests (contract section 11), in the caller's namespace (`Runtime.objects`).
    // Before OpenAI's `/v1/batches` route, which the Gemini client also reads a job at (with Google's key).
    { order: -1, knows: knowsGeminiBatchPath, serve: (request, path, ctx) => serveGeminiBatches(request, path, ctx) },
    geminiAuthTokens,
  ],
  sockets: [liveWebSocket],
  errorPaths: [
    {
      priority: 40,
      owns: (request, path) => /^\/v1(beta|alpha)(\/|$)/.test(path) || request.headers.has("x-goog-api-key") || (isModels(path) && new URL(request.url).searchParams.has("key")),
      surface: geminiGenerateContent,
    },
  ],
  toolCallIds: geminiToolCallIds,
  recordable: true,
};
