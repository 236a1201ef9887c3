/**
 * The Worker the compat suites run under project `node`: bundled once per run by bin/build-worker.mjs (the bundle
 * `npm run build` ships and `startMockLLM({ runtime: "workerd" })` runs under Miniflare), by the first test file
 * that needs it; the others wait for it. Starting it per file through wrangler (`unstable_startWorker`, as
 * `wrangler dev` does) cost each of ~110 files wrangler's import and an esbuild pass over the whole source (20 files:
 * 70 s → 43 s); `session-reads.test.ts` still goes that way, so the path `wrangler dev` takes stays proven.
 *
 * The folder is made per run by the project's global setup (`worker-bundle.setup.ts`) and provided to the files.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { type PrebuiltWorker, readPrebuilt } from "../../src/client/testing/start";

declare module "vitest" {
  export interface ProvidedContext {
    /** A folder of this run's own, empty until a file bundles the Worker into `<it>/worker`. */
    workerBundleDir: string;
  }
}

const BUILD = fileURLToPath(new URL("../../bin/build-worker.mjs", import.meta.url));
/**
 * How long a file waits for another's bundle: a backstop, as the files' `beforeAll` (hookTimeout 60 s) gives up first.
 * A bundle takes ~3 s on an idle 2-core machine; a build outliving the first file's hook still finishes for the rest.
 */
const WAIT_MS = 240_000;

let bundled: Promise<PrebuiltWorker> | undefined;

/** This run's bundled Worker, built by this file if no other file has begun to. */
export function workerBundle(): Promise<PrebuiltWorker> {
  const root = inject("workerBundleDir");
  if (root === undefined) throw new Error("no workerBundleDir: run this file in a project whose globalSetup is test/support/worker-bundle.setup.ts (project node)");
  return (bundled ??= build(root));
}

async function build(root: string): Promise<PrebuiltWorker> {
  const dir = join(root, "worker");
  const failed = join(root, "failed.txt");
  const done = join(root, "done"); // written after the bundle and its runtime.json are whole
  let mine = true;
  try {
    mkdirSync(join(root, "lock")); // atomic: one file wins
  } catch {
    mine = false;
  }
  if (mine) {
    const error = await new Promise<string | undefined>((resolve) =>
      execFile(process.execPath, [BUILD, "--out-dir", root], { maxBuffer: 16 << 20 }, (err, _out, stderr) => resolve(err ? `${err.message}\n${stderr}` : undefined)),
    );
    if (error !== undefined) {
      writeFileSync(failed, error);
      throw new Error(`bundling the Worker failed: ${error}`);
    }
    writeFileSync(done, "");
  }
  for (const started = Date.now(); Date.now() - started < WAIT_MS; await new Promise((r) => setTimeout(r, 100))) {
    if (existsSync(failed)) throw new Error(`bundling the Worker failed: ${readFileSync(failed, "utf8")}`);
    if (!existsSync(done)) continue;
    const prebuilt = readPrebuilt(dir);
    if (prebuilt) return prebuilt;
    throw new Error(`the Worker bundle in ${dir} has no runtime.json`);
  }
  throw new Error(`no Worker bundle in ${dir} after ${WAIT_MS / 1000} s`);
}
