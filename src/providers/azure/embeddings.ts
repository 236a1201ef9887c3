/**
 * Azure OpenAI Embeddings: `POST /openai/deployments/{deployment}/embeddings?api-version=…` and
 * `/openai/v1/embeddings`. OpenAI's parse and renderers behind Azure's gateway.
 */
import { openaiEmbeddings } from "../openai/embeddings";
import type { EmbeddingsRequest } from "../openai/embeddings/wire";
import type { ProviderSurface } from "../types";
import { azureCommon } from "./common";
import { azureParse, type AzureWire } from "./wire";

export const azureEmbeddings: ProviderSurface<AzureWire<EmbeddingsRequest>> = {
  ...openaiEmbeddings,
  ...azureCommon<EmbeddingsRequest>("embeddings"),
  parse: azureParse(openaiEmbeddings.parse, "embeddings"),
};
