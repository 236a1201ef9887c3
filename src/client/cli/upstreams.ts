/**
 * The providers `--upstream` takes, for the CLI's help: the record schema's upstream keys (`RecordSchema`), which the
 * registry test (test/unit/provider-registry.test.ts) checks against the modules that can record. Written out here,
 * not read from the schema, so the CLI starts without zod (test/unit/cli-imports.test.ts checks the two agree).
 */
/** @example UPSTREAM_PROVIDERS // "openai, anthropic, gemini, ollama, cohere" */
export const UPSTREAM_PROVIDERS = "openai, anthropic, gemini, ollama, cohere";
