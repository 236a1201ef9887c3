/** Memoising a function of a string that is asked on every request and answers the same for the same key. */

/**
 * `fn` with its answers kept in a Map of at most `limit` keys (cleared when full, so a flood of distinct keys costs
 * memory up to the bound and no more). Undefined answers are kept too.
 * @example const surfaceByPath = memoized((path) => SURFACES.find((s) => s.paths.includes(path)))
 */
export function memoized<T>(fn: (key: string) => T, limit = 1024): (key: string) => T {
  const answers = new Map<string, { value: T }>();
  return (key) => {
    let hit = answers.get(key);
    if (hit === undefined) {
      if (answers.size >= limit) answers.clear();
      hit = { value: fn(key) };
      answers.set(key, hit);
    }
    return hit.value;
  };
}

/**
 * `build()`, called on the first call and kept: for a module's zod schemas, which zod builds eagerly (closures and
 * objects for every part, ~2,450 schemas in all), so that a Node start and a Worker isolate's pay only for what they
 * serve — a provider's request schemas are built on its first request.
 * @example export const chatWire = lazily(() => ({ ChatRequestSchema: z.looseObject({ model: z.string() }) }))
 */
export function lazily<T>(build: () => T): () => T {
  let kept: { value: T } | undefined;
  return () => (kept ??= { value: build() }).value;
}
