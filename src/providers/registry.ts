/**
 * Every provider surface, in one list. Adding a provider = a folder + a line here.
 */
import { anthropicMessages } from "./anthropic";
import { bedrockConverse, bedrockInvoke } from "./bedrock";
import { vertexClaude, vertexGemini } from "./vertex";
import { geminiGenerateContent } from "./gemini";
import { openaiChat } from "./openai/chat";
import { openaiEmbeddings } from "./openai/embeddings";
import { openaiResponses } from "./openai/responses";
import { ollamaChat, ollamaGenerate } from "./ollama";
import type { ProviderSurface } from "./types";

export const SURFACES: ProviderSurface<any>[] = [openaiChat, openaiResponses, openaiEmbeddings, anthropicMessages, geminiGenerateContent, ollamaChat, ollamaGenerate, bedrockConverse, bedrockInvoke, vertexGemini, vertexClaude];

/** The surface serving `path` (already stripped of any `/s/…` prefix), if any. */
export function surfaceFor(path: string): ProviderSurface<any> | undefined {
  let found = surfaceCache.get(path);
  if (found === undefined) {
    found = SURFACES.find((s) => s.paths.includes(path) || s.matchPath?.(path) === true) ?? null;
    if (surfaceCache.size >= SURFACE_CACHE_SIZE) surfaceCache.clear();
    surfaceCache.set(path, found);
  }
  return found ?? undefined;
}

/** surfaceFor's answers (a fixed function of the path; every request asks): bounded, cleared when full. */
const surfaceCache = new Map<string, ProviderSurface<any> | null>();
const SURFACE_CACHE_SIZE = 1024;
