/**
 * Azure OpenAI: the deployment, `/openai/responses` and v1 routes (chat, Responses, embeddings, images, audio), built
 * on the OpenAI surfaces, and the stored-response routes; every other `/openai/…` path is refused in Azure's error
 * shape.
 */
import type { ProviderModule } from "../../registry/module";
import { azureChat, azureCompletions, azureEmbeddings, azureImages, azureResponses, azureSpeech, azureTranscriptions } from "..";
import { azureStoredResponses } from "../stored";

export const azureModule: ProviderModule = {
  name: "azure",
  // Azure OpenAI: chat, Responses, embeddings, images and audio under /openai/deployments/{d}/… and /openai/v1/….
  banner: [{ name: "Azure: chat, images, audio", below: "", page: "providers/azure.md" }],
  surfaces: [azureChat, azureResponses, azureEmbeddings, azureCompletions, azureImages, azureSpeech, azureTranscriptions],
  sideRoutes: [azureStoredResponses],
  apiPrefixes: ["/openai/"],
  errorPaths: [{ priority: 15, owns: (_request, path) => path.startsWith("/openai/"), surface: azureChat }],
};
