// Starting a bench target: each launcher in bench/servers/ is its own process and prints its URL when ready.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The Node-side targets a bench can start by name: mockllm's Node runtime, the peer and the bare node:http floor. */
export const NODE_LAUNCHERS = {
  mockllm: fileURLToPath(new URL("./servers/mockllm-node.mjs", import.meta.url)),
  floor: fileURLToPath(new URL("./servers/bare.mjs", import.meta.url)),
  peer: fileURLToPath(new URL("./servers/aimock.mjs", import.meta.url)),
};

/**
 * Spawns `launcher` (with `env` added to this process's environment) with this process's Node and resolves when it prints its URL, with the time that took.
 * @example const { child, url, startMs } = await start({ label: "peer", launcher: "bench/servers/aimock.mjs" })
 */
export function start(target, nodeArgs = []) {
  const t0 = performance.now();
  const env = target.env ? { ...process.env, ...target.env } : process.env;
  const child = spawn(process.execPath, [...nodeArgs, target.launcher], { stdio: ["ignore", "pipe", "inherit"], env });
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

/** The p-th percentile (nearest rank) of the defined values; `pct(xs, 50)` is `median`'s lower one of an even count. */
export function pct(xs, p) {
  const s = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  return s.length === 0 ? undefined : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}
