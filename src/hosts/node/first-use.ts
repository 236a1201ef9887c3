/** Parts of the Node runtime made when first needed, not at start-up (node:http2, `ws`). */
import { withV8Defaults } from "./heap-growth";

/** A value made once, on its first ask; `current` holds it once made. */
export interface FirstUse<T> {
  (): Promise<T>;
  readonly current: T | undefined;
}

/**
 * `make` run at the first call and never again; every call gets the same promise, and `current` the value once it is
 * there (for the callers that must answer synchronously: before, there is none). `make` runs with V8's flags at their
 * defaults, so the modules it loads come from V8's code caches (heap-growth.ts, `withV8Defaults`).
 * @example const socketServer = onFirstUse(() => import("ws").then(({ WebSocketServer }) => new WebSocketServer({ noServer: true })))
 */
export function onFirstUse<T>(make: () => Promise<T>): FirstUse<T> {
  let made: Promise<T> | undefined;
  let current: T | undefined;
  const get = () =>
    (made ??= withV8Defaults(make).then((value) => {
      current = value;
      return value;
    }));
  return Object.defineProperty(get, "current", { get: () => current }) as FirstUse<T>;
}
