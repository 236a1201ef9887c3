#!/usr/bin/env node
/**
 * `npm run dev [-- wrangler dev flags]`: regenerates the bundled-scenario index, starts `wrangler dev`
 * with a local admin token, and prints the token and base URLs once GET /healthz answers.
 * Token: $MOCKLLM_ADMIN_TOKEN, or a fresh random one per run.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
  WRANGLER_SEND_ERROR_REPORTS: "false",
};

const args = process.argv.slice(2);
const portArg = args.findIndex((a) => a === "--port" || a.startsWith("--port="));
const port = portArg === -1 ? "8787" : args[portArg].includes("=") ? args[portArg].split("=")[1] : args[portArg + 1];
const ipArg = args.findIndex((a) => a === "--ip" || a.startsWith("--ip="));
const host = ipArg === -1 ? "localhost" : args[ipArg].includes("=") ? args[ipArg].split("=")[1] : args[ipArg + 1];
const token = process.env.MOCKLLM_ADMIN_TOKEN || `mockllm-${randomBytes(12).toString("hex")}`;

const gen = spawnSync(process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), join(root, "scripts/generate.ts")], {
  cwd: root,
  env,
  stdio: "inherit",
});
if (gen.status !== 0) process.exit(gen.status ?? 1);

const wrangler = join(dirname(require.resolve("wrangler/package.json")), "bin/wrangler.js");
const child = spawn(
  process.execPath,
  [wrangler, "dev", "--var", `ADMIN_TOKEN:${token}`, "--show-interactive-dev-session=false", ...(portArg === -1 ? ["--port", port] : []), ...args],
  { cwd: root, env, stdio: "inherit" },
);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));

const base = `http://${host}:${port}`;
const started = Date.now();
(async function waitReady() {
  while (Date.now() - started < 120_000 && child.exitCode === null) {
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) {
        console.log(
          [
            "",
            `mockllm is ready on ${base}`,
            `  admin token        ${token}`,
            `  admin API          curl -H 'Authorization: Bearer ${token}' ${base}/admin/scenarios`,
            `  OpenAI base URL    ${base}/v1          (per scenario: ${base}/s/{scenario}/{session}/v1)`,
            `  Anthropic base URL ${base}             (per scenario: ${base}/s/{scenario}/{session})`,
            `  Gemini, Ollama     ${base}             (per scenario: ${base}/s/{scenario}/{session})`,
            `  inspector          ${base}/`,
            "",
          ].join("\n"),
        );
        return;
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
})();
