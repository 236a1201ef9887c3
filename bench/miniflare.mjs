// Miniflare options for the bench's Worker targets, shared by their launchers (bench/servers/probe-miniflare.mjs) and
// bench/worker-profile.mjs: mockllm's prebuilt bundle (dist/worker) as startMockLLM({ runtime: "workerd" }) runs it,
// and the probe Worker (bench/probe-worker) with the same runtime settings. `extra`: more options (inspectorPort).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { convertV4MiniflareOptions } from "miniflare";

const DIST = fileURLToPath(new URL("../dist/worker/", import.meta.url));
const PROBE = fileURLToPath(new URL("./probe-worker/", import.meta.url));
// The probe imports the floors' answers from bench/ (../floor-answers.mjs): its modules root is bench/.
const BENCH = fileURLToPath(new URL("./", import.meta.url));

function runtimeOf(dir = DIST) {
  return JSON.parse(readFileSync(join(dir, "runtime.json"), "utf8"));
}

/**
 * mockllm's Worker bundle (as src/client/testing/start.ts `startPrebuilt`), with `bindings` as its vars; `dir`: another
 * bundle than dist/worker (a copy set aside, bench/worker-cpu.mjs).
 */
export function mockllmOptions(bindings, extra = {}, dir = DIST) {
  const runtime = runtimeOf(dir);
  return convertV4MiniflareOptions({
    modules: true,
    scriptPath: join(dir, runtime.main),
    compatibilityDate: runtime.compatibilityDate,
    compatibilityFlags: runtime.compatibilityFlags,
    durableObjects: Object.fromEntries(runtime.durableObjects.map((d) => [d.name, { className: d.className, useSQLite: true }])),
    kvNamespaces: runtime.kvNamespaces,
    modulesRoot: dir,
    bindings,
    host: "127.0.0.1",
    port: 0,
    ...extra,
  });
}

/** The probe Worker: one Durable Object round trip per request, with mockllm's compatibility settings. */
export function probeOptions(extra = {}) {
  const runtime = runtimeOf();
  return convertV4MiniflareOptions({
    // Listed: Miniflare does not follow imports. Names are paths under bench/, as the probe imports them.
    modules: [join(PROBE, "index.js"), join(BENCH, "floor-answers.mjs"), join(BENCH, "workload.mjs")].map((path) => ({ type: "ESModule", path })),
    modulesRoot: BENCH,
    compatibilityDate: runtime.compatibilityDate,
    compatibilityFlags: runtime.compatibilityFlags,
    durableObjects: { PROBE: { className: "Probe", useSQLite: true } },
    host: "127.0.0.1",
    port: 0,
    ...extra,
  });
}
