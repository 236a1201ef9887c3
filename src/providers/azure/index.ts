/** Azure OpenAI (contract section 10): the OpenAI surfaces behind Azure's routes, gateway and content filter. */
export { azureChat } from "./chat";
export { azureResponses } from "./responses";
export { azureEmbeddings } from "./embeddings";
export { azureCompletions } from "./completions";
export { azureImages } from "./images";
export { azureSpeech, azureTranscriptions } from "./audio";
