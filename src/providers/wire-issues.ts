/**
 * Turns a zod issue on a client's request into the field path and sentence a real API would give.
 */
import type { z } from "zod";

export interface WireIssue {
  /** Dotted/bracketed request path, e.g. `messages[0].content`. */
  param: string;
  message: string;
  missing: boolean;
}

export function wirePath(path: readonly PropertyKey[], style: "brackets" | "dots" = "brackets"): string {
  return path.map((k, i) => (typeof k === "number" ? (style === "brackets" ? `[${k}]` : `.${k}`) : `${i === 0 ? "" : "."}${String(k)}`)).join("");
}

/** The first issue of a failed parse, phrased for the client. */
export function firstWireIssue(error: z.ZodError, style: "brackets" | "dots" = "brackets"): WireIssue {
  const issue = error.issues[0];
  if (!issue) return { param: "", message: "Invalid request body.", missing: false };
  const param = wirePath(issue.path, style);
  const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
  if (missing) return { param, message: `Missing required parameter: '${param}'.`, missing };
  return { param, message: `Invalid value for '${param}': ${issue.message}.`, missing };
}
