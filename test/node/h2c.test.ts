// The Node runtime serves HTTP/1.1 and cleartext HTTP/2 (prior knowledge) on one port (issue 22: the AWS SDK's
// Bedrock client speaks HTTP/2 by default).
import http2 from "node:http2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/hosts/node/server";
import { startQuietServer } from "../support/server";

let server: RunningServer;
beforeAll(async () => {
  server = await startQuietServer({ adminToken: "h2c-token" });
});
afterAll(() => server?.close());

function h2request(session: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, body?: string) {
  return new Promise<{ status: number; headers: http2.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = session.request(headers);
    let text = "";
    let got: http2.IncomingHttpHeaders = {};
    req.setEncoding("utf8");
    req.on("response", (h) => (got = h));
    req.on("data", (d: string) => (text += d));
    req.on("end", () => resolve({ status: Number(got[":status"]), headers: got, text }));
    req.on("error", reject);
    req.end(body);
  });
}

describe("HTTP/1.1 and h2c on one port", () => {
  it("answers both protocols, a provider request included, and close() ends an open HTTP/2 session", async () => {
    const h1 = await fetch(`${server.url}/healthz`);
    expect([h1.status, await h1.json()]).toEqual([200, { ok: true, service: "mockllm" }]);
    const session = http2.connect(server.url);
    const health = await h2request(session, { ":path": "/healthz" });
    expect([health.status, JSON.parse(health.text)]).toEqual([200, { ok: true, service: "mockllm" }]);
    const chat = await h2request(
      session,
      { ":method": "POST", ":path": "/v1/chat/completions", authorization: "Bearer k", "content-type": "application/json" },
      JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Say hi" }] }),
    );
    expect(chat.status).toBe(200);
    expect(JSON.parse(chat.text).object).toBe("chat.completion");
    const closed = new Promise<void>((resolve) => session.once("close", resolve));
    await server.close();
    await closed;
    expect(session.destroyed || session.closed).toBe(true);
  });
});
