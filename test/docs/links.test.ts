/**
 * Every relative link in the docs (README.md, CHANGELOG.md, docs/**) points at a file that exists and, with a
 * `#fragment`, at a heading of that page (GitHub's anchor for it). Links inside code blocks are not links.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { anchorOf, docPages, ROOT } from "./blocks";

/** The page's text outside fenced code blocks. */
function prose(text: string): string {
  return text.replace(/^([ \t]*)(`{3,})[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, "");
}

const anchors = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let set = anchors.get(file);
  if (!set) {
    set = new Set();
    const seen = new Map<string, number>();
    for (const m of prose(readFileSync(file, "utf8")).matchAll(/^#{1,6} (.+)$/gm)) {
      const base = anchorOf(m[1]!.replace(/`/g, ""));
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      set.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of readFileSync(file, "utf8").matchAll(/<a (?:id|name)="([^"]+)"/g)) set.add(m[1]!);
    anchors.set(file, set);
  }
  return set;
}

describe("links between the docs", () => {
  for (const page of docPages()) {
    it(page, () => {
      const broken: string[] = [];
      const text = prose(readFileSync(join(ROOT, page), "utf8")).replace(/`[^`\n]*`/g, "");
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [path, fragment] = target.split("#") as [string, string | undefined];
        const file = path === "" ? join(ROOT, page) : normalize(join(ROOT, dirname(page), decodeURIComponent(path)));
        if (!existsSync(file)) {
          broken.push(`${target}: no such file`);
          continue;
        }
        if (fragment !== undefined && fragment !== "" && statSync(file).isFile() && file.endsWith(".md") && !anchorsOf(file).has(fragment)) {
          broken.push(`${target}: no heading #${fragment}`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});

describe("the ready banner's pages", () => {
  it("every docs page the banner of `mockllm serve` names exists", () => {
    // The banner's own lines and its rows, generated from the provider modules (src/client/cli/banner-rows.gen.ts).
    const banner = ["banner.ts", "banner-rows.gen.ts"].map((f) => readFileSync(join(ROOT, "src", "client", "cli", f), "utf8")).join("\n");
    const pages = [...banner.matchAll(/"((?:providers|guide)\/[a-z-]+\.md)/g)].map((m) => m[1]!);
    expect(pages.length).toBeGreaterThan(8);
    expect(pages.filter((p) => !existsSync(join(ROOT, "docs", p)))).toEqual([]);
  });
});
