import { describe, expect, it } from "vitest";
import { headerRecord, primeHeaderRecord, sessionHeader } from "../../src/http/headers";

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
    "the openai SDK's 18 headers, as undici sends them": [
      "host",
      "127.0.0.1:8787",
      "connection",
      "keep-alive",
      "Accept",
      "application/json",
      "Content-Type",
      "application/json",
      "User-Agent",
      "OpenAI/JS 7.57.0",
      "X-Stainless-Lang",
      "js",
      "X-Stainless-Package-Version",
      "7.57.0",
      "X-Stainless-OS",
      "Linux",
      "X-Stainless-Arch",
      "x64",
      "X-Stainless-Runtime",
      "node",
      "X-Stainless-Runtime-Version",
      "v22.23.3",
      "Authorization",
      "Bearer sk-1",
      "X-Stainless-Retry-Count",
      "0",
      "x-stainless-timeout",
      "600",
      "accept-language",
      "*",
      "sec-fetch-mode",
      "cors",
      "accept-encoding",
      "gzip, deflate",
      "content-length",
      "468",
    ],
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

describe("sessionHeader", () => {
  it("is x-mock-session trimmed, undefined when absent or blank (selection, MCP and sockets read it alike)", () => {
    expect(sessionHeader(new Headers({ "X-Mock-Session": " run-1 " }))).toBe("run-1");
    expect(sessionHeader(new Headers({ "x-mock-session": "  " }))).toBeUndefined();
    expect(sessionHeader(new Headers())).toBeUndefined();
  });
});
