/**
 * Model aliases and the dated snapshots the real APIs answer with: a request for `gpt-4.1-nano` is answered by
 * `gpt-4.1-nano-2025-04-14`, one for `claude-sonnet-4-5` by `claude-sonnet-4-5-20250929`. mockllm names the
 * snapshot too unless a scenario scripts `respond.model`. Gemini and Ollama echo the name they were given.
 * A small table of well-known aliases, not the full catalogue: an unknown name is echoed unchanged.
 */
import type { ProviderName } from "./request";
import { own } from "../util/own";

/** Alias → dated snapshot, per provider family (as the provider's own docs and recorded answers name them). */
export const MODEL_SNAPSHOTS: Readonly<Record<"openai" | "anthropic", Readonly<Record<string, string>>>> = {
  openai: {
    "gpt-4o": "gpt-4o-2024-08-06",
    "gpt-4o-mini": "gpt-4o-mini-2024-07-18",
    "gpt-4.1": "gpt-4.1-2025-04-14",
    "gpt-4.1-mini": "gpt-4.1-mini-2025-04-14",
    "gpt-4.1-nano": "gpt-4.1-nano-2025-04-14",
    "gpt-5": "gpt-5-2025-08-07",
    "gpt-5-mini": "gpt-5-mini-2025-08-07",
    "gpt-5-nano": "gpt-5-nano-2025-08-07",
    o3: "o3-2025-04-16",
    "o3-mini": "o3-mini-2025-01-31",
    "o4-mini": "o4-mini-2025-04-16",
  },
  anthropic: {
    "claude-3-5-haiku-latest": "claude-3-5-haiku-20241022",
    "claude-3-7-sonnet-latest": "claude-3-7-sonnet-20250219",
    "claude-sonnet-4-0": "claude-sonnet-4-20250514",
    "claude-opus-4-0": "claude-opus-4-20250514",
    "claude-opus-4-1": "claude-opus-4-1-20250805",
    "claude-sonnet-4-5": "claude-sonnet-4-5-20250929",
    "claude-haiku-4-5": "claude-haiku-4-5-20251001",
    "claude-opus-4-5": "claude-opus-4-5-20251101",
  },
};

function family(provider: ProviderName): keyof typeof MODEL_SNAPSHOTS | undefined {
  if (provider === "anthropic") return "anthropic";
  if (provider === "openai") return "openai";
  return undefined;
}

/**
 * The model name a real answer carries for a requested model: the dated snapshot of a known alias, else the name.
 * @example answeredModel("openai", "gpt-4.1-nano") // "gpt-4.1-nano-2025-04-14"
 */
export function answeredModel(provider: ProviderName, requested: string): string {
  const f = family(provider);
  return (f !== undefined ? own(MODEL_SNAPSHOTS[f], requested) : undefined) ?? requested; // `constructor` is no alias
}
