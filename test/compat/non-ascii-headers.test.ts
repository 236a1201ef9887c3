/**
 * Header values outside ASCII, as a client's socket carries them (Node's fetch sends `\u00ff` as the byte 0xFF), on
 * both runtimes — the Worker under workerd and the Node server: refused in the surface's shape, never a 5xx.
 * test/integration/surface-garbage.test.ts sends the same values on Node only: inside workerd a test's own `Request`
 * carries them without a socket and workerd prints a "non-ASCII characters … As a quirk to support Unicode" warning
 * for each (issue 51 point 10).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.upload({
    name: "ascii-mcp",
    steps: [],
    mcp: { tools: [{ name: "echo" }], calls: [{ id: "echo", match: { tool: "echo" }, consume: false, result: { content: [{ type: "text", text: "ok" }] } }] },
  });
}, 120_000);
afterAll(() => h?.stop());

describe("non-ASCII header values", () => {
  it("Bedrock: an Authorization of bytes 0xFF 0xFE is 403 MissingAuthenticationTokenException on every operation", async () => {
    const body = JSON.stringify({ messages: [{ role: "user", content: [{ text: "hi" }] }] });
    for (const op of ["converse", "converse-stream", "invoke", "invoke-with-response-stream"]) {
      const res = await fetch(`${h.url}/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/${op}`, {
        method: "POST",
        headers: { authorization: "\u00ff\u00fe", "content-type": "application/json" },
        body,
      });
      const json = (await res.json()) as { message?: unknown };
      expect([op, res.status, res.headers.get("x-amzn-errortype")?.split(":")[0], typeof json.message]).toEqual([op, 403, "MissingAuthenticationTokenException", "string"]);
    }
  });

  it("/mcp: DELETE with an mcp-session-id of byte 0xFF is a 4xx, never a 5xx", async () => {
    const res = await fetch(`${h.url}/s/ascii-mcp/m1/mcp`, { method: "DELETE", headers: { "mcp-session-id": "\u00ff" } });
    const text = await res.text();
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    if (text !== "") expect((JSON.parse(text) as { jsonrpc?: string }).jsonrpc).toBe("2.0");
  });
});
