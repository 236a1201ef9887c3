#!/usr/bin/env node
// Bundles the Worker once (wrangler's own bundler, `deploy --dry-run`) into dist/worker/, with the runtime
// settings from wrangler.toml in runtime.json, so an installed package's startMockLLM can run it under Miniflare
// without importing or re-running wrangler's bundler.
// Usage: node bin/build-worker.mjs [--out-dir <dir>]   (default: dist/ next to package.json; writes <dir>/worker)
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { packageSourceMap } from "./sourcemap.mjs";
import { wranglerEnv } from "./wrangler-env.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { "out-dir": { type: "string" } } });
const distDir = resolve(values["out-dir"] ?? join(root, "dist"));
const outDir = join(distDir, "worker");
const env = wranglerEnv();

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const require = createRequire(import.meta.url);
const wranglerBin = join(dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");
const config = join(root, "wrangler.toml");
const run = spawnSync(process.execPath, [wranglerBin, "deploy", "--dry-run", "--env=", "--config", config, "--outdir", outDir], {
  cwd: root,
  env,
  stdio: ["ignore", "ignore", "inherit"],
});
if (run.status !== 0) process.exit(run.status ?? 1);
packageSourceMap(join(outDir, "index.js.map"), distDir, root);

const { unstable_readConfig } = await import("wrangler");
const cfg = unstable_readConfig({ config });
writeFileSync(
  join(outDir, "runtime.json"),
  `${JSON.stringify(
    {
      main: "index.js",
      compatibilityDate: cfg.compatibility_date,
      compatibilityFlags: cfg.compatibility_flags,
      vars: cfg.vars,
      durableObjects: cfg.durable_objects.bindings.map((b) => ({ name: b.name, className: b.class_name })),
      kvNamespaces: cfg.kv_namespaces.map((k) => k.binding),
      r2Buckets: cfg.r2_buckets.map((b) => b.binding),
    },
    null,
    2,
  )}\n`,
);
console.log(`built ${outDir}`);
