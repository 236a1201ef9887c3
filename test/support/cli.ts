/** The `mockllm` CLI run in process, its output captured (the same `runCli` bin/mockllm.js calls). */
import { runCli } from "../../src/client/cli/main";
import { until } from "./until";

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `mockllm <argv>` with `env` as its environment and `cwd` as its directory; stdout and stderr joined by lines. */
export async function captureCli(argv: string[], { env = {}, cwd = process.cwd() }: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env, cwd });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

export interface ServingCli {
  /** The URL of the ready line (`mockllm is ready on <url>`). */
  url: string;
  /** What it printed so far, line by line. */
  out: string[];
  err: string[];
  /** Stops it (as Ctrl-C) and gives its exit code. */
  stop(): Promise<number>;
}

/** Starts a serving command (`serve`, `record`) in process and waits for its ready line. */
export async function serveCli(argv: string[], { env = {}, cwd = process.cwd() }: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<ServingCli> {
  const out: string[] = [];
  const err: string[] = [];
  const abort = new AbortController();
  const done = runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env, cwd, signal: abort.signal });
  let exited = false;
  void done.finally(() => {
    exited = true;
  });
  const ready = () => /mockllm is ready on (http:\/\/\S+)/.exec(out.join("\n"))?.[1];
  const url = await until(ready, (u) => u !== undefined || exited, { ms: 20_000, every: 10 });
  if (url === undefined) throw new Error(`mockllm ${argv.join(" ")} exited before it was ready: ${err.join("\n")}`);
  return {
    url,
    out,
    err,
    stop: () => {
      abort.abort();
      return done;
    },
  };
}
