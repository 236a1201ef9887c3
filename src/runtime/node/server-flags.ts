/**
 * The V8 flags a `mockllm serve` or `mockllm record` process runs with. V8 sizes its young generation once, when the
 * process starts (`--max-semi-space-size`; `v8.setFlagsFromString` of it at run time has no effect), so the `mockllm`
 * bin replaces itself with `node <flags> …` (process.execve: the same process id, stdio and environment) before the
 * CLI loads, and the re-run process puts the flags' values back to V8's defaults as its first step (the heap keeps the
 * size it was set up with; see `settleServerFlags`). Built apart from the runtime (dist/node/server-flags.js, only
 * node:v8) so the bin loads only this; the bench's launcher (bench/launch.mjs) starts its mockllm server the same way.
 *
 * 8 MB semi-spaces where V8 alone grows them to 16 MB under load: a fresh server's first burst (1,000 paced streams)
 * peaks ~15 MB lower, at the peer's, the second burst ~20 MB lower (docs/decisions/performance-history.md, "Wave 7").
 */

import v8 from "node:v8";

/** The flags, in the order they are passed. */
export const SERVER_FLAGS: readonly string[] = Object.freeze(["--max-semi-space-size=8"]);

/** Each flag at V8's default value (0: V8 sizes the semi-spaces itself). */
const DEFAULTS: readonly string[] = Object.freeze(["--max-semi-space-size=0"]);

/** The commands that run a server. */
const SERVER_COMMANDS = new Set(["serve", "record"]);

/** A flag the user set that sizes V8's young generation (or the whole heap, which sizes it too): theirs is kept. */
const OWN_SIZING = /semi[-_]space|young[-_]generation|max[-_]heap[-_]size/;

/** What the decision reads from the process. */
export interface ProcessStart {
  execArgv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** Whether Node can replace the process (`process.execve`: Node 22.15+, not on Windows). */
  canExec: boolean;
}

/**
 * The flags to re-run this process with, or undefined to run it as it is: only for a server command (not its
 * `--help`), and only when the process was not started with its own young-generation sizing (command line or
 * NODE_OPTIONS; once re-run, it has the flags, so it never re-runs twice).
 * @example relaunchFlags(["serve", "--port", "0"], { execArgv: [], env: {}, canExec: true }) // ["--max-semi-space-size=8"]
 */
export function relaunchFlags(args: readonly string[], { execArgv, env, canExec }: ProcessStart): string[] | undefined {
  const [command, ...rest] = args;
  if (!canExec || command === undefined || !SERVER_COMMANDS.has(command) || rest.includes("--help") || rest.includes("-h")) return undefined;
  if ([...execArgv, env.NODE_OPTIONS ?? ""].some((a) => OWN_SIZING.test(a))) return undefined;
  return [...SERVER_FLAGS];
}

/**
 * In a process started with the server flags, puts their values back to V8's defaults; returns whether it did. The
 * young generation was sized when the process started and keeps that size (V8 reads the flag only then), but V8's
 * code caches — Node's own for its built-in modules, and `module.enableCompileCache`'s — are checked against a hash of
 * every flag's value and refused when it differs: left set, the flag made each built-in module loaded afterwards
 * (node:http, the fetch classes) compile from its source, ~35 ms more to start and on the first request.
 * @example settleServerFlags() // first thing in the re-run process
 */
export function settleServerFlags(execArgv: readonly string[] = process.execArgv): boolean {
  if (!SERVER_FLAGS.every((flag) => execArgv.includes(flag))) return false;
  for (const flag of DEFAULTS) v8.setFlagsFromString(flag);
  return true;
}

/**
 * Replaces this process with itself started with the server flags when `relaunchFlags` says so; in the process so
 * started, `settleServerFlags`; else returns.
 * @example relaunchWithServerFlags() // bin/mockllm.js, before the CLI loads
 */
export function relaunchWithServerFlags(): void {
  if (settleServerFlags()) return;
  const flags = relaunchFlags(process.argv.slice(2), { execArgv: process.execArgv, env: process.env, canExec: typeof process.execve === "function" });
  if (flags === undefined || process.execve === undefined) return;
  process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], process.env);
}
