#!/usr/bin/env node
// Bundles the Node runtime (src/hosts/node) for plain Node 20+: one file loads faster than hundreds of modules, and an
// installed package needs neither wrangler nor workerd to serve. dist/node/core.js is the runtime (src/hosts/node/
// index.ts and all it imports), a CommonJS script; dist/node/index.js, the ES module users import, is
// src/hosts/node/entry.ts, which compiles the core with a V8 code cache kept on disk (Node 20 has no
// module.enableCompileCache, and Node 22's does not see a script compiled through node:vm).
// Usage: node bin/build-node.mjs [--out-dir <dir>]   (default: dist/ next to package.json; writes <dir>/node)
import { createHash } from "node:crypto";
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
 * The tokenizer's encodings (~3.6 MB of ranks, a runtime dependency) stay in node_modules: loaded on the first counted
 * request (src/providers/openai/usage/count.ts), never parsed at start-up (docs/reference/usage.md). Through require()
 * (gpt-tokenizer ships CommonJS beside its ES modules) rather than the source's import(): a script compiled by node:vm
 * from a code cache has no import() (Node loses the script's dynamic-import callback with the cache).
 */
const tokenizerViaRequire = {
  name: "tokenizer-via-require",
  setup(b) {
    b.onResolve({ filter: /^gpt-tokenizer(\/.*)?$/ }, (args) =>
      args.namespace === "tokenizer-via-require" ? { path: args.path, external: true } : { path: args.path, namespace: "tokenizer-via-require" },
    );
    b.onLoad({ filter: /.*/, namespace: "tokenizer-via-require" }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: "js" }));
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

const CORE = "core.js";
const built = await build({
  entryPoints: [join(root, "src/hosts/node/index.ts")],
  outfile: join(outDir, CORE),
  bundle: true,
  platform: "node",
  // CommonJS, wrapped below in a function expression: a script node:vm compiles with a code cache
  // (src/hosts/node/entry.ts), where Node 20 has no API for an ES module's.
  format: "cjs",
  target: "node20",
  sourcemap: "linked",
  legalComments: "none",
  // Whitespace and syntax minified, names kept (profiles and stack traces name the functions; the linked map gives
  // their source line): V8 keeps the whole source for as long as the script lives, and compiles functions from it
  // lazily. 1.52 → 1.14 MB: ~0.5 MB less idle RSS and 4–8% sooner start-up on Node 20 and 22 (docs/performance.md).
  minifyWhitespace: true,
  minifySyntax: true,
  // ASCII only (non-ASCII characters in strings escaped as \uXXXX): V8 keeps a script's source in memory for as long as
  // the script lives, and one non-Latin-1 character ("—", "…", "→") makes the whole 1 MB source a two-byte string.
  charset: "ascii",
  logLevel: "warning",
  plugins: [zodEnglishOnly, builtinsViaRequire, tokenizerViaRequire, nodeWeb],
  metafile: true,
});
// No import() may reach the core's output: it would throw at run time (tokenizerViaRequire).
for (const [file, output] of Object.entries(built.metafile.outputs)) {
  const dynamic = output.imports.filter((i) => i.kind === "dynamic-import" && i.external).map((i) => i.path);
  if (dynamic.length > 0) throw new Error(`build-node: ${file} would import() ${dynamic.join(", ")}; load it through require() instead`);
}
// What `charset: "ascii"` leaves: characters in the comments esbuild keeps. Escaped too, so the source is all ASCII;
// a non-ASCII character anywhere but a comment line is a build error (it would make the source two-byte again).
const coreFile = join(outDir, CORE);
const lines = readFileSync(coreFile, "utf8").split("\n");
for (const [i, line] of lines.entries()) {
  if (!/\P{ASCII}/u.test(line)) continue;
  if (!/^\s*(\/\/|\/\*|\*)/.test(line)) throw new Error(`build-node: a non-ASCII character outside a comment, ${coreFile}:${i + 1}: ${line.trim().slice(0, 120)}`);
  lines[i] = line.replace(/\P{ASCII}/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
}
// The CommonJS wrapper (Node's own loader's) written into the file, on a line of its own, so the entry compiles the
// file's text as it is read (a string concatenated at run time would be a second 1.1 MB copy of the source).
const mapLine = lines.findLastIndex((l) => l.startsWith("//# sourceMappingURL="));
const coreSource = ["(function (exports, require, module, __filename, __dirname) {", ...lines.slice(0, mapLine), "})", ...lines.slice(mapLine)].join("\n");
writeFileSync(coreFile, coreSource);
const coreMap = JSON.parse(readFileSync(`${coreFile}.map`, "utf8"));
writeFileSync(`${coreFile}.map`, JSON.stringify({ ...coreMap, mappings: `;${coreMap.mappings}` }));
packageSourceMap(`${coreFile}.map`, distDir, root);

// The entry, told the core's name and a hash of its content: the code cache's file is per build (V8 itself checks
// only the source's length).
await build({
  entryPoints: [join(root, "src/hosts/node/entry.ts")],
  outfile: join(outDir, "index.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  legalComments: "none",
  charset: "ascii",
  logLevel: "warning",
  define: { MOCKLLM_NODE_CORE: JSON.stringify({ file: `./${CORE}`, hash: createHash("sha256").update(coreSource).digest("hex").slice(0, 16) }) },
});
packageSourceMap(join(outDir, "index.js.map"), distDir, root);
console.log(`built ${outDir}`);
