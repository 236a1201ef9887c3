/** The error `build()` and local validation throw: every issue with its JSON path. */
import type { DocumentIssue } from "../../scenario/document";

export class ScenarioValidationError extends Error {
  override readonly name = "ScenarioValidationError";

  constructor(
    /** The scenario's name as written (may itself be the invalid part). */
    readonly scenarioName: unknown,
    readonly issues: readonly DocumentIssue[],
  ) {
    super(formatIssues(`invalid scenario ${JSON.stringify(scenarioName) ?? "(no name)"}`, issues));
  }
}

/**
 * One header line, then one indented `path: message` line per issue.
 * @example formatIssues("invalid scenario \"x\"", [{ path: "$.steps", message: "Required" }])
 */
export function formatIssues(headline: string, issues: readonly DocumentIssue[]): string {
  const count = `${issues.length} issue${issues.length === 1 ? "" : "s"}`;
  return [`${headline}: ${count}`, ...issues.map((i) => `  ${i.path}: ${i.message}`)].join("\n");
}
