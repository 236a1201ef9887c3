/** The Node runtime (bundled to dist/node/core.js, which dist/node/index.js, ./entry.ts, loads with a V8 code cache). */
export { startServer, type RunningServer, type ServeOptions } from "./server";
export { parseUpstreams, RECORDING_SCENARIO, type RecordOptions } from "./record";
// For the built entry (./entry.ts): it writes the code cache with V8's flags at their defaults.
export { withV8Defaults } from "./heap-growth";
