// The probe Worker (bench/probe-worker) under Miniflare, with the same settings as mockllm's. Prints its URL.
import { Miniflare } from "miniflare";
import { probeOptions } from "../miniflare.mjs";

const mf = new Miniflare(probeOptions());
console.log((await mf.ready).origin);
