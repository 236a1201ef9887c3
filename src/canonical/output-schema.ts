/**
 * Structured output (contract section 11): what a request asks its answer to be, provider-neutral. Every surface's
 * parse reads its own field into this (OpenAI Chat `response_format`, Responses `text.format`, Anthropic
 * `output_config.format` / beta `output_format`, Gemini `generationConfig.responseSchema` / `responseJsonSchema`,
 * Ollama `format`, Bedrock `outputConfig.textFormat`).
 */

export interface CanonicalOutputSchema {
  /** `json_schema`: the answer must fit `schema`; `json_object`: any JSON object (OpenAI `json_object`, Ollama `"json"`, Gemini's JSON MIME type alone). */
  kind: "json_schema" | "json_object";
  /** The schema's name where the wire carries one (OpenAI `json_schema.name`, Responses `format.name`, Bedrock `jsonSchema.name`). */
  name?: string;
  /** The JSON Schema as sent (Gemini's OpenAPI subset included, upper-case types and all). */
  schema?: unknown;
  /**
   * Whether the real API constrains the answer to the schema: OpenAI's `strict: true`; Anthropic, Gemini, Ollama and
   * Bedrock always do. A scripted answer to a strict schema is checked against it (`schemaCheck`).
   */
  strict?: boolean;
}

/** The result of checking a scripted answer against the request's strict schema, as the journal keeps it. */
export interface OutputSchemaCheck {
  valid: boolean;
  /** JSON-pointer paths into the answer (`""` is the whole answer) and what is wrong there. */
  errors: { path: string; message: string }[];
}

/** An offered tool declared `strict: true` (OpenAI function tools, Anthropic tools): its arguments must fit its schema. */
export interface CanonicalStrictTool {
  name: string;
  schema: unknown;
}
