/**
 * Turning an uploaded or bundled JSON value into a validated Scenario, with every issue's JSON path.
 */
import type { z } from "zod";
import { closest, keysAt, schemasAt, valueAt } from "./hints";
import { ScenarioSchema, StringMatchSchema, type Scenario } from "./schema";
import { isTestLlmDocument, testLlmSchemas } from "./testllm";

export interface DocumentIssue {
  /** JSON path such as `$.steps[0].respond.text`. */
  path: string;
  message: string;
}

export type DocumentResult = { ok: true; scenario: Scenario } | { ok: false; issues: DocumentIssue[] };

/** Renders a zod issue path as a JSON path: `$.steps[0].respond`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === "number") return `${acc}[${key}]`;
    const k = String(key);
    return /^[A-Za-z_$][\w$]*$/.test(k) ? `${acc}.${k}` : `${acc}[${JSON.stringify(k)}]`;
  }, "$");
}

/** What a document was checked against, so issues can say what was meant: "did you mean", StringMatch forms. */
export interface IssueContext {
  schema: z.core.$ZodType;
  input: unknown;
}

export function zodIssues(error: z.ZodError, prefix: readonly PropertyKey[] = [], context?: IssueContext): DocumentIssue[] {
  return error.issues.flatMap((issue) => flattenIssue(issue, prefix, context));
}

const STRING_MATCH_KEYS = ["equals", "contains", "regex", "flags"] as const;
/** Which branch of StringMatchSchema (string, equals, contains, regex) a key of an object value selects. */
const STRING_MATCH_BRANCH: Record<string, number> = { equals: 1, contains: 2, regex: 3, flags: 3 };
export const STRING_MATCH_FORMS = 'a StringMatch is a string (exact match) or one of {"equals": "…"}, {"contains": "…"}, {"regex": "…", "flags": "i"}';

function didYouMean(word: string, candidates: readonly string[]): string {
  const hit = closest(word, candidates);
  return hit === undefined ? "" : `; did you mean "${hit}"?`;
}

function flattenIssue(issue: z.core.$ZodIssue, prefix: readonly PropertyKey[], context?: IssueContext): DocumentIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === "unrecognized_keys") {
    const known = context ? keysAt(context.schema, path) : [];
    return issue.keys.map((key) => ({
      path: jsonPath([...path, key]),
      message: `unknown key "${key}"${didYouMean(key, known)}`,
    }));
  }
  if (issue.code === "invalid_key" && issue.issues.length > 0) {
    // A record key that fails its own schema: say why, at the key.
    return issue.issues.map((i) => ({ path: jsonPath(path), message: i.message }));
  }
  if (issue.code === "invalid_union" && context && schemasAt(context.schema, path).includes(StringMatchSchema)) {
    return stringMatchIssues(issue, path, context);
  }
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    // Report the branch that got furthest: the one with the fewest issues.
    const best = [...issue.errors].sort((a, b) => a.length - b.length)[0] ?? [];
    const nested = best.flatMap((i) => flattenIssue(i, path, context));
    if (nested.length > 0) return nested;
  }
  return [{ path: jsonPath(path), message: issue.message }];
}

/**
 * A value that is not a StringMatch: an object using one of its keys gets that form's own issues
 * (`{"regex": "("}` → not a valid regular expression); anything else is told the forms, with a "did you mean".
 */
function stringMatchIssues(issue: z.core.$ZodIssueInvalidUnion, path: PropertyKey[], context: IssueContext): DocumentIssue[] {
  const value = valueAt(context.input, path);
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const branch = keys.map((k) => STRING_MATCH_BRANCH[k]).find((b) => b !== undefined);
    const nested: z.core.$ZodIssue[] = branch !== undefined ? (issue.errors[branch] ?? []) : [];
    if (nested.length > 0) return nested.flatMap((i) => flattenIssue(i, path, context));
    const hint = keys.map((k) => didYouMean(k, STRING_MATCH_KEYS)).find((h) => h !== "") ?? "";
    const shown = keys.length === 0 ? "{}" : `an object with ${keys.map((k) => `"${k}"`).join(", ")}`;
    return [{ path: jsonPath(path), message: `${shown} is not a StringMatch${hint} (${STRING_MATCH_FORMS})` }];
  }
  const kind = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
  return [{ path: jsonPath(path), message: `expected a StringMatch, got ${kind} (${STRING_MATCH_FORMS})` }];
}

/** Issues about the document's name: missing, or not the one in the URL. */
function nameIssues(input: unknown, issues: DocumentIssue[], testLlm: boolean, expectedName?: string): DocumentIssue[] {
  const path = testLlm ? "$.id" : "$.name";
  const field = testLlm ? "id" : "name";
  if (valueAt(input, [field]) !== undefined) return issues;
  const message =
    expectedName !== undefined ? `missing: "${field}" must equal the URL's name "${expectedName}"` : `missing: every scenario needs a "${field}" (lower-case letters, digits, ".", "_", "-")`;
  return issues.map((i) => (i.path === path ? { path, message } : i));
}

/**
 * Validates one scenario document.
 * @example parseScenarioDocument(JSON.parse(text), "weather")
 */
export function parseScenarioDocument(input: unknown, expectedName?: string): DocumentResult {
  // The TestLLM format (the contract's "seed format": `id` + `turns`) loads unchanged; its issues point into it as written.
  const testLlm = isTestLlmDocument(input);
  const schema = testLlm ? testLlmSchemas().TestLlmScenarioSchema : ScenarioSchema;
  // Without zod's generated parsers: a document is validated once per version (store.ts parseCached), where compiling
  // a parser for each of its objects costs more than the one parse it serves (4 files at a start: 35-42 -> 29-30 ms).
  const parsed = schema.safeParse(input, { jitless: true });
  if (!parsed.success) {
    return { ok: false, issues: nameIssues(input, zodIssues(parsed.error, [], { schema, input }), testLlm, expectedName) };
  }
  if (expectedName !== undefined && parsed.data.name !== expectedName) {
    const path = testLlm ? "$.id" : "$.name";
    const field = testLlm ? "id" : "name";
    return {
      ok: false,
      issues: [{ path, message: `${field} "${parsed.data.name}" must equal the URL's name "${expectedName}"` }],
    };
  }
  return { ok: true, scenario: parsed.data };
}
