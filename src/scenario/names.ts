/**
 * The scenario and session name rule, in a module of its own: the CLI states it in its help and checks names before
 * a command runs, without loading zod and building the scenario schema (./schema.ts re-exports it).
 */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** What NAME_PATTERN allows, as every message about a bad name states it: `[a-z0-9][a-z0-9._-]{0,63}`. */
export const NAME_RULE = NAME_PATTERN.source.slice(1, -1);
/** The end of every "invalid … name" message, server and client alike (written here only: test/unit/name-rule.test.ts). */
export const NAMES_MATCH = `names match ${NAME_RULE}`;

/** Text whose order by UTF-16 code units is the order `localeCompare` gives it (ICU's root collation and English). */
const CODE_UNIT_ORDERED = /^[a-z0-9.-]*$/;

/**
 * `a.localeCompare(b)` for sorting names, without the collator where it is not needed: lower-case letters, digits,
 * `.` and `-` (scenario names, most file names) compare by code unit, which for them is the same order; anything else
 * goes to `localeCompare`. The first `localeCompare` in a process builds ICU's collator (~7 ms on Node 22), which a
 * start with scenario files paid to sort a directory listing.
 * @example ["b.json", "a-1.json", "a.json"].sort(compareNames) // ["a-1.json", "a.json", "b.json"]
 */
export function compareNames(a: string, b: string): number {
  if (CODE_UNIT_ORDERED.test(a) && CODE_UNIT_ORDERED.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return a.localeCompare(b);
}
