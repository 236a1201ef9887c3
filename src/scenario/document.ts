/**
 * Turning an uploaded or bundled JSON value into a validated Scenario, with every issue's JSON path.
 */
import { z } from "zod";
import { ScenarioSchema, type Scenario } from "./schema";
import { isSeedDocument, SeedScenarioSchema } from "./seed";

export interface DocumentIssue {
  /** JSON path such as `$.steps[0].respond.text`. */
  path: string;
  message: string;
}

export type DocumentResult =
  | { ok: true; scenario: Scenario }
  | { ok: false; issues: DocumentIssue[] };

/** Renders a zod issue path as a JSON path: `$.steps[0].respond`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === "number") return `${acc}[${key}]`;
    const k = String(key);
    return /^[A-Za-z_$][\w$]*$/.test(k) ? `${acc}.${k}` : `${acc}[${JSON.stringify(k)}]`;
  }, "$");
}

export function zodIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): DocumentIssue[] {
  return error.issues.flatMap((issue) => flattenIssue(issue, prefix));
}

function flattenIssue(issue: z.core.$ZodIssue, prefix: readonly PropertyKey[]): DocumentIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({ path: jsonPath([...path, key]), message: `unknown key "${key}"` }));
  }
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    // Report the branch that got furthest: the one with the fewest issues.
    const best = [...issue.errors].sort((a, b) => a.length - b.length)[0] ?? [];
    const nested = best.flatMap((i) => flattenIssue(i, path));
    if (nested.length > 0) return nested;
  }
  return [{ path: jsonPath(path), message: issue.message }];
}

/**
 * Validates one scenario document.
 * @example parseScenarioDocument(JSON.parse(text), "weather")
 */
export function parseScenarioDocument(input: unknown, expectedName?: string): DocumentResult {
  // The TestLLM seed format (`id` + `turns`) loads unchanged; its issues point into it as written.
  const seed = isSeedDocument(input);
  const parsed = (seed ? SeedScenarioSchema : ScenarioSchema).safeParse(input);
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error) };
  if (expectedName !== undefined && parsed.data.name !== expectedName) {
    const path = seed ? "$.id" : "$.name";
    return {
      ok: false,
      issues: [{ path, message: `name "${parsed.data.name}" does not match the URL's "${expectedName}"` }],
    };
  }
  return { ok: true, scenario: parsed.data };
}
