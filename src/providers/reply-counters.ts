/**
 * Loads a reply counter by the name a surface gave (`ProviderSurface.replyCounter`, src/canonical/reply-tokens.ts)
 * in an isolate that has not counted with it yet: the Workers session object, which may run apart from the turn that
 * named it (hosts/workers/session-object.ts). An OpenAI encoding's ranks are fetched on first use; the
 * approximations (`chars/4`) are defined when their module loads.
 */
import { hasReplyCounter } from "../canonical/reply-tokens";
import { loadEncoder } from "./openai/usage/count";

/**
 * Defines the counter `name` in this isolate if it can be.
 * @example await loadReplyCounter("o200k_base")
 */
export async function loadReplyCounter(name: string): Promise<void> {
  if (hasReplyCounter(name)) return;
  if (name === "o200k_base" || name === "cl100k_base") await loadEncoder(name);
}
