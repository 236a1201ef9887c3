/**
 * The inspector's files on both runtimes: content types, a CSP that allows only same-origin scripts, no inline script
 * or style, and no secret in anything served. (test/browser drives it in Chromium.)
 */
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, call } from "./helpers";

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

describe("inspector", () => {
  it("GET / is the page: HTML, the CSP, scripts and styles only from files", async () => {
    const res = await call("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(CSP);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    expect(html).toContain('<script src="/inspector/app.js" defer></script>');
    expect(html).toContain('<link rel="stylesheet" href="/inspector/style.css">');
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script src="/inspector/app.js" defer>']);
    expect(html).not.toMatch(/<style\b|\sstyle="|\son[a-z]+="/i);
  });

  it.each([
    ["/inspector/app.js", "text/javascript; charset=utf-8", "sessionStorage"],
    ["/inspector/style.css", "text/css; charset=utf-8", ".timeline"],
  ])("%s is served as %s with the same CSP", async (path, type, marker) => {
    const res = await call(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("content-security-policy")).toBe(CSP);
    expect(await res.text()).toContain(marker);
  });

  it("nothing served carries the admin token", async () => {
    for (const path of ["/", "/inspector/app.js", "/inspector/style.css"]) {
      expect(await (await call(path)).text()).not.toContain(ADMIN_TOKEN);
    }
  });

  it("an unknown inspector file is 404; POST / is not the page", async () => {
    expect((await call("/inspector/nope.js")).status).toBe(404);
    expect((await call("/", { method: "POST" })).headers.get("content-type")).not.toContain("text/html");
  });
});
