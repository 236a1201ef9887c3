/**
 * The Node runtime as built: dist/node/index.js is this file, and the runtime itself (./index.ts and everything it
 * imports, ~1.1 MB minified) is dist/node/core.js beside it (a script, not a module), compiled here with a V8 code
 * cache kept on disk. Without one, every start parses the whole bundle and compiles each function start-up runs; with one, V8
 * reads them compiled (Node 20, which has no `module.enableCompileCache`: start-up 15–30% sooner, ~7 MB less idle RSS;
 * on Node 22+ the same cache serves, as Node's own does not see a script compiled here). The cache is written once, by
 * the first server of a build to start, in `$NODE_COMPILE_CACHE/mockllm` (default: the OS temp dir's
 * `node-compile-cache/mockllm`, where Node keeps its own), one file per build, Node version and set of V8 flags.
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off, and so does `--enable-source-maps` (stack traces mapped to src/, as
 * before). A start that writes a cache keeps the newest CACHES_KEPT of the directory's (each build's is ~0.9 MB) and
 * drops a write left half-done by a process that died over an hour ago. Measured in docs/performance.md (the Node
 * runtime beside the peer).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import type * as Core from "./index";

/** Set by bin/build-node.mjs: the core bundle's file name (beside this one) and a hash of its content. */
declare const MOCKLLM_NODE_CORE: { file: string; hash: string };

/** What happened to the code cache in this process. */
export type CodeCacheState =
  /** NODE_DISABLE_COMPILE_CACHE is set, or source maps are on (`--enable-source-maps`). */
  | "off"
  /** There was none yet: the first server to start writes it. */
  | "absent"
  /** V8 refused the one on disk (another V8 build's, or damaged): the first server to start writes it again. */
  | "rejected"
  /** V8 compiled the runtime from it. */
  | "accepted"
  /** Written by this process. */
  | "written";

const coreFile = fileURLToPath(new URL(MOCKLLM_NODE_CORE.file, import.meta.url));
/**
 * Source maps on (`--enable-source-maps`, also through NODE_OPTIONS): Node maps the stack traces only of code its own
 * loaders compiled, so the core goes through its CommonJS loader then, without the cache (as every start did before).
 */
const sourceMaps = (process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled ?? [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((a) => a.includes("--enable-source-maps"));
/** V8's tag for its version and flags; a cache made under other flags is refused, so each set gets its own file. */
const versionTag = v8.cachedDataVersionTag();
const cacheDir = process.env.NODE_DISABLE_COMPILE_CACHE || sourceMaps ? undefined : join(process.env.NODE_COMPILE_CACHE || join(tmpdir(), "node-compile-cache"), "mockllm");
const cacheFile = cacheDir && join(cacheDir, `${MOCKLLM_NODE_CORE.hash}-${process.version}-${process.arch}-${versionTag}.bin`);

/** A file only this user can have written: the cache directory is shared (the OS temp dir), and a cache is code. */
function ownedBytes(dir: string, file: string): Buffer | undefined {
  const uid = process.getuid?.();
  try {
    const d = statSync(dir, { throwIfNoEntry: false });
    if (!d || (uid !== undefined && (d.uid !== uid || (d.mode & 0o022) !== 0))) return undefined;
    const f = statSync(file, { throwIfNoEntry: false });
    if (!f || (uid !== undefined && (f.uid !== uid || (f.mode & 0o022) !== 0))) return undefined;
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

type Wrapper = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

/** The core compiled, with the cache when there is a usable one (the bytes are not kept past the compile). */
function compileCore(): { wrapper: Wrapper; script?: vm.Script; state: CodeCacheState } {
  if (sourceMaps) {
    // Node's own loader (Module#_compile registers the file's source map), given the same text as an assignment: the
    // wrapper's line is the file's first, so every mapped line stays where the map has it.
    const loader = new Module(coreFile) as Module & { _compile(content: string, filename: string): void };
    loader.filename = coreFile;
    loader._compile(`module.exports = ${readFileSync(coreFile, "latin1")}`, coreFile);
    return { wrapper: loader.exports as Wrapper, state: "off" };
  }
  const cached = cacheDir && cacheFile ? ownedBytes(cacheDir, cacheFile) : undefined;
  // The file is one function expression (Node's CommonJS wrapper around the bundle, build-node.mjs), all ASCII: latin1
  // reads it as it is, and V8 keeps it outside its heap.
  const script = new vm.Script(readFileSync(coreFile, "latin1"), { filename: coreFile, cachedData: cached });
  return {
    wrapper: script.runInThisContext() as Wrapper,
    script,
    state: cacheFile === undefined ? "off" : cached === undefined ? "absent" : script.cachedDataRejected ? "rejected" : "accepted",
  };
}

const compiled = compileCore();
const script = compiled.script;
let state = compiled.state;
const module = { exports: {} as typeof Core };
compiled.wrapper.call(module.exports, module.exports, createRequire(coreFile), module, coreFile, dirname(coreFile));
const core = module.exports;

/** Cache files kept in the directory: the one just written and the newest others (other builds, Node versions, flags). */
const CACHES_KEPT = 8;
const CACHE_NAME = /^[0-9a-f]{16}-.+\.bin$/;
const STALE_TMP_MS = 60 * 60 * 1000;

/** Drops all but the newest CACHES_KEPT cache files and stale half-written ones; best effort, like the write. */
function pruneCodeCaches(dir: string): void {
  const now = Date.now();
  const caches: { path: string; at: number }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const at = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    if (at === undefined) continue;
    if (CACHE_NAME.test(name)) caches.push({ path, at });
    else if (name.endsWith(".tmp") && now - at > STALE_TMP_MS) rmSync(path, { force: true });
  }
  caches.sort((a, b) => b.at - a.at);
  for (const { path } of caches.slice(CACHES_KEPT)) if (path !== cacheFile) rmSync(path, { force: true });
}

/** Writes the cache (what V8 has compiled by now: start-up's functions too), once, atomically; failures are silent. */
function writeCodeCache(): void {
  if ((state !== "absent" && state !== "rejected") || !script || !cacheDir || !cacheFile || v8.cachedDataVersionTag() !== versionTag) return;
  state = "written";
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    renameSync(tmp, cacheFile);
    pruneCodeCaches(cacheDir);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // A cache that cannot be written is only a slower next start.
    }
  }
}

/** Starts the Node runtime (./server.ts); the first server of a process without a usable cache writes it once ready. */
export async function startServer(opts?: Core.ServeOptions): Promise<Core.RunningServer> {
  const server = await core.startServer(opts);
  if (state === "absent" || state === "rejected") setImmediate(() => void core.withV8Defaults(async () => writeCodeCache()));
  return server;
}

/** This process's code cache: where it is and what became of it. */
export function nodeCodeCache(): { file: string | undefined; state: CodeCacheState } {
  return { file: cacheFile, state };
}

export const { parseUpstreams, RECORDING_SCENARIO } = core;
export type { RecordOptions, RunningServer, ServeOptions } from "./index";
