#!/usr/bin/env node
// How many zod schemas the built Node runtime (dist/node/core.js) constructs while it is imported, by the source
// module whose code built them, and how many more its first Chat request builds: zod builds every schema's closures
// at construction, so each one built at import is start-up time and idle memory (src/util/memo.ts `lazily`).
// The bundle is evaluated in this process with a counter put into zod's constructor (the build's source map names the
// module of each frame that called it).
//   node bench/schemas-at-import.mjs [--core dist/node/core.js] [--top 40]
import { readFileSync } from "node:fs";
import { createRequire, SourceMap } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import vm from "node:vm";

/** zod's constructor of every schema (in `$constructor`), as the build writes it. */
const CONSTRUCT = /function _\(\w+\) ?\{/g;
const MARK = "core-counted.js";

/**
 * Imports the bundle at `coreFile` with zod's constructor counted; `after(exports)` (awaited) runs before the counts
 * are read a second time. Resolves to `{ atImport, after }`: maps from a source module (`src/…`, or `?` for zod's
 * own) to the schemas it built, at import and in all by then.
 */
export async function schemasAtImport(coreFile, after = async () => {}) {
  const source = readFileSync(coreFile, "utf8");
  const matches = [...source.matchAll(CONSTRUCT)];
  if (matches.length !== 1) throw new Error(`${coreFile}: zod's $constructor not found once (zod's bundle changed?)`);
  // The bundle is minified: a stack frame's line and column are mapped to their source module by the build's map.
  const map = new SourceMap(JSON.parse(readFileSync(`${coreFile}.map`, "utf8")));
  const CALL = "globalThis.__mockllmSchemaBuilt();";
  const at = matches[0].index + matches[0][0].length;
  const callLine = source.slice(0, at).split("\n").length;
  const callColumn = at - source.lastIndexOf("\n", at - 1);
  const moduleAt = (line, column) => {
    // Columns after the inserted call on its own line are as long as it further on.
    const col = line === callLine && column > callColumn ? column - CALL.length : column;
    const file = map.findEntry(line - 1, col - 1)?.originalSource ?? "";
    const i = file.indexOf("src/");
    return file.includes("node_modules/") || i < 0 ? "?" : file.slice(i);
  };
  const counts = new Map();
  const limit = Error.stackTraceLimit;
  globalThis.__mockllmSchemaBuilt = () => {
    Error.stackTraceLimit = 60;
    const stack = new Error().stack ?? "";
    Error.stackTraceLimit = limit;
    let module = "?";
    for (const m of stack.matchAll(new RegExp(`${MARK}:(\\d+):(\\d+)`, "g"))) {
      const from = moduleAt(Number(m[1]), Number(m[2]));
      if (from !== "?") {
        module = from;
        break;
      }
    }
    counts.set(module, (counts.get(module) ?? 0) + 1);
  };
  const counted = `${source.slice(0, at)}${CALL}${source.slice(at)}`;
  const wrapper = vm.runInThisContext(counted, { filename: resolve(dirname(coreFile), MARK) });
  const module = { exports: {} };
  wrapper(module.exports, createRequire(coreFile), module, coreFile, dirname(coreFile));
  const atImport = new Map(counts);
  await after(module.exports);
  delete globalThis.__mockllmSchemaBuilt;
  return { atImport, after: new Map(counts) };
}

/** The sum of a count map's values. */
export const total = (counts) => [...counts.values()].reduce((a, b) => a + b, 0);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { core: { type: "string", default: fileURLToPath(new URL("../dist/node/core.js", import.meta.url)) }, top: { type: "string", default: "40" } } });
  const { atImport, after } = await schemasAtImport(values.core, async (core) => {
    const server = await core.startServer({ adminToken: "t", watch: false, log: () => {} });
    await fetch(`${server.url}/admin/scenarios`, {
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: JSON.stringify([{ name: "s", steps: [{ respond: { text: "hi" } }] }]),
    });
    await fetch(`${server.url}/s/s/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
    });
    await server.close();
  });
  console.log(`${total(atImport)} schemas built at import, ${total(after) - total(atImport)} more by the first Chat request (after a scenario upload)`);
  for (const [module, n] of [...atImport].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`${String(n).padStart(6)}  ${module}`);
}
