#!/usr/bin/env node
// The `mockllm` command. The CLI itself is compiled to dist/ by `npm run build`.
import module from "node:module";

// Node 22.1+: keep V8's compiled code for this package on disk, so `mockllm serve` starts faster from the second
// run on (a no-op on Node 20, and when NODE_DISABLE_COMPILE_CACHE is set).
module.enableCompileCache?.();
const { runCli } = await import("../dist/client/cli/main.js").catch((err) => {
  if (err?.code !== "ERR_MODULE_NOT_FOUND" || !String(err.message).includes("cli/main.js")) throw err;
  process.stderr.write(
    "mockllm: dist/ is missing: run `npm run build` in the mockllm checkout (a git URL must name a release tag, which\n" + 'carries dist/; see "Add it to your project" in the README)\n',
  );
  process.exit(1);
});
process.exitCode = await runCli(process.argv.slice(2));
