// A freshly started Node runtime loads its fetch adapter once it is listening, not when the first request arrives:
// a burst on a server just started does not queue behind the loading (issue 34, docs/performance.md).
import { afterAll, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/runtime/node/server";

let server: RunningServer | undefined;
afterAll(() => server?.close());

it("loads the adapter (its Request and Response become the globals) with no request sent", async () => {
  const undiciResponse = globalThis.Response;
  server = await startServer({ adminToken: "preload", watch: false, log: () => {} });
  // Nothing has been sent: the adapter's classes replace the globals on their own, soon after listening.
  const deadline = Date.now() + 10_000;
  while (globalThis.Response === undiciResponse && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(globalThis.Response).not.toBe(undiciResponse);
  expect(Object.getPrototypeOf(globalThis.Response.prototype)).toBe(undiciResponse.prototype);
  // And it answers as before.
  const res = await fetch(`${server.url}/healthz`);
  expect([res.status, await res.json()]).toEqual([200, { ok: true, service: "mockllm" }]);
});
