/**
 * Every provider surface, in one list. Adding a provider = a folder + a line here.
 */
import { memoized } from "../http/memo";
import { anthropicMessages } from "./anthropic";
import { azureChat, azureEmbeddings, azureResponses } from "./azure";
import { bedrockConverse, bedrockInvoke } from "./bedrock";
import { vertexClaude, vertexGemini } from "./vertex";
import { geminiGenerateContent } from "./gemini";
import { openaiChat } from "./openai/chat";
import { openaiEmbeddings } from "./openai/embeddings";
import { openaiModerations } from "./openai/moderations";
import { cohereRerankV1, cohereRerankV2 } from "./cohere";
import { openaiImages } from "./openai/images";
import { openaiSpeech, openaiTranscriptions } from "./openai/audio";
import { openaiResponses, openaiResponsesCompact } from "./openai/responses";
import { ollamaChat, ollamaGenerate } from "./ollama";
import type { ProviderSurface } from "./types";

export const SURFACES: ProviderSurface<any>[] = [openaiChat, openaiResponses, openaiResponsesCompact, openaiEmbeddings, openaiImages, openaiSpeech, openaiTranscriptions, anthropicMessages, geminiGenerateContent, ollamaChat, ollamaGenerate, bedrockConverse, bedrockInvoke, vertexGemini, vertexClaude, openaiModerations, cohereRerankV2, cohereRerankV1, azureChat, azureResponses, azureEmbeddings];

/** The surface serving `path` (already stripped of any `/s/…` prefix), if any. Every request asks: memoised per path. */
export const surfaceFor: (path: string) => ProviderSurface<any> | undefined = memoized((path) =>
  SURFACES.find((s) => s.paths.includes(path) || s.matchPath?.(path) === true),
);
