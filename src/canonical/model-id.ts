/**
 * Which model ids a model lookup (`GET /v1/models/{model}`, OpenAI's and Anthropic's) answers. The chat surfaces
 * answer whatever model a request names, so a lookup answers every id of the form real model ids take — letters and
 * digits, then `.`, `_`, `-`, `:`, `@`, `+`, `/` (`gpt-4o-mini`, `ft:gpt-4o-mini:acme:x:abc123`,
 * `claude-sonnet-4@20250514`, `anthropic.claude-3-5-haiku-20241022-v1:0`, `accounts/x/models/y`), at most 256
 * characters — and refuses the rest (spaces, quotes, control characters, a kilobyte of `y`) as the provider's 404.
 */

const MODEL_ID = /^[A-Za-z0-9][\w.:@+/-]{0,255}$/;

/**
 * Whether a lookup answers `id` as a model.
 * @example acceptedModelId("gpt-4o-mini") // true
 * @example acceptedModelId("gpt 4o") // false
 */
export function acceptedModelId(id: string): boolean {
  return MODEL_ID.test(id);
}
