// Starting a bench target: each launcher in bench/servers/ is its own process and prints its URL when ready.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The V8 flags `mockllm serve` of the build a launcher runs (MOCKLLM_NODE_DIST's, else this checkout's dist/node)
 * starts with: its server-flags.js, none for a build from before that file.
 */
async function serverFlags(target, env) {
  if (!target.launcher.endsWith("mockllm-node.mjs")) return [];
  const dist = env.MOCKLLM_NODE_DIST ? dirname(env.MOCKLLM_NODE_DIST) : resolve(dirname(fileURLToPath(import.meta.url)), "../dist/node");
  const file = resolve(dist, "server-flags.js");
  return existsSync(file) ? [...(await import(pathToFileURL(file).href)).SERVER_FLAGS] : [];
}

/**
 * Spawns `launcher` (with `env` added to this process's environment) with this process's Node and resolves when it
 * prints its URL, with the time that took. mockllm's Node runtime gets the V8 flags its `mockllm serve` starts with.
 * @example const { child, url, startMs } = await start({ label: "peer", launcher: "bench/servers/aimock.mjs" })
 */
export async function start(target, nodeArgs = []) {
  const env = target.env ? { ...process.env, ...target.env } : process.env;
  const flags = await serverFlags(target, env);
  const t0 = performance.now();
  const child = spawn(process.execPath, [...flags, ...nodeArgs, target.launcher], { stdio: ["ignore", "pipe", "inherit"], env });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const url = /^(http:\/\/\S+)$/m.exec(out)?.[1];
      if (url) resolve({ child, url, startMs: performance.now() - t0 });
    });
    child.on("exit", (code) => reject(new Error(`${target.label} exited with ${code}`)));
  });
}

/** Stops every child and waits for them to exit. */
export async function stopAll(children) {
  for (const c of children) c.kill("SIGTERM");
  await Promise.all(children.map((c) => new Promise((res) => (c.exitCode !== null || c.signalCode !== null ? res() : c.once("exit", res)))));
}

/** The median of a list of numbers (the lower one of an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? undefined : s[Math.floor((s.length - 1) / 2)];
}
