/**
 * The managed-agents lists' pages: `limit` and `page` in, `data` and `next_page` out (`null` on the last page: the
 * SDK's `PageCursor` pages on until it is), and `prev_page` for the sessions list (`BidirectionalPageCursor`; `null`
 * on the first page). A token is `page_` and the base64 of the id it continues from and the direction.
 */
import type { ApiError } from "../../../../http/errors";
import { base64url, fromBase64 } from "../../../../util/base64";
import { invalid } from "./objects";

export interface Page<T> {
  data: T[];
  next_page: string | null;
  prev_page: string | null;
}

const encoder = new TextEncoder();
const token = (direction: "after" | "before", id: string): string => `page_${base64url(encoder.encode(`${direction}:${id}`))}`;

/** The page of `items` (already in the order asked for) that the query's `limit` and `page` name. */
export function pageOf<T extends { id: string }>(items: readonly T[], query: URLSearchParams, opts: { defaultLimit: number; max: number }): Page<T> | ApiError {
  const raw = query.get("limit");
  const limit = raw === null || raw === "" ? opts.defaultLimit : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > opts.max) return invalid(`limit: Input should be less than or equal to ${opts.max} and greater than or equal to 1`);
  const given = query.get("page");
  let from = 0;
  let to = Math.min(limit, items.length);
  if (given !== null && given !== "") {
    const bytes = given.startsWith("page_") ? fromBase64(given.slice(5)) : undefined;
    const text = bytes === undefined ? "" : new TextDecoder().decode(bytes);
    const colon = text.indexOf(":");
    const direction = text.slice(0, colon);
    const at = colon < 0 ? -1 : items.findIndex((x) => x.id === text.slice(colon + 1));
    if (at < 0 || (direction !== "after" && direction !== "before")) return invalid("page: Invalid page token.");
    if (direction === "after") {
      from = at + 1;
      to = Math.min(from + limit, items.length);
    } else {
      to = at;
      from = Math.max(0, to - limit);
    }
  }
  const data = items.slice(from, to);
  return {
    data,
    next_page: to < items.length && data.length > 0 ? token("after", data.at(-1)!.id) : null,
    prev_page: from > 0 && data.length > 0 ? token("before", data[0]!.id) : null,
  };
}

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
