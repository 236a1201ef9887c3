/** The operators' host lists (`MCP_ALLOWED_HOSTS`, `WEBHOOK_ALLOWED_HOSTS`): how they are read and matched. */
import { describe, expect, it } from "vitest";
import { hostList, hostListed } from "../../src/util/host-list";

describe("host lists", () => {
  it("reads a comma list, trimmed and lower-cased, blanks dropped", () => {
    expect(hostList(" Hooks.Example.com, ci:8443 ,,")).toEqual(["hooks.example.com", "ci:8443"]);
    expect(hostList(undefined)).toEqual([]);
    expect(hostList("  ")).toEqual([]);
  });

  it("matches a URL's host:port, or its host for any port", () => {
    expect(hostListed(new URL("https://CI:8443/x"), ["ci:8443"])).toBe(true);
    expect(hostListed(new URL("https://ci:9000/x"), ["ci:8443"])).toBe(false);
    expect(hostListed(new URL("http://ci:9000/x"), ["ci"])).toBe(true);
    expect(hostListed(new URL("http://other/x"), ["ci"])).toBe(false);
  });
});
