/** How Azure serialises its answers: object keys in alphabetical order (but inside the chat annotations). */
import { isRecord } from "../../http/json";

export type Json = Record<string, unknown>;

/**
 * `value` with object keys sorted at every depth but below the keys in `keep` (whose values keep their own order).
 * @example sorted({ b: 1, a: { d: 1, c: 2 } }) // { a: { c: 2, d: 1 }, b: 1 }
 */
export function sorted(value: unknown, keep: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(value)) return value.map((v) => sorted(v, keep));
  if (!isRecord(value)) return value;
  const out: Json = {};
  for (const k of Object.keys(value).sort()) out[k] = keep.has(k) ? value[k] : sorted(value[k], keep);
  return out;
}
