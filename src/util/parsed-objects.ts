/**
 * Parses stored JSON texts (a session object's stored objects: session/responses.ts), skipping any that no longer
 * parse: a damaged entry counts as absent.
 * @example parsedObjects<{ id: string }>(['{"id":"a"}', "{bro"]) // [{ id: "a" }]
 */
export function parsedObjects<T>(texts: string[]): T[] {
  const out: T[] = [];
  for (const t of texts) {
    try {
      out.push(JSON.parse(t) as T);
    } catch {
      // absent
    }
  }
  return out;
}
