/**
 * Google Vertex AI: Gemini and Claude publisher models, Google's embedding models, Imagen, and both token counts. Signed
 * requests: not recorded.
 */
import type { Reply } from "../../../canonical/outcome";
import type { Endpoint } from "../../../canonical/request";
import { anthropicToolCallIds } from "../../anthropic/module";
import { geminiToolCallIds } from "../../gemini/module";
import type { ProviderModule } from "../../registry/module";
import { vertexClaude, vertexGemini } from "../index";
import { vertexCountTokens } from "../count-tokens";
import { isVertexCountTokens } from "../paths";
import { vertexEmbeddings, vertexGeminiCountTokens } from "../embeddings";
import { vertexImagen } from "../../gemini/imagen";

/** Gemini's ids for Gemini models, Anthropic's for Claude. */
export function vertexToolCallIds(reply: Reply, endpoint: Endpoint | undefined): (string | null)[] {
  return endpoint === "generateContent" ? geminiToolCallIds(reply) : anthropicToolCallIds(reply);
}

export const vertexModule: ProviderModule = {
  name: "vertex",
  surfaces: [vertexGemini, vertexClaude, vertexEmbeddings, vertexImagen],
  sideRoutes: [{ knows: isVertexCountTokens, serve: (request, path) => (isVertexCountTokens(path) ? vertexCountTokens(request) : undefined) }, vertexGeminiCountTokens],
  endpoints: ["count_tokens"],
  toolCallIds: vertexToolCallIds,
};
