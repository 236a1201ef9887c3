#!/usr/bin/env node
// The `mockllm` command. The CLI itself is compiled to dist/ by `npm run build`.
const { runCli } = await import("../dist/client/cli/main.js").catch((err) => {
  if (err?.code !== "ERR_MODULE_NOT_FOUND") throw err;
  process.stderr.write("mockllm: dist/ is missing; run `npm run build` in the mockllm package first\n");
  process.exit(1);
});
process.exitCode = await runCli(process.argv.slice(2));
