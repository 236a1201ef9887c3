/**
 * The dated price table budgets and coverage price tokens with: US dollars per 1M tokens, per model
 * family, standard (non-batch) tier, prompts up to the first price break. A scenario's `prices` overrides or adds
 * models. Keys match a model by prefix, the longest first, so a dated snapshot (`gpt-4o-2024-08-06`,
 * `claude-sonnet-4-5-20250929`) takes its family's price and `gpt-4o-mini` is not priced as `gpt-4o`.
 *
 * Sources, read on PRICES_AS_OF (docs/reference/prices.md lists them again):
 * - OpenAI: https://openai.com/api/pricing and https://platform.openai.com/docs/pricing
 * - Anthropic: https://docs.anthropic.com/en/docs/about-claude/pricing (cache reads at 0.1× the input price)
 * - Google: https://ai.google.dev/gemini-api/docs/pricing (Gemini 2.5 Pro: prompts up to 200k tokens)
 */
import type { Price } from "./budget-schema";
import { own } from "../util/own";

export const PRICES_AS_OF = "2025-11-15";

export const PRICES: Readonly<Record<string, Price>> = {
  "gpt-5-nano": { input: 0.05, cachedInput: 0.005, output: 0.4 },
  "gpt-5-mini": { input: 0.25, cachedInput: 0.025, output: 2 },
  "gpt-5": { input: 1.25, cachedInput: 0.125, output: 10 },
  "gpt-4.1-nano": { input: 0.1, cachedInput: 0.025, output: 0.4 },
  "gpt-4.1-mini": { input: 0.4, cachedInput: 0.1, output: 1.6 },
  "gpt-4.1": { input: 2, cachedInput: 0.5, output: 8 },
  "gpt-4o-mini": { input: 0.15, cachedInput: 0.075, output: 0.6 },
  "gpt-4o": { input: 2.5, cachedInput: 1.25, output: 10 },
  "gpt-4-turbo": { input: 10, cachedInput: 10, output: 30 },
  "gpt-3.5-turbo": { input: 0.5, cachedInput: 0.5, output: 1.5 },
  "o4-mini": { input: 1.1, cachedInput: 0.275, output: 4.4 },
  "o3-mini": { input: 1.1, cachedInput: 0.55, output: 4.4 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  "o1-mini": { input: 1.1, cachedInput: 0.55, output: 4.4 },
  o1: { input: 15, cachedInput: 7.5, output: 60 },
  "claude-opus-4-5": { input: 5, cachedInput: 0.5, output: 25 },
  "claude-opus-4": { input: 15, cachedInput: 1.5, output: 75 },
  "claude-sonnet-4": { input: 3, cachedInput: 0.3, output: 15 },
  "claude-3-7-sonnet": { input: 3, cachedInput: 0.3, output: 15 },
  "claude-3-5-sonnet": { input: 3, cachedInput: 0.3, output: 15 },
  "claude-haiku-4-5": { input: 1, cachedInput: 0.1, output: 5 },
  "claude-3-5-haiku": { input: 0.8, cachedInput: 0.08, output: 4 },
  "claude-3-haiku": { input: 0.25, cachedInput: 0.03, output: 1.25 },
  "gemini-2.5-pro": { input: 1.25, cachedInput: 0.125, output: 10 },
  "gemini-2.5-flash-lite": { input: 0.1, cachedInput: 0.01, output: 0.4 },
  "gemini-2.5-flash": { input: 0.3, cachedInput: 0.03, output: 2.5 },
  "gemini-2.0-flash-lite": { input: 0.075, cachedInput: 0.075, output: 0.3 },
  "gemini-2.0-flash": { input: 0.1, cachedInput: 0.025, output: 0.4 },
};

/** Keys of `table` by length, longest first (a prefix match takes the most specific). */
function byLength(table: Readonly<Record<string, Price>>): string[] {
  return Object.keys(table).sort((a, b) => b.length - a.length);
}

const BUILT_IN_KEYS = byLength(PRICES);

/**
 * The price of `model`: the scenario's own `prices` first (exact, then by prefix), then the table. Vendor prefixes
 * (`openai/`, `models/`, `anthropic.`, a Bedrock region) are ignored.
 * @example priceOf("gpt-4o-mini-2024-07-18") // { input: 0.15, cachedInput: 0.075, output: 0.6 }
 */
export function priceOf(model: string, prices?: Readonly<Record<string, Price>>): Price | undefined {
  const bare = model.replace(/^.*[/]/, "").replace(/^(?:[a-z]{2}\.)?(?:anthropic|openai|google)\./, "");
  if (prices !== undefined) {
    const hit =
      own(prices, model) ??
      own(prices, bare) ??
      byLength(prices)
        .map((k) => (bare.startsWith(k) ? prices[k] : undefined))
        .find((p) => p !== undefined);
    if (hit !== undefined) return hit;
  }
  for (const key of BUILT_IN_KEYS) if (bare.startsWith(key)) return PRICES[key];
  return undefined;
}
