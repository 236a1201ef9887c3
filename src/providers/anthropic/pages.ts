import { apiError, type ApiError } from "../../http/errors";
import { base64url, fromBase64 } from "../../util/base64";

/**
 * Anthropic's list pages — `limit`, `after_id`, `before_id`, as the Models, Message Batches and Files lists take them:
 * which slice of the list, newest first, a query asks for, and whether more lie beyond it in the direction paged
 * (`has_more`). `before_id` alone pages backwards: the `limit` entries just before it. An id the list does not hold
 * gives an empty page.
 * @example idWindow(["c", "b", "a"], new URLSearchParams("after_id=c"), 1) // { from: 1, to: 2, hasMore: true }
 */
export function idWindow(ids: readonly string[], query: URLSearchParams, limit: number): { from: number; to: number; hasMore: boolean } {
  const after = query.get("after_id");
  const before = query.get("before_id");
  let start = 0;
  let end = ids.length;
  if (after !== null) {
    const i = ids.indexOf(after);
    start = i >= 0 ? i + 1 : ids.length;
  }
  if (before !== null) end = Math.max(ids.indexOf(before), 0);
  if (before !== null && after === null) {
    const from = Math.max(start, end - limit);
    return { from, to: end, hasMore: from > start };
  }
  return { from: start, to: Math.min(end, start + limit), hasMore: start + limit < end };
}

/** A page of a list paged by cursor tokens (`limit`, `page`), as the Skills and Managed Agents lists are. */
export interface CursorPage<T> {
  data: T[];
  /** The token of the page after this one; `null` on the last (the SDK's `PageCursor` pages on until it is). */
  next_page: string | null;
  /** The token of the page before it (the sessions list's `BidirectionalPageCursor`); `null` on the first. */
  prev_page: string | null;
}

const encoder = new TextEncoder();
const cursorToken = (direction: "after" | "before", id: string): string => `page_${base64url(encoder.encode(`${direction}:${id}`))}`;

/**
 * The page of `items` (already in the order listed) that the query's `limit` (1 to `max`, `defaultLimit` when absent)
 * and `page` (a token this function made: `page_` and the base64 of a direction and the id it continues from) name.
 * @example cursorPage(skills, new URLSearchParams("limit=2"), { defaultLimit: 20, max: 100 })
 */
export function cursorPage<T extends { id: string }>(items: readonly T[], query: URLSearchParams, opts: { defaultLimit: number; max: number }): CursorPage<T> | ApiError {
  const raw = query.get("limit");
  const limit = raw === null ? opts.defaultLimit : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > opts.max) return apiError("invalid_request", `limit: Input should be less than or equal to ${opts.max} and greater than or equal to 1`);
  const given = query.get("page");
  let from = 0;
  let to = Math.min(limit, items.length);
  if (given !== null && given !== "") {
    const bytes = given.startsWith("page_") ? fromBase64(given.slice(5)) : undefined;
    const text = bytes === undefined ? "" : new TextDecoder().decode(bytes);
    const colon = text.indexOf(":");
    const direction = text.slice(0, colon);
    const at = colon < 0 ? -1 : items.findIndex((x) => x.id === text.slice(colon + 1));
    if (at < 0 || (direction !== "after" && direction !== "before")) return apiError("invalid_request", "page: Invalid page token.");
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
    next_page: to < items.length && data.length > 0 ? cursorToken("after", data.at(-1)!.id) : null,
    prev_page: from > 0 && data.length > 0 ? cursorToken("before", data[0]!.id) : null,
  };
}
