/**
 * The code blocks of the docs (README.md and docs/**.md): fenced blocks whose info string is `sh runnable`,
 * `ts runnable` or `py runnable` are run by test/docs/run.test.ts against a started mock, so the docs cannot drift
 * from the behaviour. A block marked `docs-test: allow 404` (in its info string after `runnable`, which a rendered
 * page does not show, or anywhere in it) may get a 404 on purpose.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface Block {
  /** Path from the repository root, e.g. `docs/behaviours/overloaded.md`. */
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  runnable: boolean;
  /** The info string after the language (`runnable docs-test: allow 403`): not shown on a rendered page. */
  info: string;
  code: string;
}

export const ROOT = join(import.meta.dirname, "..", "..");

/** Every Markdown page of the docs: the README, the changelog and the docs tree. */
export function docPages(): string[] {
  const out = ["README.md", "CHANGELOG.md"];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (name.endsWith(".md")) out.push(path);
    }
  };
  walk("docs");
  return out;
}

/** The fenced blocks of one page, in order. */
export function blocksOf(page: string): Block[] {
  const lines = readFileSync(join(ROOT, page), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const words = info
      .trim()
      .split(/\s+/)
      .filter((w) => w !== "");
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.startsWith(`${indent}${fence}`); j++) body.push(lines[j]!.slice(indent.length));
    blocks.push({ page, line: i + 1, lang: words[0] ?? "", runnable: words.includes("runnable"), info: words.slice(1).join(" "), code: body.join("\n") });
    i = j;
  }
  return blocks;
}

export function relativeToRoot(path: string): string {
  return relative(ROOT, path);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (but `-` and `_`), spaces as `-`. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replaceAll(" ", "-");
}
