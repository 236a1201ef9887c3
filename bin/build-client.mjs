#!/usr/bin/env node
// Builds the client toolkit for plain Node 20+: tsc (tsconfig.client.json) into dist/, then adds
// the `.js` / `/index.js` extensions Node's ESM loader needs to the relative imports tsc kept
// extensionless (the repo uses bundler-style imports, which the Worker's bundler resolves itself).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { packageSourceMaps } from "./sourcemap.mjs";

// Usage: node bin/build-client.mjs [--out-dir <dir>] [--if-missing]   (default: dist/ next to package.json;
// --if-missing: nothing to do when the CLI is built already, as `npm start` and `npm run dev` ask)
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { "out-dir": { type: "string" }, "if-missing": { type: "boolean" } } });
const outDir = resolve(values["out-dir"] ?? join(root, "dist"));
if (values["if-missing"] && existsSync(join(outDir, "client", "cli", "main.js"))) process.exit(0);

rmSync(outDir, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const args = [tsc, "-p", join(root, "tsconfig.client.json"), "--outDir", outDir];
const run = spawnSync(process.execPath, args, { stdio: "inherit" });
if (run.status !== 0) process.exit(run.status ?? 1);

const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"']*)\2/g;
let files = 0;
for (const file of walk(outDir)) {
  const isDts = file.endsWith(".d.ts");
  if (!isDts && !file.endsWith(".js")) continue;
  const text = readFileSync(file, "utf8");
  const fixed = text.replace(SPECIFIER, (all, lead, quote, spec) => {
    if (/\.(m|c)?js$|\.json$/.test(spec)) return all;
    const base = resolve(dirname(file), spec);
    const ext = isDts ? ".d.ts" : ".js";
    if (existsSync(base + ext)) return `${lead}${quote}${spec}.js${quote}`;
    if (existsSync(join(base, `index${ext}`))) return `${lead}${quote}${spec}/index.js${quote}`;
    throw new Error(`${file}: cannot resolve "${spec}" in the build output`);
  });
  if (fixed !== text) {
    writeFileSync(file, fixed);
    files++;
  }
}
packageSourceMaps(outDir, outDir, root);
console.log(`built ${outDir} (import extensions added in ${files} files)`);

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}
