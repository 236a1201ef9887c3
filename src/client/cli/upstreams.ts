/**
 * The providers `--upstream` takes, for the CLI's help: the record schema's upstream keys, which the registry test
 * (test/unit/provider-registry.test.ts) checks against the modules that can record.
 */
import { RecordSchema } from "../../scenario/schema";

/** @example UPSTREAM_PROVIDERS // "openai, anthropic, gemini, ollama" */
export const UPSTREAM_PROVIDERS: string = Object.keys(RecordSchema.shape.upstream.shape).join(", ");
