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
 */
import v8 from "node:v8";

/** F = 1.3: V8's own factor when it optimises for memory (its "conservative" growing mode). */
export const GROWING_PERCENT = 30;

let servers = 0;
let loads = 0;

/** True when the process was started with its own growth factor. */
function configuredByUser(): boolean {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((a) => a.includes("heap-growing-percent") || a.includes("heap_growing_percent"));
}

/**
 * Bounds the old generation's growth while a server runs; the function returned gives V8 back its own factor once no
 * server needs the bound.
 * @example const release = boundHeapGrowth(); … release()
 */
export function boundHeapGrowth(): () => void {
  if (configuredByUser()) return () => {};
  if (servers++ === 0 && loads === 0) v8.setFlagsFromString(`--heap-growing-percent=${GROWING_PERCENT}`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--servers === 0 && loads === 0) v8.setFlagsFromString("--heap-growing-percent=0");
  };
}

/**
 * Runs `load` (a part of the runtime loaded on its first use: node:http2,
 * `ws`) with V8's own growth factor, and puts the bound back once it has loaded. V8 checks every code cache — Node's
 * for its built-in modules, `module.enableCompileCache`'s — against a hash of all its flags' values, and a changed
 * value fails it: under the bound, the modules a server's first request loads compiled from their source (the first
 * request 210 against 150 ms, median of 10 fresh servers; docs/decisions/performance-history.md, "Wave 7").
 * @example const socketServer = await withV8Defaults(() => import("ws"))
 */
export async function withV8Defaults<T>(load: () => Promise<T>): Promise<T> {
  if (configuredByUser()) return load();
  if (loads++ === 0 && servers > 0) v8.setFlagsFromString("--heap-growing-percent=0");
  try {
    return await load();
  } finally {
    if (--loads === 0 && servers > 0) v8.setFlagsFromString(`--heap-growing-percent=${GROWING_PERCENT}`);
  }
}
