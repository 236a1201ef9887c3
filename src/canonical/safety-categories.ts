/**
 * The neutral category names a `content_filter` failure takes (contract section 10, "Safety outcomes"); each provider
 * maps them to its own (Gemini `HARM_CATEGORY_*`, Bedrock content-filter types, Azure's annotation keys, Anthropic's
 * refusal category). Apart from src/canonical/safety.ts so the scenario schema can import them without a circle.
 */
export const SAFETY_CATEGORIES = ["hate", "sexual", "violence", "self_harm", "harassment", "dangerous", "jailbreak"] as const;
export type SafetyCategory = (typeof SAFETY_CATEGORIES)[number];
