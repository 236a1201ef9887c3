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
