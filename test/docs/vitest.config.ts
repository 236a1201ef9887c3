// The docs' runnable examples and links: `npm run test:docs` (test/docs/extract.ts first writes the docs' test modules
// to test/.docs/). "mockllm" points at this repo's source, as in examples/, so the examples run without a build.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  resolve: { alias: { mockllm: fileURLToPath(new URL("../../src/client/index.ts", import.meta.url)) } },
  test: {
    include: ["test/docs/**/*.test.ts", "test/.docs/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
