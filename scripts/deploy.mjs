#!/usr/bin/env node
/**
 * `npm run deploy [-- --env preview] [-- --dry-run]`: deploys the Worker to your Cloudflare account in one step.
 *   - KV: the SCENARIOS namespace is created on the first deploy and reused after (wrangler's automatic provisioning;
 *     wrangler.toml names no id).
 *   - R2: the FILES bucket (files and batches) likewise, created on the first deploy by automatic provisioning
 *     (wrangler.toml names no bucket_name).
 *   - ADMIN_TOKEN: $MOCKLLM_ADMIN_TOKEN, or a new random token, uploaded as a Worker secret with the deploy (a later
 *     deploy without $MOCKLLM_ADMIN_TOKEN keeps the secret already set).
 *   - ADMIN_TOKEN: on a first deploy (`wrangler secret list` says the Worker does not exist, or lists no ADMIN_TOKEN)
 *     $MOCKLLM_ADMIN_TOKEN or a new random token, uploaded as a Worker secret with the deploy. A later deploy keeps the
 *     secret already set unless `--rotate-admin-token` is given (then $MOCKLLM_ADMIN_TOKEN's, or a random one); when
 *     `wrangler secret list` fails otherwise (network, permissions) the deploy stops before uploading (issue 51;
 *     scripts/deploy-token.mjs).
 *   - Durable Objects: the SessionObject class with SQLite storage, migrated on the first deploy.
 *   - Minified (`--minify`): a new isolate compiles less (`wrangler check startup`: ~30% less start-up CPU,
 *     docs/performance.md); wrangler uploads the source map with it, so `wrangler tail` still maps stack traces to
 *     src/. Local runs, `wrangler dev`, the tests and dist/worker stay unminified, so profiles name every function.
 * `--dry-run` bundles without uploading (no account needed) and checks the bundle, minified as a deploy uploads it,
 * against the Workers free plan's size limit (3 MB gzipped), printing the gzip size; `npm test` runs it so CI fails
 * on an oversized bundle.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { wranglerEnv } from "../bin/wrangler-env.mjs";
import { secretState, tokenPlan } from "./deploy-token.mjs";

/** The Workers free plan's limit on a Worker's gzipped size. */
export const FREE_PLAN_GZIP_LIMIT = 3 * 1024 * 1024;

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    env: { type: "string" },
    "dry-run": { type: "boolean", default: false },
    outdir: { type: "string" },
    "rotate-admin-token": { type: "boolean", default: false },
  },
});
// $MOCKLLM_DEPLOY_WRANGLER: another wrangler entry point (a script run by node) — the tests' fake wrangler.
const wrangler = process.env.MOCKLLM_DEPLOY_WRANGLER || join(dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin", "wrangler.js");
const env = wranglerEnv();
// `--env=` names the top-level environment explicitly (wrangler warns when a config has several and none is named).
const envArgs = values.env ? ["--env", values.env] : ["--env="];
/** What every deploy bundles with: minified (the source map uploaded beside it, wrangler's default). */
const BUNDLE_ARGS = ["--minify"];

function run(args, opts = {}) {
  const r = spawnSync(process.execPath, [wrangler, ...args], { cwd: root, env, stdio: opts.capture ? "pipe" : "inherit", encoding: "utf8" });
  if (r.status !== 0) {
    if (opts.capture) process.stderr.write(`${r.stdout ?? ""}${r.stderr ?? ""}`);
    process.exit(r.status ?? 1);
  }
  return r.stdout ?? "";
}

if (values["dry-run"]) {
  const outdir = values.outdir ?? mkdtempSync(join(tmpdir(), "mockllm-deploy-"));
  run(["deploy", "--dry-run", ...BUNDLE_ARGS, "--outdir", outdir, ...envArgs], { capture: true });
  const bundle = readFileSync(join(outdir, "index.js"));
  const gzip = gzipSync(bundle, { level: 9 }).length;
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const verdict = gzip <= FREE_PLAN_GZIP_LIMIT ? "within" : "OVER";
  console.log(`deploy bundle${values.env ? ` (env ${values.env})` : ""}: ${kib(bundle.length)}, gzip ${kib(gzip)} — ${verdict} the free plan's ${kib(FREE_PLAN_GZIP_LIMIT)} limit`);
  if (!values.outdir) rmSync(outdir, { recursive: true, force: true });
  process.exit(gzip <= FREE_PLAN_GZIP_LIMIT ? 0 : 1);
}

const rotate = values["rotate-admin-token"];
const plan = tokenPlan(rotate ? { state: "present" } : adminTokenSecret(), {
  given: process.env.MOCKLLM_ADMIN_TOKEN,
  rotate,
  random: () => `mockllm-${randomBytes(18).toString("base64url")}`,
});
if ("abort" in plan) {
  console.error(plan.abort);
  process.exit(1);
}
const secrets = join(mkdtempSync(join(tmpdir(), "mockllm-secrets-")), "secrets.json");
let out;
try {
  if (plan.upload !== undefined) writeFileSync(secrets, JSON.stringify({ ADMIN_TOKEN: plan.upload }), { mode: 0o600 });
  out = run(["deploy", ...BUNDLE_ARGS, ...envArgs, ...(plan.upload !== undefined ? ["--secrets-file", secrets] : [])], { capture: true });
} finally {
  rmSync(dirname(secrets), { recursive: true, force: true });
}
process.stdout.write(out);
const url = /https:\/\/\S+\.workers\.dev/.exec(out)?.[0] ?? "https://<your worker>.workers.dev";
const tokenLine = plan.line;
console.log(
  [
    "",
    `mockllm is deployed: ${url}`,
    tokenLine,
    `  upload         MOCKLLM_URL=${url} MOCKLLM_ADMIN_TOKEN=… npx mockllm push scenarios/`,
    `  OpenAI SDK     baseURL ${url}/s/{scenario}/{session}/v1`,
    `  logs           npx wrangler tail${values.env ? ` --env ${values.env}` : ""}`,
    "",
  ].join("\n"),
);

/** The ADMIN_TOKEN secret's state, from `wrangler secret list` (deploy-token.mjs's secretState). */
function adminTokenSecret() {
  const r = spawnSync(process.execPath, [wrangler, "secret", "list", "--format", "json", ...envArgs], { cwd: root, env, encoding: "utf8" });
  return secretState(r.status, r.stdout, r.stderr);
}
