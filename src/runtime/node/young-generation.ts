/**
 * The young generation's size while a server runs. Under a sustained load V8 doubles the young generation (its two
 * semi-spaces) each time as many bytes have survived scavenges as it holds, up to 16 MB a semi-space on a 64-bit
 * machine: a server under load ends with ~32 MB of new space that is mostly garbage, ~25 MB of peak RSS over what a
 * 4 MB semi-space gives (issue 34; docs/decisions/performance-history.md, "Wave 5"). The largest semi-space is fixed
 * when the process starts (`--max-semi-space-size`), but the growth factor is read at each growth: while a server
 * runs, growth stops once the young generation reaches STOP_BYTES. The growth factor is set by a `gc` observer, which
 * Node runs an event-loop turn after the collection, so under load one more growth can come first: the young
 * generation settles at STOP_BYTES, or at twice that (CAP_BYTES) when the observer was late — never beyond. A process
 * started with its own semi-space flags (on its command line or in NODE_OPTIONS) keeps them.
 */
import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";

/** Most bytes of new space (both semi-spaces: 4 MB each) the young generation grows to while a server runs. */
export const CAP_BYTES = 8 * 1024 * 1024;
/** New space at which growth is turned off: one growth short of the cap, so a late observer cannot pass it. */
const STOP_BYTES = CAP_BYTES / 2;
/** V8's default growth factor (`--semi-space-growth-factor`), restored when the last server closes. */
const V8_GROWTH_FACTOR = 2;

let servers = 0;
let observer: PerformanceObserver | undefined;
let factor = V8_GROWTH_FACTOR;

function setFactor(next: number): void {
  if (next === factor) return;
  factor = next;
  v8.setFlagsFromString(`--semi-space-growth-factor=${next}`);
}

/** After each collection: the young generation may grow while it is under the cap, and not once it is there. */
function check(): void {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  if (space !== undefined) setFactor(space.space_size >= STOP_BYTES ? 1 : V8_GROWTH_FACTOR);
}

/** True when the process was started with its own young-generation sizing. */
function configuredByUser(): boolean {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((a) => a.includes("semi-space") || a.includes("semi_space"));
}

/**
 * Caps the young generation while a server runs; the function returned lifts the cap once no server needs it.
 * @example const release = capYoungGeneration(); … release()
 */
export function capYoungGeneration(): () => void {
  if (configuredByUser()) return () => {};
  if (servers++ === 0) {
    observer = new PerformanceObserver(check);
    observer.observe({ entryTypes: ["gc"] });
    check();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--servers > 0) return;
    observer?.disconnect();
    observer = undefined;
    setFactor(V8_GROWTH_FACTOR);
  };
}
