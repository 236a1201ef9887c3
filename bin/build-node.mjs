#!/usr/bin/env node
// Bundles the Node runtime (src/hosts/node) into one ES module, dist/node/index.js, for plain Node 20+: one file
// loads faster than hundreds of modules, and an installed package needs neither wrangler nor workerd to serve.
// Usage: node bin/build-node.mjs [--out-dir <dir>]   (default: dist/ next to package.json; writes <dir>/node)
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { packageSourceMap } from "./sourcemap.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { "out-dir": { type: "string" } } });
const distDir = resolve(values["out-dir"] ?? join(root, "dist"));
const outDir = join(distDir, "node");
rmSync(outDir, { recursive: true, force: true });
/**
 * zod's `locales` namespace (`z.locales`: error messages in ~60 languages, over half of zod's bundled size) reduced to
 * the English one zod uses by default: mockllm never switches locale, and the smaller bundle starts faster and holds
 * less memory. Every schema, message and byte on the wire is the same.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), "../locales/index.js"), namespace: "zod-locales" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * Heavy Node built-ins loaded with require(), where they are first needed, not as ES modules. An ES import of a
 * built-in is hoisted to the top of the bundle and loads at start-up even when only a lazily loaded part uses it
 * (node:http2 for the HTTP/1 fetch adapter's instanceof checks; node:zlib and node:tls for ws), and Node 22's ES view of
 * `node:http` reads every export, whose `WebSocket`/`MessageEvent` getters load Node's bundled undici (~20 ms, ~13 MB).
 * Through require() each loads when the code that uses it first runs.
 */
const LAZY_BUILTINS = /^(node:)?(http|http2|https|tls|zlib)$/;
const builtinsViaRequire = {
  name: "builtins-via-require",
  setup(b) {
    b.onResolve({ filter: LAZY_BUILTINS }, (args) => {
      const path = args.path.startsWith("node:") ? args.path : `node:${args.path}`;
      return args.namespace === "builtin-via-require" ? { path, external: true } : { path, namespace: "builtin-via-require" };
    });
    b.onLoad({ filter: /.*/, namespace: "builtin-via-require" }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: "js" }));
  },
};

/**
 * The Fetch classes the shared code constructs (src/http/web.ts, the runtime's globals) swapped for the Node runtime's
 * own (src/hosts/node/web.ts): the globals' getters load Node's bundled undici (~13 MB, ~35 ms at the first request).
 */
const SHARED_WEB = join(root, "src/http/web.ts");
const NODE_WEB = join(root, "src/hosts/node/web.ts");
const nodeWeb = {
  name: "node-web",
  setup(b) {
    b.onResolve({ filter: /(^|\/)web$/ }, (args) => (resolve(args.resolveDir, `${args.path}.ts`) === SHARED_WEB ? { path: NODE_WEB } : undefined));
  },
};

await build({
  entryPoints: [join(root, "src/hosts/node/index.ts")],
  outfile: join(outDir, "index.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  legalComments: "none",
  // ASCII only (non-ASCII characters in strings escaped as \uXXXX): V8 keeps a script's source in memory for as long as
  // the script lives, and one non-Latin-1 character ("—", "…", "→") makes the whole 1 MB source a two-byte string.
  charset: "ascii",
  logLevel: "warning",
  // Bundled CommonJS dependencies may call require() for Node built-ins.
  plugins: [zodEnglishOnly, builtinsViaRequire, nodeWeb],
  // The tokenizer's encodings (~3.6 MB of ranks, a runtime dependency) stay in node_modules: imported on the first
  // counted request (src/providers/openai/usage/count.ts), never parsed at start-up (docs/reference/usage.md).
  external: ["gpt-tokenizer", "gpt-tokenizer/*"],
  banner: { js: 'import { createRequire as __mockllmRequire } from "node:module"; const require = __mockllmRequire(import.meta.url);' },
});
// What `charset: "ascii"` leaves: characters in the comments esbuild keeps. Escaped too, so the source is all ASCII;
// a non-ASCII character anywhere but a comment line is a build error (it would make the source two-byte again).
const outFile = join(outDir, "index.js");
const lines = readFileSync(outFile, "utf8").split("\n");
for (const [i, line] of lines.entries()) {
  if (!/\P{ASCII}/u.test(line)) continue;
  if (!/^\s*(\/\/|\/\*|\*)/.test(line)) throw new Error(`build-node: a non-ASCII character outside a comment, ${outFile}:${i + 1}: ${line.trim().slice(0, 120)}`);
  lines[i] = line.replace(/\P{ASCII}/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
}
writeFileSync(outFile, lines.join("\n"));
packageSourceMap(`${outFile}.map`, distDir, root);
console.log(`built ${outDir}`);
