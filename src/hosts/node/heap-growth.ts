/**
 * How far V8 lets the old generation grow past what survived the last full collection, while a server runs. After
 * each mark-compact V8 sets the next one's limit to `live × F + new space` (at least `live + 8 MB + new space`),
 * where F comes from the measured speeds of marking and of allocation: 1.1–1.7 under a steady load here, but up to 4
 * when nothing was measured yet (the first collection) or when a collection measured slow against the allocation rate
 * (one that ran while the machine was busy, or after an idle spell). The next load then fills the old generation to
 * up to four times what is live before it is collected, and the pages stay resident: the load peaks' RSS
 * (docs/decisions/performance-history.md, "Wave 6"). `--heap-growing-percent` fixes F, and V8 reads it at each limit:
 * while a server runs, F is 1 + GROWING_PERCENT / 100. A mark-compact of this heap is a few ms, mostly on V8's helper
 * threads, so more frequent ones cost little; the young generation is left alone (capping it cost 5–12% of the
 * throughput). A process started with its own `--heap-growing-percent` (command line or NODE_OPTIONS) keeps it.
 *
 * While a server runs, V8's memory reducer is also kept from collecting (`--memory-reducer-gc-count=0`, V8 12.4 and
 * later, Node 22+: read when the reducer's timer fires, so it holds when set at run time, where `--no-memory-reducer`
 * does not — the reducer is made with the heap): ~8 s after a load stops it runs collections that shrink the heap
 * and drop the hidden classes no live object has, and the optimised code built on those classes — most of a
 * turn's functions, Node's HTTP parser and socket writes among them — is deoptimised; the next load compiled it
 * again and ran 6–38% more CPU a request over the ten seconds measured (`bench/idle-penalty.mjs`;
 * docs/performance.md, "Where the code does it"). The heap a load grew is then given back by the next ordinary
 * collection instead of in the idle spell. A process started with its own `--memory-reducer`, `--no-memory-reducer`
 * or `--memory-reducer-gc-count` keeps it.
 */
import v8 from "node:v8";

/** F = 1.3: V8's own factor when it optimises for memory (its "conservative" growing mode). */
export const GROWING_PERCENT = 30;

/** V8's own count of memory-reducing collections after a load (12.4's default), given back when no server runs. */
const REDUCER_GC_COUNT = 2;

let servers = 0;
let loads = 0;

/** True when the process was started with its own value of the V8 flag `name` (its dashes or underscores). */
function configuredByUser(name: string): boolean {
  const spellings = [name, name.replaceAll("-", "_")];
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((a) => spellings.some((n) => a.includes(n)));
}

/** Whether this V8 has `--memory-reducer-gc-count` (12.4, Node 22; Node 20's 11.3 answers an unknown flag with an error line). */
function hasReducerCount(): boolean {
  const [major = 0, minor = 0] = process.versions.v8.split(".").map(Number);
  return major > 12 || (major === 12 && minor >= 4);
}

/** The flags a running server sets (`on`) or gives back to V8's own values, each unless the process set it itself. */
function serverFlags(on: boolean): void {
  if (!configuredByUser("heap-growing-percent")) v8.setFlagsFromString(`--heap-growing-percent=${on ? GROWING_PERCENT : 0}`);
  if (hasReducerCount() && !configuredByUser("memory-reducer")) v8.setFlagsFromString(`--memory-reducer-gc-count=${on ? 0 : REDUCER_GC_COUNT}`);
}

/**
 * Bounds the old generation's growth and keeps the memory reducer from collecting while a server runs; the function
 * returned gives V8 back its own values once no server needs them.
 * @example const release = boundHeapGrowth(); … release()
 */
export function boundHeapGrowth(): () => void {
  if (servers++ === 0 && loads === 0) serverFlags(true);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--servers === 0 && loads === 0) serverFlags(false);
  };
}

/**
 * Runs `load` (a part of the runtime loaded on its first use: node:http2, `ws`) with V8's own values of the flags a
 * server sets, and sets them again once it has loaded. V8 checks every code cache — Node's for its built-in modules,
 * `module.enableCompileCache`'s — against a hash of all its flags' values, and a changed value fails it: under the
 * bound, the modules a server's first request loads compiled from their source (the first request 210 against 150 ms,
 * median of 10 fresh servers; docs/decisions/performance-history.md, "Wave 7").
 * @example const socketServer = await withV8Defaults(() => import("ws"))
 */
export async function withV8Defaults<T>(load: () => Promise<T>): Promise<T> {
  if (loads++ === 0 && servers > 0) serverFlags(false);
  try {
    return await load();
  } finally {
    if (--loads === 0 && servers > 0) serverFlags(true);
  }
}
