// The probe Worker (bench/probe-worker) under Miniflare, with the same settings as mockllm's. Prints its URL.
// PROBE_MODE in the environment becomes the probe's binding ("wire": bench/compare.mjs's probe-wire target).
import { Miniflare } from "miniflare";
import { probeOptions } from "../miniflare.mjs";

const mode = process.env.PROBE_MODE;
const mf = new Miniflare(probeOptions(mode ? { bindings: { PROBE_MODE: mode } } : {}));
console.log((await mf.ready).origin);
