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
 *
 * Lowering that count is only safe while the reducer has started no collection of its current cycle: V8 checks
 * `started_gcs <= memory_reducer_gc_count` at each of the reducer's events (`CHECK_LE` in `MemoryReducer::Step`, a
 * release-build check), so a count lowered to 0 in the second between its first collection and its second aborts
 * the process (`Check failed: state.started_gcs() <= MaxNumberOfGCs()`, SIGTRAP). That happened in a test process
 * that stopped its server, sat idle for 8 s, then started another. So the count is lowered once, by a server started
 * in the process's first REDUCER_SAFE_UPTIME_S seconds — before the reducer can have started anything (its first
 * collection waits 8 s after a full collection) — and stays lowered for the rest of the process, where the reducer
 * never starts one (a count of 0 ends each cycle before its first collection). A server started later leaves the
 * reducer as it is. `withV8Defaults` still gives the count back for the few milliseconds of a load (the code
 * caches' tag); a reducer timer due in exactly that window that also finds the allocation rate low could start a
 * collection there, an accepted risk the tests cannot reach.
 */
import v8 from "node:v8";

/** F = 1.3: V8's own factor when it optimises for memory (its "conservative" growing mode). */
export const GROWING_PERCENT = 30;

/** V8's own count of memory-reducing collections after a load (12.4's default), given back when no server runs. */
const REDUCER_GC_COUNT = 2;

/** A server started this soon after the process did may lower the reducer's count: see above. */
export const REDUCER_SAFE_UPTIME_S = 7;

let servers = 0;
let loads = 0;
/** The reducer's count was lowered (for the rest of the process). */
let reducerOff = false;

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

/** The growth bound a running server sets (`on`) or gives back to V8's own value, unless the process set it itself. */
function growthFlag(on: boolean): void {
  if (!configuredByUser("heap-growing-percent")) v8.setFlagsFromString(`--heap-growing-percent=${on ? GROWING_PERCENT : 0}`);
}

/** Sets the reducer's count: 0 (`off`) or V8's own; only once it has been lowered safely (`reducerOff`). */
function reducerFlag(off: boolean): void {
  if (reducerOff) v8.setFlagsFromString(`--memory-reducer-gc-count=${off ? 0 : REDUCER_GC_COUNT}`);
}

/** Lowers the reducer's count for the rest of the process when that is safe: early, and not set by the process. */
function reducerOffWhileSafe(): void {
  if (reducerOff || !hasReducerCount() || configuredByUser("memory-reducer") || process.uptime() >= REDUCER_SAFE_UPTIME_S) return;
  reducerOff = true;
  reducerFlag(true);
}

/**
 * Bounds the old generation's growth while a server runs and, for a server started early in the process, keeps the
 * memory reducer from collecting from then on; the function returned gives V8 back its own growth factor once no
 * server needs it.
 * @example const release = boundHeapGrowth(); … release()
 */
export function boundHeapGrowth(): () => void {
  if (servers++ === 0 && loads === 0) {
    growthFlag(true);
    reducerOffWhileSafe();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--servers === 0 && loads === 0) growthFlag(false);
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
  if (loads++ === 0) {
    if (servers > 0) growthFlag(false);
    reducerFlag(false);
  }
  try {
    return await load();
  } finally {
    if (--loads === 0) {
      if (servers > 0) growthFlag(true);
      reducerFlag(true);
    }
  }
}
