// A skill's files (src/providers/openai/module/skills/bundle.ts): SKILL.md's front matter in the forms skill authors
// write it, and what makes a set of files a skill.
import { describe, expect, it } from "vitest";
import { frontMatter, skillBundle } from "../../src/providers/openai/module/skills/bundle";
import { readZip, writeZip } from "../../src/util/zip";

const enc = new TextEncoder();
const part = (filename: string, text: string) => ({ filename, type: "text/plain", bytes: enc.encode(text) });

describe("SKILL.md front matter", () => {
  it("reads plain, quoted, folded and literal values, CRLF lines and a BOM", () => {
    expect(frontMatter("---\nname: pdf\ndescription: Read PDFs.\n---\n# PDF")).toEqual({ name: "pdf", description: "Read PDFs." });
    expect(frontMatter("\uFEFF---\r\nname: 'pdf'\r\ndescription: \"Read: PDFs\"\r\nlicense: MIT\r\n---\r\n")).toEqual({ name: "pdf", description: "Read: PDFs" });
    expect(frontMatter("---\nname: pdf\ndescription: >\n  Read PDFs\n  and fill forms.\nallowed-tools: Bash\n---\n")).toEqual({ name: "pdf", description: "Read PDFs and fill forms." });
    expect(frontMatter("---\nname: pdf\ndescription: |\n  Line one\n  Line two\n---\n")).toEqual({ name: "pdf", description: "Line one\nLine two" });
  });

  it("says what is missing", () => {
    expect(frontMatter("# PDF")).toBe("SKILL.md must start with YAML front matter (a line '---')");
    expect(frontMatter("---\nname: pdf\n")).toBe("SKILL.md's front matter is not closed by a line '---'");
    expect(frontMatter("---\ndescription: x\n---\n")).toBe("SKILL.md's front matter has no 'name'");
    expect(frontMatter(`---\nname: ${"n".repeat(65)}\ndescription: x\n---\n`)).toBe("the skill's name is longer than 64 characters");
    expect(frontMatter(`---\nname: pdf\ndescription: ${"d".repeat(1025)}\n---\n`)).toBe("the skill's description is longer than 1024 characters");
  });
});

describe("skillBundle", () => {
  it("bundles a directory's files as uploaded, and files without one under the skill's name", async () => {
    const md = "---\nname: pdf\ndescription: Read PDFs.\n---\n";
    const dir = await skillBundle([part("pdf/SKILL.md", md), part("pdf\\scripts\\fill.py", "x"), part("./pdf//ref.md", "y")]);
    if (typeof dir === "string") throw new Error(dir);
    expect([dir.name, dir.description, dir.files, dir.directory]).toEqual(["pdf", "Read PDFs.", 3, "pdf"]);
    const entries = await readZip(dir.zip, { maxEntries: 10, maxBytes: 1000 });
    expect(entries.ok && entries.entries.map((e) => e.name)).toEqual(["pdf/SKILL.md", "pdf/scripts/fill.py", "pdf/ref.md"]);
    const flat = await skillBundle([part("SKILL.md", md), part("notes.md", "z")]);
    if (typeof flat === "string") throw new Error(flat);
    expect(flat.directory).toBe("");
    const flatEntries = await readZip(flat.zip, { maxEntries: 10, maxBytes: 1000 });
    expect(flatEntries.ok && flatEntries.entries.map((e) => e.name)).toEqual(["pdf/SKILL.md", "pdf/notes.md"]);
  });

  it("a zip from Finder: its __MACOSX forks and .DS_Store are left out", async () => {
    const zip = writeZip([
      { name: "pdf/SKILL.md", bytes: enc.encode("---\nname: pdf\ndescription: Read PDFs.\n---\n") },
      { name: "pdf/.DS_Store", bytes: enc.encode("x") },
      { name: "__MACOSX/pdf/._SKILL.md", bytes: enc.encode("x") },
    ]);
    const bundle = await skillBundle([{ filename: "pdf.zip", type: "application/zip", bytes: zip }]);
    if (typeof bundle === "string") throw new Error(bundle);
    expect(bundle.files).toBe(1);
  });

  it("refuses files that make no skill", async () => {
    const md = "---\nname: pdf\ndescription: Read PDFs.\n---\n";
    expect(await skillBundle([])).toBe("no files were uploaded");
    expect(await skillBundle([part("a/SKILL.md", md), part("b/SKILL.md", md)])).toBe("a skill must contain exactly one SKILL.md file, found 2");
    expect(await skillBundle([part("a/SKILL.md", md), part("a/x.md", "1"), part("a//x.md", "2")])).toBe("the file 'a/x.md' is uploaded twice");
    expect(await skillBundle([part("/", md)])).toBe("the file path '/' is not a relative path inside the skill");
  });
});
