#!/usr/bin/env node
// How many zod schemas the built Node runtime (dist/node/core.js) constructs while it is imported, by the source
// module whose code built them, and how many more its first Chat request builds: zod builds every schema's closures
// at construction, so each one built at import is start-up time and idle memory (src/util/memo.ts `lazily`).
// The bundle is evaluated in this process with a counter put into zod's constructor (the source's `// src/…` comments
// name the module of each line).
//   node bench/schemas-at-import.mjs [--core dist/node/core.js] [--top 40]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import vm from "node:vm";

const CONSTRUCT = "  function _(def) {\n";
const MARK = "core-counted.js";

/**
 * Imports the bundle at `coreFile` with zod's constructor counted; `after(exports)` (awaited) runs before the counts
 * are read a second time. Resolves to `{ atImport, after }`: maps from a source module (`src/…`, or `?` for zod's
 * own) to the schemas it built, at import and in all by then.
 */
export async function schemasAtImport(coreFile, after = async () => {}) {
  const source = readFileSync(coreFile, "utf8");
  if (!source.includes(CONSTRUCT)) throw new Error(`${coreFile}: zod's $constructor not found (zod's bundle changed?)`);
  const lines = source.split("\n");
  const moduleOf = [];
  let current = "?";
  for (const [i, line] of lines.entries()) {
    const m = /^\/\/ (src\/\S+|node_modules\/\S+)/.exec(line);
    if (m) current = m[1].startsWith("src/") ? m[1] : "?";
    moduleOf[i + 1] = current;
  }
  const counts = new Map();
  const limit = Error.stackTraceLimit;
  globalThis.__mockllmSchemaBuilt = () => {
    Error.stackTraceLimit = 60;
    const stack = new Error().stack ?? "";
    Error.stackTraceLimit = limit;
    let module = "?";
    for (const m of stack.matchAll(new RegExp(`${MARK}:(\\d+):`, "g"))) {
      const at = moduleOf[Number(m[1])];
      if (at !== "?") {
        module = at;
        break;
      }
    }
    counts.set(module, (counts.get(module) ?? 0) + 1);
  };
  const counted = source.replace(CONSTRUCT, `${CONSTRUCT}    globalThis.__mockllmSchemaBuilt();\n`);
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
