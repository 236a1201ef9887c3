import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

/**
 * The Node suites run the Node runtime from source as its build does: the Fetch classes the shared code constructs
 * (src/http/web.ts) swapped for the Node runtime's own (src/hosts/node/web.ts; bin/build-node.mjs does the same).
 */
const sharedWeb = fileURLToPath(new URL("./src/http/web.ts", import.meta.url));
const nodeWeb: Plugin = {
  name: "mockllm-node-web",
  enforce: "pre",
  async resolveId(source, importer, options) {
    if (importer === undefined || !/(^|\/)web$/.test(source)) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    return resolved?.id === sharedWeb ? fileURLToPath(new URL("./src/hosts/node/web.ts", import.meta.url)) : null;
  },
};

/**
 * Test files the Node projects run at once: two per core, at most 8. A compat file spends most of its time waiting on
 * its server (workerd in another process, or an SDK's socket), and vitest's default (cores − 1: one file at a time on
 * a 2-core machine) left most of the CPU idle: on this 2-core machine the two Node projects took 555 s at 1 and 286 s
 * at 4, all passing (wave 45). Set per project: a root `maxWorkers` does not reach projects declared with
 * `extends: false`. (The `workers` project's pool takes 91 s at 1 or 4.)
 */
const NODE_FILES_AT_ONCE = Math.min(8, 2 * availableParallelism());

/** Admin token the in-workerd tests use; Node tests start their own Worker with their own token. */
export const TEST_ADMIN_TOKEN = "test-admin-token";

export default defineConfig({
  test: {
    projects: [
      {
        extends: false,
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: { ADMIN_TOKEN: TEST_ADMIN_TOKEN, DEFAULT_WORDS_PER_SECOND: "0", REQUEST_LOG: "off" } },
          }),
        ],
        // A file's first request loads the Worker's whole module graph into workerd (≈2 s idle, 7 s and more on a busy
        // machine), and in most files that request is a `beforeAll`'s upload: hooks get the tests' 60 s, not 10 s.
        test: { name: "workers", include: ["test/integration/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 60_000 },
      },
      {
        extends: false,
        plugins: [nodeWeb],
        test: {
          name: "node",
          environment: "node",
          maxWorkers: NODE_FILES_AT_ONCE,
          include: ["test/unit/**/*.test.ts", "test/compat/**/*.test.ts", "test/client/**/*.test.ts"],
          // The compat suites' Worker, bundled once per run by the first file that needs it (test/support/worker-bundle.ts).
          globalSetup: ["test/support/worker-bundle.setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The same integration and compat suites against the Node runtime (in process), so both runtimes are proven
        // by one set of tests. Tests that look inside a Durable Object or at KV stay in `workers` only.
        extends: false,
        plugins: [nodeWeb],
        test: {
          name: "node-runtime",
          environment: "node",
          maxWorkers: NODE_FILES_AT_ONCE,
          include: ["test/integration/**/*.test.ts", "test/compat/**/*.test.ts", "test/node/**/*.test.ts"],
          exclude: [
            "test/integration/session-object.test.ts",
            "test/integration/rows-written.test.ts",
            "test/integration/socket-object.test.ts",
            "test/integration/admin-disabled.test.ts",
            "test/integration/request-log.test.ts",
            "test/integration/session-counted-usage.test.ts",
          ],
          env: { MOCKLLM_RUNTIME: "node" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
