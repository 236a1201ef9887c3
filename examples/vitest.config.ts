// Runs the examples: `npx vitest run --config examples/vitest.config.ts`.
// In your own project you import from "mockllm"; here that name points at this repo's source,
// so the examples run without a build.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  resolve: { alias: { mockllm: fileURLToPath(new URL("../src/client/index.ts", import.meta.url)) } },
  test: {
    include: ["examples/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
