/**
 * The scenario and session name rule, in a module of its own: the CLI states it in its help and checks names before
 * a command runs, without loading zod and building the scenario schema (./schema.ts re-exports it).
 */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** What NAME_PATTERN allows, as every message about a bad name states it: `[a-z0-9][a-z0-9._-]{0,63}`. */
export const NAME_RULE = NAME_PATTERN.source.slice(1, -1);
/** The end of every "invalid … name" message, server and client alike (written here only: test/unit/name-rule.test.ts). */
export const NAMES_MATCH = `names match ${NAME_RULE}`;
