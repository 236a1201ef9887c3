/** Parts of the Node runtime made when first needed, not at start-up (the fetch adapter, node:http2, `ws`). */

/** A value made once, on its first ask; `current` holds it once made. */
export interface FirstUse<T> {
  (): Promise<T>;
  readonly current: T | undefined;
}

/**
 * `make` run at the first call and never again; every call gets the same promise, and `current` the value once it is
 * there (for the callers that must answer synchronously: before, there is none).
 * @example const socketServer = onFirstUse(() => import("ws").then(({ WebSocketServer }) => new WebSocketServer({ noServer: true })))
 */
export function onFirstUse<T>(make: () => Promise<T>): FirstUse<T> {
  let made: Promise<T> | undefined;
  let current: T | undefined;
  const get = () =>
    (made ??= make().then((value) => {
      current = value;
      return value;
    }));
  return Object.defineProperty(get, "current", { get: () => current }) as FirstUse<T>;
}
