/**
 * The Node runtime started in process with pacing off (DEFAULT_WORDS_PER_SECOND=0, so no test sleeps through a
 * paced stream), unless the test sets it. Import it dynamically from files that also run inside workerd.
 */
import { startServer, type RunningServer, type ServeOptions } from "../../src/hosts/node/server";

export function startQuietServer(opts: ServeOptions = {}): Promise<RunningServer> {
  return startServer({ ...opts, vars: { DEFAULT_WORDS_PER_SECOND: "0", ...opts.vars } });
}
