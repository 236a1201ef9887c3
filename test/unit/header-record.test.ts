import { describe, expect, it } from "vitest";
import { headerRecord, primeHeaderRecord, sessionHeader } from "../../src/http/headers";
import { KEY_ID_HEADER, redactHeaders } from "../../src/http/body";
import { SDK_RAW_HEADERS } from "../support/header-lists";

/** The record iterating a real Headers object gives for the same raw list (what every path without a raw list uses). */
function viaHeaders(raw: string[]): Record<string, string> {
  const h = new Headers();
  for (let i = 0; i < raw.length; i += 2) if (!raw[i]!.startsWith(":")) h.append(raw[i]!, raw[i + 1]!);
  return headerRecord(h);
}

function viaRaw(raw: string[]): Record<string, string> {
  const h = new Headers();
  primeHeaderRecord(h, raw);
  return headerRecord(h);
}

describe("header record from a raw header list", () => {
  const lists: Record<string, string[]> = {
    "an SDK's request": ["Host", "127.0.0.1:8787", "Content-Type", "application/json", "Authorization", "Bearer sk-1", "X-Stainless-Lang", "js", "Accept", "*/*", "Content-Length", "52"],
    "repeated names": ["Accept", "text/plain", "X-Tag", "a", "accept", "application/json", "x-tag", "b"],
    cookies: ["Cookie", "a=1", "cookie", "b=2", "User-Agent", "t"],
    "values with surrounding space": ["X-A", "  padded\t", "X-B", "", "X-C", " "],
    "the openai SDK's 18 headers, as undici sends them": [...SDK_RAW_HEADERS],
    "a name three times, apart": ["X-T", "1", "b", "x", "x-t", "2", "a", "y", "X-t", "3", "x-u", "4"],
    "set-cookie repeated": ["Set-Cookie", "a=1", "x", "y", "set-cookie", "b=2"],
    "HTTP/2 pseudo-headers": [":method", "POST", ":path", "/v1/messages", ":authority", "localhost", "x-api-key", "k", "anthropic-version", "2023-06-01"],
  };
  for (const [name, raw] of Object.entries(lists)) {
    it(`gives what iterating Headers gives: ${name}`, () => {
      const got = viaRaw(raw);
      expect(got).toEqual(viaHeaders(raw));
      expect(Object.keys(got)).toEqual(Object.keys(viaHeaders(raw))); // same (sorted) order
    });
  }

  it("joins and sorts exactly", () => {
    expect(viaRaw(["X-Tag", "a", "Accept", "x", "x-tag", " b ", "Cookie", "c=1", "COOKIE", "d=2"])).toEqual({
      accept: "x",
      cookie: "c=1; d=2",
      "x-tag": "a, b",
    });
    expect(Object.keys(viaRaw(["b", "1", "a", "2", "c", "3"]))).toEqual(["a", "b", "c"]);
  });
});

describe("header record: a list of names seen before", () => {
  it("takes each request's own values when the names repeat, case and order as before", () => {
    const names = ["Host", "X-Tag", "Authorization", "x-tag", "Content-Length"];
    const list = (n: number) => names.flatMap((name, i) => [name, ` v${n}.${i} `]);
    for (let n = 0; n < 3; n++) {
      expect(viaRaw(list(n))).toEqual(viaHeaders(list(n)));
      expect(viaRaw(list(n))).toEqual({ authorization: `v${n}.2`, "content-length": `v${n}.4`, host: `v${n}.0`, "x-tag": `v${n}.1, v${n}.3` });
    }
  });

  it("tells apart lists of the same length whose names differ, in case or in order alone", () => {
    const lists = [
      ["A", "1", "B", "2"],
      ["a", "1", "C", "2"],
      ["B", "1", "A", "2"],
      ["b", "1", "a", "2"],
      ["A", "1", "b", "2"],
    ];
    for (let round = 0; round < 2; round++) {
      for (const raw of lists) {
        expect(viaRaw(raw)).toEqual(viaHeaders(raw));
        expect(Object.keys(viaRaw(raw))).toEqual(Object.keys(viaHeaders(raw)));
      }
    }
  });

  it("stays exact past the lists it keeps: twenty lists taken in turn, three times", () => {
    const lists = Array.from({ length: 20 }, (_, n) => [`X-N${n}`, `${n}`, "accept", "*/*", ...(n % 3 === 0 ? ["X-N0", "again"] : [])]);
    for (let round = 0; round < 3; round++) for (const raw of lists) expect(viaRaw(raw)).toEqual(viaHeaders(raw));
  });

  it("sorts node:http's most headers (2,000, in reverse order, one name four times) as Headers does", () => {
    const raw: string[] = [];
    for (let i = 1996; i > 0; i--) raw.push(`X-H${String(i).padStart(4, "0")}`, `v${i}`);
    raw.push("x-h0500", "again", "X-H0500", "and again", "x-H0500", "once more", "A", "first");
    const got = viaRaw(raw);
    expect(Object.keys(got)).toEqual(Object.keys(viaHeaders(raw)));
    expect(got).toEqual(viaHeaders(raw));
    expect(got["x-h0500"]).toBe("v500, again, and again, once more");
  });

  it("answers an odd-length list (a name with no value) as before: the name is left out", () => {
    expect(viaRaw(["A", "1", "B"])).toEqual({ a: "1" });
  });
});

describe("redactHeaders", () => {
  it("copies the record in its order with every secret's value replaced, the record itself untouched", () => {
    const raw = ["Authorization", "Bearer sk-1", "x-api-key", "k", "Api-Key", "a", "X-Goog-Api-Key", "g", "Cookie", "c=1", "Sec-WebSocket-Protocol", "p", "Accept", "*/*", "X-Z", "z"];
    const h = new Headers();
    primeHeaderRecord(h, raw);
    const out = redactHeaders(h);
    expect(out).toEqual({
      accept: "*/*",
      "api-key": "[redacted]",
      authorization: "[redacted]",
      cookie: "[redacted]",
      "sec-websocket-protocol": "[redacted]",
      "x-api-key": "[redacted]",
      "x-goog-api-key": "[redacted]",
      "x-z": "z",
    });
    expect(Object.keys(out)).toEqual(Object.keys(headerRecord(h)));
    expect(headerRecord(h).authorization).toBe("Bearer sk-1");
  });

  it(`drops a client's own ${KEY_ID_HEADER} and keeps the rest in order`, () => {
    const h = new Headers({ "X-Mockllm-Key-Id": "forged", Authorization: "Bearer sk-1", "X-A": "1" });
    const out = redactHeaders(h);
    expect(out).toEqual({ authorization: "[redacted]", "x-a": "1" });
    expect(Object.keys(out)).toEqual(["authorization", "x-a"]);
    expect(headerRecord(h)[KEY_ID_HEADER]).toBe("forged");
  });
});

describe("sessionHeader", () => {
  it("is x-mock-session trimmed, undefined when absent or blank (selection, MCP and sockets read it alike)", () => {
    expect(sessionHeader(new Headers({ "X-Mock-Session": " run-1 " }))).toBe("run-1");
    expect(sessionHeader(new Headers({ "x-mock-session": "  " }))).toBeUndefined();
    expect(sessionHeader(new Headers())).toBeUndefined();
  });
});
