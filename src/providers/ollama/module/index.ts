/**
 * Ollama: `/api/chat`, `/api/generate`, and the side routes its clients ask for (`/api/tags`, `/api/show`,
 * `/api/version`); every other `/api/…` path is Ollama's 404.
 */
import type { Reply } from "../../../canonical/outcome";
import type { ProviderModule } from "../../registry/module";
import { ollamaChat, ollamaGenerate } from "../index";
import { ollamaMessage } from "../render-json";
import { OLLAMA_SIDE_PATHS, ollamaSideRoute } from "../routes";

export function ollamaToolCallIds(reply: Reply): (string | null)[] {
  return ollamaMessage(reply).toolCalls.map((c) => c.id);
}

export const ollamaModule: ProviderModule = {
  name: "ollama",
  banner: [{ name: "Ollama", below: "", page: "providers/ollama.md" }],
  surfaces: [ollamaChat, ollamaGenerate],
  sideRoutes: [{ paths: OLLAMA_SIDE_PATHS, serve: (request, path, ctx) => ollamaSideRoute(request, path, ctx.rt, () => ctx.modelIds()) }],
  errorPaths: [{ priority: 10, owns: (_request, path) => path === "/api" || path.startsWith("/api/"), surface: ollamaChat }],
  toolCallIds: ollamaToolCallIds,
  recordable: true,
};
