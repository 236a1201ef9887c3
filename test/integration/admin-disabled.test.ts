import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import worker from "../../src/index";

describe("admin without a configured token", () => {
  it("answers 503 admin disabled", async () => {
    const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    const res = await worker.fetch(new Request("http://mock.test/admin/scenarios", { headers: { authorization: "Bearer anything" } }), { ...env, ADMIN_TOKEN: undefined }, ctx);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: { message: "admin disabled" } });
  });
});
