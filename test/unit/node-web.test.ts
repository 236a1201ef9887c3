import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/hosts/node/server";
import { writeResponse } from "../../src/hosts/node/respond";
import { LightHeaders, LightRequest, LightResponse } from "../../src/hosts/node/web";
import { seededRandom } from "../../src/util/hash";

describe("the Node runtime's Headers", () => {
  it("answers what the platform's Headers answers for 500 seeded sequences of appends, sets and deletes", () => {
    const names = ["Content-Type", "content-type", "X-Mock-Session", "set-cookie", "Set-Cookie", "accept", "A", "b-b", "cookie"];
    const values = ["text/plain", "  padded\t", "a=1", "b=2; Path=/", "", "x, y", "ünï"];
    for (let seed = 1; seed <= 500; seed++) {
      const rand = seededRandom(seed);
      const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
      const light = new LightHeaders();
      const real = new Headers();
      for (let i = 0; i < 8; i++) {
        const op = pick(["append", "append", "set", "delete"] as const);
        const name = pick(names);
        if (op === "delete") {
          light.delete(name);
          real.delete(name);
        } else {
          const value = pick(values);
          light[op](name, value);
          real[op](name, value);
        }
      }
      expect([...light], `seed ${seed}`).toEqual([...real]);
      expect(light.getSetCookie()).toEqual(real.getSetCookie());
      for (const n of names) expect(light.get(n)).toBe(real.get(n));
    }
  });

  it("takes records, pairs and other Headers, and refuses a bad name or value with a TypeError", () => {
    expect([...new LightHeaders({ B: "2", a: "1" })]).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
    expect([
      ...new LightHeaders([
        ["X", "1"],
        ["x", "2"],
      ]),
    ]).toEqual([["x", "1, 2"]]);
    expect([...new LightHeaders(new Headers({ "Set-Cookie": "a=1" }))]).toEqual([["set-cookie", "a=1"]]);
    expect(() => new LightHeaders({ "bad name": "v" })).toThrow(TypeError);
    expect(() => new LightHeaders().set("x", "a\r\nb")).toThrow(TypeError);
    expect(() => new LightHeaders([["only-one"]])).toThrow(TypeError);
  });

  it("reads a raw list in only when first asked, pseudo-headers left out", () => {
    const h = LightHeaders.fromRaw([":path", "/v1", "Host", "h", "X-A", " 1 ", "x-a", "2"]);
    expect(h.get("x-a")).toBe("1, 2");
    expect([...h]).toEqual([
      ["host", "h"],
      ["x-a", "1, 2"],
    ]);
  });
});

describe("the Node runtime's Response and Request", () => {
  it("reads a body once, as text, JSON or bytes", async () => {
    const res = new LightResponse('{"a":1}', { status: 201, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(await res.json()).toEqual({ a: 1 });
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(TypeError);
    expect(new Uint8Array(await new LightResponse(new Uint8Array([1, 2])).arrayBuffer())).toEqual(new Uint8Array([1, 2]));
    expect(await new LightResponse(null).text()).toBe("");
    expect(await new LightResponse("streamed").body!.getReader().read()).toEqual({ done: false, value: new TextEncoder().encode("streamed") });
  });

  it("refuses what the platform refuses: a status out of range, a body on a null-body status, a body on GET", () => {
    expect(() => new LightResponse("x", { status: 99 })).toThrow(RangeError);
    expect(() => new LightResponse("x", { status: 204 })).toThrow(TypeError);
    expect(new LightResponse(null, { status: 204 }).status).toBe(204);
    expect(() => new LightRequest("http://h/x", { method: "GET", body: "x" })).toThrow(TypeError);
  });

  it("gives a text body without headers a text/plain type, and Response.json its JSON type", async () => {
    expect(new LightResponse("x").headers.get("content-type")).toBe("text/plain; charset=UTF-8");
    expect(new LightResponse(null).headers.get("content-type")).toBeNull();
    const json = LightResponse.json({ ok: true }, { status: 400, headers: { "x-a": "1" } });
    expect([json.status, json.headers.get("content-type"), json.headers.get("x-a"), await json.text()]).toEqual([400, "application/json", "1", '{"ok":true}']);
  });

  it("makes a request's URL absolute and its headers from init", async () => {
    const req = new LightRequest("http://Example.com/a/../b?q=1", { method: "POST", headers: { "X-A": "1" }, body: "hi" });
    expect([req.url, req.method, req.headers.get("x-a"), await req.text()]).toEqual(["http://example.com/b?q=1", "POST", "1", "hi"]);
  });
});

/** The raw response bytes a server sends for one request. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(request));
    let text = "";
    socket.on("data", (d) => (text += d));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

describe("writing a Response onto node:http", () => {
  let server: Server;
  let port = 0;
  const answers: Record<string, () => LightResponse> = {
    "/record": () => new LightResponse("hello", { status: 200, headers: { "X-Upper": "A", "content-type": "text/plain" } }),
    "/headers": () => {
      const res = new LightResponse("hi", { headers: { "x-b": "2", "Set-Cookie": "a=1" } });
      res.headers.append("set-cookie", "b=2");
      return res;
    },
    "/stream": () =>
      new LightResponse(
        new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(new TextEncoder().encode("one,"));
            c.enqueue(new TextEncoder().encode("two"));
            c.close();
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      ),
  };

  beforeAll(async () => {
    server = createServer((req, res) => void writeResponse(answers[req.url!]!() as unknown as Response, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const ask = (path: string) => rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  const head = (raw: string) =>
    raw
      .split("\r\n\r\n")[0]!
      .split("\r\n")
      .filter((l) => !l.startsWith("Date:"));

  it("writes a record of headers as given, with node:http's own Content-Length after Connection", async () => {
    const raw = await ask("/record");
    expect(head(raw)).toEqual(["HTTP/1.1 200 OK", "X-Upper: A", "content-type: text/plain", "Connection: close", "Content-Length: 5"]);
    expect(raw.endsWith("\r\n\r\nhello")).toBe(true);
  });

  it("writes a Headers object read by the code as the spec iterates it, a set-cookie line each, a text type by default", async () => {
    expect(head(await ask("/headers"))).toEqual([
      "HTTP/1.1 200 OK",
      "x-b: 2",
      "set-cookie: a=1",
      "set-cookie: b=2",
      "content-type: text/plain; charset=UTF-8",
      "Content-Length: 2",
      "Connection: close",
    ]);
  });

  it("writes a stream chunked, to its end", async () => {
    const raw = await ask("/stream");
    expect(head(raw)).toEqual(["HTTP/1.1 200 OK", "content-type: text/event-stream", "Connection: close", "Transfer-Encoding: chunked"]);
    expect(raw.split("\r\n\r\n")[1]).toBe("4\r\none,\r\n3\r\ntwo\r\n0");
  });
});

describe("the Node runtime in a user's process", () => {
  it("leaves the process's own Request and Response classes in place", async () => {
    const before = [globalThis.Request, globalThis.Response, (globalThis as unknown as { Headers: unknown }).Headers];
    const server = await startServer({ log: () => {} });
    try {
      const res = await fetch(`${server.url}/v1/models`, { headers: { authorization: "Bearer k" } });
      expect(res.status).toBe(200);
      expect([globalThis.Request, globalThis.Response, (globalThis as unknown as { Headers: unknown }).Headers]).toEqual(before);
      expect(res).toBeInstanceOf(globalThis.Response);
    } finally {
      await server.close();
    }
  });
});
