/**
 * Hints for typos in scenario documents, computed from the schema itself: which keys the object at a path takes
 * (for "did you mean"), and whether the value at a path is a StringMatch.
 */
import type { z } from "zod";

/** Edit distance between `a` and `b`: insertions, deletions, substitutions and swaps of neighbours count 1 each. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate closest to `word` (case-insensitive), when it is close enough to be a typo of it:
 * at most 1 edit for short words, up to 3 for long ones.
 * @example closest("lastUsrMessage", ["firstUserMessage", "lastUserMessage"]) // "lastUserMessage"
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.min(3, Math.floor(word.length / 4)));
  let best: { name: string; d: number } | undefined;
  for (const c of candidates) {
    if (c === word) continue;
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d <= limit && (!best || d < best.d)) best = { name: c, d };
  }
  return best?.name;
}

/** The schema with optional / nullable / default / pipe / lazy wrappers taken off. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
    if (def.type === "optional" || def.type === "nullable" || def.type === "default" || def.type === "readonly" || def.type === "nonoptional" || def.type === "prefault" || def.type === "catch") {
      s = def.innerType as z.core.$ZodType;
    } else if (def.type === "pipe") {
      s = def.in as z.core.$ZodType;
    } else if (def.type === "lazy") {
      s = (def.getter as () => z.core.$ZodType)();
    } else {
      return s;
    }
  }
  return s;
}

/** Every schema a value at `path` below `schema` may be checked against (a union fans out to its options). */
export function schemasAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): z.core.$ZodType[] {
  let current = expand(schema);
  for (const key of path) {
    current = current.flatMap((s) => {
      const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
      if (def.type === "object" && typeof key === "string") {
        const child = (def.shape as Record<string, z.core.$ZodType>)[key];
        return child ? expand(child) : [];
      }
      if (def.type === "array" && typeof key === "number") return expand(def.element as z.core.$ZodType);
      if (def.type === "record" && typeof key === "string") return expand(def.valueType as z.core.$ZodType);
      return [];
    });
  }
  return current;
}

function expand(schema: z.core.$ZodType): z.core.$ZodType[] {
  const s = unwrap(schema);
  const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
  if (def.type === "union") return [s, ...(def.options as z.core.$ZodType[]).flatMap(expand)];
  return [s];
}

/** Keys the object at `path` may have, from every object schema that can be there. */
export function keysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  const keys = schemasAt(schema, path).flatMap((s) => {
    const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
    return def.type === "object" ? Object.keys(def.shape as Record<string, unknown>) : [];
  });
  return [...new Set(keys)];
}

/** The value at `path` inside `input`, if there is one. */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** Longest name shown back in an error message; longer ones are cut with a marker. */
const SHOWN = 80;

/** `name` for an error message: at most SHOWN characters. */
export function shownName(name: string): string {
  return name.length <= SHOWN ? name : `${name.slice(0, SHOWN)}… (${name.length} characters)`;
}
