// The compare bench's lean client (bench/lean-client.mjs): where an answer ends, by Content-Length or by chunks, at
// every point the bytes can be cut; and round trips against a real node:http server answering both ways, its
// requests' bytes as written and its non-2xx answers counted.
import { createServer, type IncomingMessage, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error a plain ES module of the bench, without types
import { answerEnd, leanRoundTrips } from "../../bench/lean-client.mjs";

const end = (text: string): { end: number; status?: number } => answerEnd(Buffer.from(text, "latin1"));

const SIZED = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nContent-Length: 11\r\n\r\n{"a":"b\\n"}';
// The peer's framing: chunked, with a chunk whose bytes hold CRLF and a `0`.
const CHUNKED = 'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n9\r\n"x\r\n0\r\n"}\r\n0\r\n\r\n';

describe("answerEnd", () => {
  it("ends a Content-Length answer at its last byte, and not before", () => {
    expect(end(SIZED)).toEqual({ end: SIZED.length, status: 200 });
    for (let cut = 0; cut < SIZED.length; cut++) expect(end(SIZED.slice(0, cut)).end).toBe(-1);
  });

  it("ends a chunked answer after its last chunk, whatever the chunks hold, and not before", () => {
    expect(end(CHUNKED)).toEqual({ end: CHUNKED.length, status: 201 });
    for (let cut = 0; cut < CHUNKED.length; cut++) expect(end(CHUNKED.slice(0, cut)).end).toBe(-1);
  });

  it("refuses an answer it cannot frame", () => {
    expect(() => end("HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nbody")).toThrow("neither Content-Length nor chunks (status 200)");
    // A chunk longer than its size line says, and a size line that is not hex.
    expect(() => end("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n")).toThrow("a chunk of 2 bytes is not followed by CRLF");
    expect(() => end("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n")).toThrow('a chunk\'s size line reads "zz"');
  });
});

describe("leanRoundTrips", () => {
  let server: Server;
  let url: string;
  const seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
        const n = seen.length;
        // Every third answer a 429; odd ones chunked (written in two parts), even ones with a length.
        res.statusCode = n % 3 === 0 ? 429 : 200;
        if (n % 2 === 1) {
          res.write('{"n":');
          res.end(`${n}}`);
        } else res.end(JSON.stringify({ n }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions?x=1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("ends the run through its promise when an answer cannot be framed, the socket closed", async () => {
    const bare = net.createServer((socket) => socket.once("data", () => socket.write("HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nbody")));
    await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
    try {
      const port = (bare.address() as AddressInfo).port;
      await expect(leanRoundTrips(`http://127.0.0.1:${port}/`, { duration: 5 })).rejects.toThrow("neither Content-Length nor chunks (status 200)");
    } finally {
      await new Promise<void>((resolve) => bare.close(() => resolve()));
    }
  });

  it("sends the request's bytes one at a time on one socket and counts the answers that are not 2xx", async () => {
    const body = JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "héllo" }] });
    const run = await leanRoundTrips(url, { method: "POST", headers: { authorization: "Bearer k", "content-type": "application/json" }, body, duration: 0.05 });
    expect(run.count).toBe(seen.length);
    expect(run.count).toBeGreaterThanOrEqual(3);
    expect(run.non2xx).toBe(Math.floor(seen.length / 3));
    expect(run.rate).toBeGreaterThan(0);
    expect(run.p50).toBeLessThanOrEqual(run.p99);
    for (const request of seen) {
      expect(request).toEqual({
        method: "POST",
        url: "/v1/chat/completions?x=1",
        headers: {
          host: url.slice("http://".length, url.indexOf("/v1")),
          authorization: "Bearer k",
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
        },
        body,
      });
    }
  });
});
