/** Cohere: Chat (`/v2/chat`, `/v1/chat`), Embed (`/v2/embed`, `/v1/embed`) and rerank (`/v2/rerank`, `/v1/rerank`), the shape Voyage, Jina and most gateways copy. */
import type { ProviderModule } from "../../registry/module";
import { cohereRerankV1, cohereRerankV2 } from "..";
import { cohereChat, cohereChatV1 } from "../chat";
import { cohereToolCallIds } from "../chat-render";
import { cohereModelsRoute } from "../models";
import { cohereEmbedV1, cohereEmbedV2 } from "../embed";

export const cohereModule: ProviderModule = {
  name: "cohere",
  surfaces: [cohereChat, cohereChatV1, cohereRerankV2, cohereRerankV1, cohereEmbedV2, cohereEmbedV1],
  // `GET /v1/models` for Cohere's SDKs (the path is OpenAI's too: told apart by the SDK's header).
  sideRoutes: [cohereModelsRoute],
  toolCallIds: cohereToolCallIds,
  recordable: true,
  banner: [
    { name: "Cohere", below: "", page: "providers/cohere.md" },
    { name: "Rerank (Cohere)", below: "", page: "providers/cohere-rerank.md", group: "beside" },
    { name: "Embed (Cohere)", below: "", page: "providers/cohere-embed.md", group: "beside" },
  ],
};
