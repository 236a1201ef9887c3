/**
 * The tool-call ids a client sees in a reply, per provider, taken from the renderers themselves (a scripted id, else
 * the one each provider derives from the reply's idSeed), so the journal's canonical view never drifts from the wire.
 */
import { replyChoices, type Reply } from "../canonical/outcome";
import type { Endpoint, ProviderName } from "../canonical/request";
import { converseBlocks } from "./bedrock/render-converse";
import { replyBlocks } from "./anthropic/blocks";
import { ollamaMessage } from "./ollama/render-json";
import { chatToolCalls } from "./openai/chat/render-json";

/**
 * One id per tool call, in order, over the reply and its `extraChoices`; null where the wire carries none (Gemini
 * calls without a scripted id).
 * `endpoint` tells the clouds' surfaces apart (Bedrock Converse ids are `tooluse_…`, InvokeModel's Anthropic's).
 * @example wireToolCallIds("anthropic", reply) // ["toolu_01…"]
 */
export function wireToolCallIds(provider: ProviderName, reply: Reply, endpoint?: Endpoint): (string | null)[] {
  switch (provider) {
    case "bedrock":
      if (endpoint === "converse") return converseBlocks(reply).flatMap((b) => (b.kind === "toolUse" ? [b.toolUseId] : []));
      return wireToolCallIds("anthropic", reply);
    case "vertex":
      return wireToolCallIds(endpoint === "generateContent" ? "gemini" : "anthropic", reply);
    case "anthropic":
      return replyBlocks(reply).flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
    case "ollama":
      return ollamaMessage(reply).toolCalls.map((c) => c.id);
    case "gemini":
      return replyChoices(reply).flatMap((c) => c.toolCalls.map((call) => call.id ?? null));
    case "openai":
    case "azure":
    case "cohere":
      // Chat Completions and Responses (`call_id`) derive the same ids.
      return replyChoices(reply).flatMap((c) => chatToolCalls(c).map((t) => t.id));
  }
}
