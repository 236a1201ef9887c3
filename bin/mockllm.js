#!/usr/bin/env node
// The `mockllm` command. The CLI itself is compiled to dist/ by `npm run build`.
import module from "node:module";
import v8 from "node:v8";

// Node 22.1+: keep V8's compiled code for this package on disk, so `mockllm serve` starts faster from the second
// run on (a no-op on Node 20, and when NODE_DISABLE_COMPILE_CACHE is set).
module.enableCompileCache?.();
// `mockllm serve` answers requests whose objects die young; V8's allocation-site pretenuring, seeing a request's
// objects still alive at a scavenge (an in-flight request, a journal entry), moves whole allocation sites to the old
// generation, where every later request's objects then outlive scavenges and wait for a full GC. Off for this process
// only: ~20% less CPU per request under load and half the scavenge time at light load (docs/performance.md).
v8.setFlagsFromString("--no-allocation-site-pretenuring");
const { runCli } = await import("../dist/client/cli/main.js").catch((err) => {
  if (err?.code !== "ERR_MODULE_NOT_FOUND") throw err;
  process.stderr.write("mockllm: dist/ is missing; run `npm run build` in the mockllm package first\n");
  process.exit(1);
});
process.exitCode = await runCli(process.argv.slice(2));
