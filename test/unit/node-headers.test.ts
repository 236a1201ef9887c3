import { IncomingMessage, createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Socket, type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { PlannedIncoming, headersOf } from "../../src/hosts/node/node-headers";
import { SDK_RAW_HEADERS } from "../support/header-lists";

type WithLines = IncomingMessage & { _addHeaderLines(headers: string[], n: number): void };

/** `req.headers` of a request of class `Class` whose parser gave the raw list `raw`, as node:http's parser gives it. */
function headersFrom(Class: typeof IncomingMessage, raw: string[], opts: { joinDuplicateHeaders?: boolean } = {}): IncomingHttpHeaders {
  const m = new Class(new Socket()) as WithLines;
  if (opts.joinDuplicateHeaders) (m as unknown as { joinDuplicateHeaders: boolean }).joinDuplicateHeaders = true;
  m._addHeaderLines(raw, raw.length);
  return m.headers;
}

const LISTS: Record<string, string[]> = {
  "the openai SDK's 18 headers": [...SDK_RAW_HEADERS],
  "values as they came (spaces, commas, an empty one)": ["Host", "h", "X-A", " padded ", "X-B", "", "Accept", "a, b"],
  "a name repeated that node:http joins": ["Host", "h", "Accept", "a", "accept", "b"],
  "a name repeated that node:http drops": ["Host", "h", "Content-Type", "a", "content-type", "b", "User-Agent", "u", "user-agent", "v"],
  "cookies, joined with a semicolon": ["Host", "h", "Cookie", "a=1", "cookie", "b=2"],
  "one set-cookie (an array in node:http's object)": ["Host", "h", "Set-Cookie", "a=1"],
  "set-cookie twice": ["Set-Cookie", "a=1", "set-cookie", "b=2"],
  "a header named __proto__": ["Host", "h", "__proto__", "x", "X-A", "1"],
  "no headers": [],
};

describe("PlannedIncoming: node:http's header object, made from the list's plan", () => {
  for (const [name, raw] of Object.entries(LISTS)) {
    it(`is node:http's own, values, order and prototype: ${name}`, () => {
      for (let round = 0; round < 2; round++) {
        const own = headersFrom(IncomingMessage, raw);
        const planned = headersFrom(PlannedIncoming, raw);
        expect(planned).toEqual(own);
        expect(Object.keys(planned)).toEqual(Object.keys(own));
        expect(Object.getPrototypeOf(planned)).toBe(Object.getPrototypeOf(own));
      }
    });
  }

  it("makes the object itself only for distinct names, none of them set-cookie", () => {
    expect(headersOf(["Host", "h", "X-Y", "1"])).toEqual({ host: "h", "x-y": "1" });
    expect(headersOf(["Host", "h", "host", "i"])).toBeUndefined();
    expect(headersOf(["Set-Cookie", "a=1"])).toBeUndefined();
  });

  it("keeps joinDuplicateHeaders as node:http has it", () => {
    const raw = ["Host", "h", "X-Tag", "a", "x-tag", "b"];
    expect(headersFrom(PlannedIncoming, raw, { joinDuplicateHeaders: true })).toEqual(headersFrom(IncomingMessage, raw, { joinDuplicateHeaders: true }));
    expect(headersFrom(PlannedIncoming, raw, { joinDuplicateHeaders: true })["x-tag"]).toBe("a, b");
  });

  it("answers the object a listener set, and the same object on every read", () => {
    const m = new PlannedIncoming(new Socket()) as WithLines;
    m._addHeaderLines(["Host", "h"], 2);
    const first = m.headers;
    expect(m.headers).toBe(first);
    m.headers = { host: "other" };
    expect(m.headers).toEqual({ host: "other" });
    const set = new PlannedIncoming(new Socket()) as WithLines;
    set.headers = { host: "given" };
    set._addHeaderLines(["Host", "h"], 2);
    expect(set.headers).toEqual(expectedAfterSet());
  });

  it("serves a real request: node:http's checks (host, expect) read it, a listener sees node:http's values", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer({ IncomingMessage: PlannedIncoming }, (req, res) => {
      seen.push(req.headers);
      res.end(String(req instanceof PlannedIncoming));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ port, host: "127.0.0.1", path: "/", headers }, (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
    try {
      expect(await get({ "X-Tag": "t", Accept: "x" })).toEqual({ status: 200, body: "true" });
      expect(await get({ "X-Tag": "u", Accept: "y" })).toEqual({ status: 200, body: "true" });
      expect(await get({ Expect: "nonsense" })).toEqual({ status: 417, body: "" });
      expect(seen.map((h) => [h["x-tag"], h.accept, h.host])).toEqual([
        ["t", "x", `127.0.0.1:${port}`],
        ["u", "y", `127.0.0.1:${port}`],
      ]);
    } finally {
      server.close();
    }
  });
});

/** What a header object set before the parser's lines is read as: the object set, the lines added to it (node:http). */
function expectedAfterSet(): IncomingHttpHeaders {
  const m = new IncomingMessage(new Socket()) as WithLines;
  m.headers = { host: "given" };
  m._addHeaderLines(["Host", "h"], 2);
  return m.headers;
}
