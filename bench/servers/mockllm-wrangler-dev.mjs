// mockllm under `wrangler dev` (what `npm run dev` runs), on a free port. Prints its URL once it answers.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { uploadScenarios } from "../workload.mjs";
import { wranglerEnv } from "../../bin/wrangler-env.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const port = await new Promise((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const env = wranglerEnv();
const child = spawn(
  process.execPath,
  [
    `${root}/node_modules/wrangler/bin/wrangler.js`,
    "dev",
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--var",
    "ADMIN_TOKEN:bench",
    "--var",
    "DEFAULT_WORDS_PER_SECOND:0",
    "--persist-to",
    `${root}/.wrangler/bench-state`,
    "--show-interactive-dev-session=false",
    "--log-level",
    "error",
  ],
  { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] },
);
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    child.kill(sig);
    process.exit(0);
  });
const url = `http://127.0.0.1:${port}`;
for (;;) {
  try {
    if ((await fetch(`${url}/healthz`)).ok) break;
  } catch {}
  await new Promise((r) => setTimeout(r, 50));
}
await uploadScenarios(url, "bench");
console.log(url);
