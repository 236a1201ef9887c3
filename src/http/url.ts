/** decodeURIComponent that keeps malformed escapes as they are (they then fail name validation). */
export function safeDecode(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Path characters a normalised URL keeps as they are (RFC 3986 pchar and "/"). */
const PLAIN_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;

/**
 * The pathname and search of an absolute request URL as the runtime gives it (`request.url`, already normalised):
 * cut out of the string for the usual URL, parsed with `URL` when the path has anything unusual.
 * @example urlParts("http://h/s/a/v1/chat/completions?x=1") // { pathname: "/s/a/v1/chat/completions", search: "?x=1" }
 */
export function urlParts(url: string): { pathname: string; search: string } {
  const authority = url.indexOf("//");
  const start = authority < 0 ? -1 : url.indexOf("/", authority + 2);
  if (start > 0 && !url.includes("#", start)) {
    const q = url.indexOf("?", start);
    const pathname = q < 0 ? url.slice(start) : url.slice(start, q);
    if (PLAIN_PATH.test(pathname) && !pathname.includes("/.")) return { pathname, search: q < 0 ? "" : url.slice(q) };
  }
  const parsed = new URL(url);
  return { pathname: parsed.pathname, search: parsed.search };
}

/**
 * A path below one of `bases` read as an object route: the collection (`{}`), one object (`{ id }`, percent-decoded)
 * or one of its `actions` (`{ id, action }`); undefined when the path is under none of `bases`, or is under one but
 * is none of these (an empty id, an unknown action, deeper segments). The Files and Batches APIs' routes.
 * @example restPath(["/v1/batches"], ["cancel"], "/v1/batches/batch_1/cancel") // { id: "batch_1", action: "cancel" }
 */
export function restPath<A extends string>(bases: readonly string[], actions: readonly A[], path: string): { id?: string; action?: A } | undefined {
  for (const base of bases) {
    if (path === base) return {};
    if (!path.startsWith(`${base}/`)) continue;
    const rest = path.slice(base.length + 1).split("/");
    if (rest[0] === "" || rest.length > 2) return undefined;
    if (rest.length === 1) return { id: safeDecode(rest[0]!) };
    const action = actions.find((a) => a === rest[1]);
    return action === undefined ? undefined : { id: safeDecode(rest[0]!), action };
  }
  return undefined;
}
