/**
 * The StringMatch schema on its own, so schemas that `schema.ts` itself imports (the `mcp` block) can use it
 * without an import cycle. `schema.ts` re-exports it.
 */
import { z } from "zod";

function isValidRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** A string (exact), or `{ equals }`, `{ contains }`, `{ regex, flags }`. */
export const StringMatchSchema = z.union([
  z.string(),
  z.strictObject({
    equals: z.string().describe("The text equals this."),
  }),
  z.strictObject({
    contains: z.string().describe("The text contains this."),
  }),
  z.strictObject({
    regex: z
      .string()
      .refine((r) => isValidRegex(r), "not a valid regular expression")
      .describe("A JavaScript regular expression the text matches."),
    flags: z
      .string()
      .regex(/^[dgimsuvy]*$/, "regex flags may only be d, g, i, m, s, u, v, y")
      .optional()
      .describe("The expression's flags (`i` for case-insensitive, …)."),
  }),
]);
export type StringMatch = z.output<typeof StringMatchSchema>;
