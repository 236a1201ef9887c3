/** Cohere's rerank (`/v2/rerank`, `/v1/rerank`), the shape Voyage, Jina and most gateways copy. */
import type { ProviderModule } from "../../registry/module";
import { cohereRerankV1, cohereRerankV2 } from "..";

export const cohereModule: ProviderModule = {
  name: "cohere",
  surfaces: [cohereRerankV2, cohereRerankV1],
  banner: [{ name: "Rerank (Cohere)", below: "", page: "providers/cohere-rerank.md", group: "beside" }],
};
