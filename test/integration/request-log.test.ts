// The Worker's structured request log (REQUEST_LOG=json, on in wrangler.toml): one JSON line per request via
// console.log, which `wrangler tail` shows. Workers only (vitest.config.ts keeps it out of node-runtime); the Node
// runtime's log is tested in test/node.
import { describe, expect, it, vi } from "vitest";
import { upload } from "./helpers";

describe("Worker request log", () => {
  it("one JSON line per request with scenario, session, step, outcome, status and ms", async () => {
    const { env } = await import("cloudflare:test");
    const { route } = await import("../../src/router");
    const { workersRuntime } = await import("../../src/hosts/workers/runtime");
    await upload({ name: "tail-me", steps: [{ id: "s1", respond: { text: "hi" } }] });
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const rt = workersRuntime({ ...(env as never as Parameters<typeof workersRuntime>[0]), REQUEST_LOG: "json" });
      const res = await route(
        new Request("http://mock.test/s/tail-me/t1/v1/chat/completions", {
          method: "POST",
          headers: { authorization: "Bearer k", "content-type": "application/json" },
          body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }),
        }),
        rt,
        { waitUntil() {} },
      );
      expect(res.status).toBe(200);
      expect(log).toHaveBeenCalledTimes(1);
      const entry = JSON.parse(String(log.mock.calls[0]![0])) as Record<string, unknown>;
      expect(entry).toMatchObject({ mockllm: "request", method: "POST", path: "/s/tail-me/t1/v1/chat/completions", status: 200, outcome: "response", scenario: "tail-me", session: "t1", step: "s1" });
      expect(typeof entry.ms).toBe("number");
    } finally {
      log.mockRestore();
    }
  });
});
