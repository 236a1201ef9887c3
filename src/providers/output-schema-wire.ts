/**
 * Small helpers every surface's structured-output reader shares (each provider's own `structured.ts` reads its field).
 */
import type { CanonicalOutputSchema } from "../canonical/output-schema";

export type Loose = Record<string, unknown>;

export function isObject(v: unknown): v is Loose {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A `json_schema` output, its optional fields set only when present. */
export function jsonSchemaOutput(schema: unknown, name: unknown, strict: boolean): CanonicalOutputSchema {
  const out: CanonicalOutputSchema = { kind: "json_schema" };
  if (typeof name === "string" && name !== "") out.name = name;
  if (schema !== undefined) out.schema = schema;
  out.strict = strict;
  return out;
}
