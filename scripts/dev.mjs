#!/usr/bin/env node
/**
 * `npm run dev [-- wrangler dev flags]`: regenerates the bundled-scenario index, starts `wrangler dev`
 * with a local admin token, and prints the token and base URLs once GET /healthz answers. While it runs, a file
 * added, changed or removed under scenarios/ regenerates the index again, so wrangler reloads with it.
 * Token: $MOCKLLM_ADMIN_TOKEN, or a fresh random one per run.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { watch } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
// The banner `mockllm serve` prints too (in dist/: `npm run dev` builds the client first when it is missing).
import { readyBanner } from "../dist/client/cli/banner.js";
import { wranglerEnv } from "../bin/wrangler-env.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const env = wranglerEnv();

const args = process.argv.slice(2);
const portArg = args.findIndex((a) => a === "--port" || a.startsWith("--port="));
const port = portArg === -1 ? "8787" : args[portArg].includes("=") ? args[portArg].split("=")[1] : args[portArg + 1];
const ipArg = args.findIndex((a) => a === "--ip" || a.startsWith("--ip="));
const host = ipArg === -1 ? "localhost" : args[ipArg].includes("=") ? args[ipArg].split("=")[1] : args[ipArg + 1];
const token = process.env.MOCKLLM_ADMIN_TOKEN || `mockllm-${randomBytes(12).toString("hex")}`;

const generateArgs = [join(root, "node_modules/tsx/dist/cli.mjs"), join(root, "scripts/generate.ts")];
const gen = spawnSync(process.execPath, generateArgs, { cwd: root, env, stdio: "inherit" });
if (gen.status !== 0) process.exit(gen.status ?? 1);

// A scenario file added, changed or removed: regenerate the bundled index (debounced), so wrangler dev reloads
// with it. An invalid file is reported and the server keeps running.
const WATCH_DEBOUNCE_MS = 200;
let regenTimer;
let regenRunning = false;
let regenAgain = false;
function regenerate() {
  if (regenRunning) {
    regenAgain = true;
    return;
  }
  regenRunning = true;
  const run = spawn(process.execPath, generateArgs, { cwd: root, env, stdio: "inherit" });
  run.on("exit", (code) => {
    if (code !== 0) console.error("mockllm dev: scenarios/ has a problem (see above); fix the file and save it again");
    regenRunning = false;
    if (regenAgain) {
      regenAgain = false;
      regenerate();
    }
  });
}
const watcher = watch(join(root, "scenarios"), (_event, file) => {
  if (file !== null && !String(file).endsWith(".json")) return;
  clearTimeout(regenTimer);
  regenTimer = setTimeout(regenerate, WATCH_DEBOUNCE_MS);
});

const wrangler = join(dirname(require.resolve("wrangler/package.json")), "bin/wrangler.js");
const child = spawn(process.execPath, [wrangler, "dev", "--var", `ADMIN_TOKEN:${token}`, "--show-interactive-dev-session=false", ...(portArg === -1 ? ["--port", port] : []), ...args], {
  cwd: root,
  env,
  stdio: "inherit",
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => {
  watcher.close();
  process.exit(code ?? 0);
});

const base = `http://${host}:${port}`;
const started = Date.now();
(async function waitReady() {
  while (Date.now() - started < 120_000 && child.exitCode === null) {
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) {
        console.log(readyBanner(base, token, "Workers runtime, wrangler dev"));
        return;
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
})();
