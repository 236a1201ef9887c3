/** The Node runtime's entry (bundled to dist/node/index.js). */
export { startServer, type RunningServer, type ServeOptions } from "./server";
export { parseUpstreams, RECORDING_SCENARIO, type RecordOptions } from "./record";
