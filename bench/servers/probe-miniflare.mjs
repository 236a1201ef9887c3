// The probe Worker (bench/probe-worker) under Miniflare, with the same settings as mockllm's. Prints its URL.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";

const runtime = JSON.parse(readFileSync(fileURLToPath(new URL("../../dist/worker/runtime.json", import.meta.url)), "utf8"));
const mf = new Miniflare(
  convertV4MiniflareOptions({
    modules: true,
    scriptPath: fileURLToPath(new URL("../probe-worker/index.js", import.meta.url)),
    modulesRoot: fileURLToPath(new URL("../probe-worker/", import.meta.url)),
    compatibilityDate: runtime.compatibilityDate,
    compatibilityFlags: runtime.compatibilityFlags,
    durableObjects: { PROBE: { className: "Probe", useSQLite: true } },
    host: "127.0.0.1",
    port: 0,
  }),
);
console.log((await mf.ready).origin);
