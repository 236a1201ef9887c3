/**
 * Cohere rerank: `POST /v2/rerank` (`CohereClientV2.rerank`) and `POST /v1/rerank` (`CohereClient.rerank`), the shape
 * Jina and most gateways copy. Provider name `cohere`, endpoint `rerank` in matchers.
 */
import type { ProviderSurface } from "../types";
import { COHERE_ERRORS_AND_HEADERS } from "./errors";
import { parseRerankV1, parseRerankV2 } from "./parse";
import { renderRerankEvents, renderRerankJson, renderRerankStreamError } from "./render";
import type { RerankRequest } from "./wire";

const shared = {
  provider: "cohere",
  endpoint: "rerank",
  ...COHERE_ERRORS_AND_HEADERS,
  renderJson: renderRerankJson,
  renderEvents: renderRerankEvents,
  renderStreamError: renderRerankStreamError,
} as const satisfies Omit<ProviderSurface<RerankRequest>, "paths" | "parse">;

export const cohereRerankV2: ProviderSurface<RerankRequest> = { ...shared, paths: ["/v2/rerank"], parse: parseRerankV2 };
export const cohereRerankV1: ProviderSurface<RerankRequest> = { ...shared, paths: ["/v1/rerank"], parse: parseRerankV1 };
