/**
 * The managed-agents lists' `created_at[gt|gte|lt|lte]` bounds; their pages are Anthropic's cursor pages
 * (../../pages.ts `cursorPage`, as the Skills lists').
 */
import type { ApiError } from "../../../../http/errors";
import { invalid } from "./objects";

const BOUNDS = { gt: (a: number, b: number) => a > b, gte: (a: number, b: number) => a >= b, lt: (a: number, b: number) => a < b, lte: (a: number, b: number) => a <= b } as const;

/**
 * The query's `created_at[gt|gte|lt|lte]` bounds (RFC 3339 times) as a test of an object's time (`at` picks it: an
 * event's `processed_at`, an object's `created_at`), or the 400 for a time that does not parse.
 * @example createdWithin(new URLSearchParams("created_at[gte]=2026-01-01T00:00:00Z"), (o) => o.created_at)
 */
export function createdWithin<T>(query: URLSearchParams, at: (item: T) => string | null): ((item: T) => boolean) | ApiError {
  const tests: ((ms: number) => boolean)[] = [];
  for (const [op, compare] of Object.entries(BOUNDS)) {
    const raw = query.get(`created_at[${op}]`);
    if (raw === null || raw === "") continue;
    const bound = Date.parse(raw);
    if (Number.isNaN(bound)) return invalid(`created_at[${op}]: Input should be a valid datetime, not '${raw}'`);
    tests.push((ms) => compare(ms, bound));
  }
  return (item) => {
    if (tests.length === 0) return true;
    const time = at(item);
    const ms = time === null ? Number.NaN : Date.parse(time);
    return !Number.isNaN(ms) && tests.every((t) => t(ms));
  };
}
