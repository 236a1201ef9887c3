/**
 * Azure OpenAI: the deployment, `/openai/responses` and v1 routes, built on the OpenAI surfaces; every other
 * `/openai/…` path is refused in Azure's error shape.
 */
import type { ProviderModule } from "../module";
import { azureChat, azureEmbeddings, azureResponses } from ".";

export const azureModule: ProviderModule = {
  name: "azure",
  surfaces: [azureChat, azureResponses, azureEmbeddings],
  apiPrefixes: ["/openai/"],
  errorPaths: [{ priority: 15, owns: (_request, path) => path.startsWith("/openai/"), surface: azureChat }],
};
