/** A value, or the promise of one: what an interface answers when one runtime has it at hand and another must wait. */
export type Awaitable<T> = T | Promise<T>;

/**
 * Whether `value` is to be awaited: a promise or another thenable. A Durable Object's RPC call answers with a thenable
 * that is not a `Promise` (`instanceof Promise` is false for it), so code that awaits only what needs awaiting asks
 * this, not `instanceof`.
 * @example const r = stub.next(input); const result = isThenable(r) ? await r : r;
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}
