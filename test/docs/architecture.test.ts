/**
 * docs/ARCHITECTURE.md matches the tree: every `src/…` path it names exists (a `<name>`-style placeholder aside), and
 * every folder directly under src/ is named on the page, and opens with a README.md that says what lives there, as the
 * page's table does.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./blocks";

const page = readFileSync(join(ROOT, "docs/ARCHITECTURE.md"), "utf8");
const named = [...new Set([...page.matchAll(/\bsrc\/[\w./-]*/g)].map((m) => m[0].replace(/[.]+$/, "")))];

describe("docs/ARCHITECTURE.md", () => {
  it("names only paths that exist", () => {
    const missing = named.filter((p) => !p.includes("<") && !existsSync(join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it("names every folder of src/", () => {
    const folders = readdirSync(join(ROOT, "src"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `src/${e.name}/`);
    expect(folders.filter((f) => !page.includes(f))).toEqual([]);
  });

  it("every folder of src/ opens with a README.md saying what lives there, as the page's table does", () => {
    const folders = readdirSync(join(ROOT, "src"), { withFileTypes: true }).filter((e) => e.isDirectory());
    const rows = new Map([...page.matchAll(/^\| `src\/([a-z-]+)\/` \| (.+) \|$/gm)].map((m) => [m[1]!, m[2]!]));
    const wrong = folders
      .map((e) => e.name)
      .filter((name) => {
        const file = join(ROOT, "src", name, "README.md");
        if (!existsSync(file)) return true;
        const said = readFileSync(file, "utf8").split("\n\n")[1]?.replace(/\s+/g, " ").toLowerCase();
        return said === undefined || !said.startsWith(rows.get(name)?.toLowerCase().slice(0, 40) ?? "\0");
      });
    expect(wrong).toEqual([]);
  });

  it("no source file dates itself: a comment says why, not which issue or wave brought it", () => {
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
    const dated = walk(join(ROOT, "src")).flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (/\b(issue|wave) \d+\b/i.test(line) && !/performance-history\.md/.test(line) ? [`${file.slice(ROOT.length + 1)}:${i + 1}`] : [])),
    );
    expect(dated).toEqual([]);
  });
});
