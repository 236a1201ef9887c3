/**
 * Polling for what a test cannot await directly (a file written by a background flush, messages arriving on a socket
 * the SDK owns). Runs in workerd and on Node.
 */

export interface UntilOptions {
  /** Give up after this long (default 5 s). */
  ms?: number;
  /** Wait between reads (default 25 ms). */
  every?: number;
}

/** Reads until `done` holds of the value, and returns it; throws with the last value once `ms` has passed. */
export async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, { ms = 5000, every = 25 }: UntilOptions = {}): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms; last value: ${describe(value)}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Reads until the value is defined, and returns it. */
export async function untilDefined<T>(read: () => T | undefined | Promise<T | undefined>, options: UntilOptions = {}): Promise<T> {
  const value = await until(read, (v) => v !== undefined, options);
  if (value === undefined) throw new Error("until: no value");
  return value;
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 2000) ?? String(value);
  } catch {
    return String(value);
  }
}
