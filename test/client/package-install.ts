// Helpers for package.test.ts's "installed" tests: npm as a user runs it, in a project of its own, and what an
// installed package's source maps point at.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The environment without what `npm test` / `npx` put there (npm_config_*, npm_package_*), as in a user's shell. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
  delete env.MOCKLLM_BIN;
  delete env.MOCKLLM_URL;
  delete env.MOCKLLM_ADMIN_TOKEN;
  return { ...env, ...extra };
}

export async function exec(cmd: string, args: string[], cwd: string, env = userEnv()): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** An empty ES-module project at `dir`, then `npm install <specs>` there, from the machine's npm cache when it can. */
export async function installInto(dir: string, specs: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "user-project", version: "1.0.0", private: true, type: "module" }));
  return exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=warn", ...specs], dir);
}

/** The project's top-level node_modules entries (no dot entries). */
export async function installed(dir: string): Promise<string[]> {
  return (await readdir(join(dir, "node_modules"))).filter((n) => !n.startsWith(".")).sort();
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) yield* walk(join(dir, e.name));
    else yield join(dir, e.name);
  }
}

/**
 * Every source map under `pkg`: how many, how many sources they name, and each problem: a `sourceRoot`, a source that
 * resolves outside the package or to no file, or a source without its content.
 */
export async function sourceMapProblems(pkg: string): Promise<{ maps: number; sources: number; problems: string[] }> {
  let maps = 0;
  let sources = 0;
  const problems: string[] = [];
  for await (const file of walk(pkg)) {
    if (!file.endsWith(".map")) continue;
    maps++;
    const map = JSON.parse(await readFile(file, "utf8")) as { sourceRoot?: string; sources: string[]; sourcesContent?: (string | null)[] };
    const where = relative(pkg, file);
    if (map.sourceRoot) problems.push(`${where}: sourceRoot ${map.sourceRoot}`);
    map.sources.forEach((source, i) => {
      sources++;
      const path = resolve(dirname(file), source);
      if (!path.startsWith(pkg + sep)) problems.push(`${where}: ${source} is outside the package`);
      else if (!existsSync(path)) problems.push(`${where}: ${source} does not exist`);
      if (map.sourcesContent && map.sourcesContent[i] == null) problems.push(`${where}: ${source} has no content`);
    });
  }
  return { maps, sources, problems };
}
