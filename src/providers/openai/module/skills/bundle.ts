/**
 * A skill's files as uploaded (`POST /v1/skills`, `…/versions`): a directory sent file by file (each part's filename
 * its path, as openai-node sends a directory) or one `.zip`. What makes them a skill: exactly one `SKILL.md`, every
 * file in its directory, and YAML front matter in it naming the skill (`name`) and saying when to use it
 * (`description`) — the Agent Skills format. The bundle kept is a zip of the files under the skill's directory name.
 */
import { readZip, writeZip } from "../../../../util/zip";

/** Most files one skill may hold, and their bytes unpacked (mockllm's bounds: the API's are not published). */
export const MAX_SKILL_FILES = 500;
export const MAX_SKILL_BYTES = 50 * 1024 * 1024;
/** The front matter's bounds, as the Agent Skills format states them. */
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
const MAX_META_BYTES = 1400;

export interface SkillFile {
  path: string;
  bytes: Uint8Array;
}

/** A skill read from its files: its name and description, and its bundle (a zip). */
export interface SkillBundle {
  name: string;
  description: string;
  zip: Uint8Array;
  files: number;
  /** SKILL.md's directory as uploaded (`a/b` for `a/b/SKILL.md`), "" when it came without one. */
  directory: string;
}

const decoder = new TextDecoder();

/** `a/b/../c` is refused, `./a//b` is `a/b`; backslashes are separators (Windows uploads). */
function cleanPath(path: string): string | undefined {
  const parts = path
    .replaceAll("\\", "/")
    .split("/")
    .filter((p) => p !== "" && p !== ".");
  if (parts.length === 0 || parts.includes("..")) return undefined;
  return parts.join("/");
}

/**
 * The front matter's `name` and `description` (`key: value` lines between the opening and closing `---`, values
 * unquoted; a `>` or `|` block's indented lines joined), or why not.
 * @example frontMatter("---\nname: pdf\ndescription: Read PDFs.\n---\n# PDF") // { name: "pdf", description: "Read PDFs." }
 */
export function frontMatter(text: string): { name: string; description: string } | string {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return "SKILL.md must start with YAML front matter (a line '---')";
  const end = lines.indexOf("---", 1);
  const close = end > 0 ? end : lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  if (close < 0) return "SKILL.md's front matter is not closed by a line '---'";
  const fields = new Map<string, string>();
  for (let i = 1; i < close; i++) {
    const m = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(lines[i]!);
    if (!m) continue;
    let value = m[2]!.trim();
    if (value === ">" || value === "|" || value === ">-" || value === "|-") {
      const block: string[] = [];
      while (i + 1 < close && /^\s+\S/.test(lines[i + 1]!)) block.push(lines[++i]!.trim());
      value = block.join(value.startsWith(">") ? " " : "\n");
    }
    fields.set(m[1]!, value.replace(/^(["'])(.*)\1$/, "$2"));
  }
  const name = fields.get("name") ?? "";
  const description = fields.get("description") ?? "";
  if (name === "") return "SKILL.md's front matter has no 'name'";
  if (description === "") return "SKILL.md's front matter has no 'description'";
  if (name.length > MAX_NAME) return `the skill's name is longer than ${MAX_NAME} characters`;
  if (description.length > MAX_DESCRIPTION) return `the skill's description is longer than ${MAX_DESCRIPTION} characters`;
  // Kept in an object's metadata (R2 holds 2 KB of it) with the rest of the record.
  if (new TextEncoder().encode(JSON.stringify([name, description])).length > MAX_META_BYTES) return "the skill's name and description are too long to keep";
  return { name, description };
}

/** The uploaded parts as files: one `.zip` unpacked, else each part a file at its path. */
async function filesOf(parts: readonly { filename: string; type: string; bytes: Uint8Array }[]): Promise<SkillFile[] | string> {
  const only = parts.length === 1 ? parts[0]! : undefined;
  if (only !== undefined && (/\.zip$/i.test(only.filename) || only.type === "application/zip" || only.type === "application/x-zip-compressed")) {
    const read = await readZip(only.bytes, { maxEntries: MAX_SKILL_FILES, maxBytes: MAX_SKILL_BYTES });
    if (!read.ok) return `the zip file could not be read: ${read.message.replace(/\.$/, "")}`;
    // Finder's resource forks and folder settings are not the skill's files.
    return read.entries.filter((e) => !e.name.startsWith("__MACOSX/") && !/(^|\/)\.DS_Store$/.test(e.name)).map((e) => ({ path: e.name, bytes: e.bytes }));
  }
  if (parts.length > MAX_SKILL_FILES) return `a skill holds at most ${MAX_SKILL_FILES} files, got ${parts.length}`;
  return parts.map((p) => ({ path: p.filename, bytes: p.bytes }));
}

/**
 * The skill the uploaded parts make, or why they make none (the sentence after "Invalid skill: ").
 * @example await skillBundle([{ filename: "pdf/SKILL.md", type: "text/markdown", bytes }]) // { name: "pdf", description: "…", zip, files: 1 }
 */
export async function skillBundle(parts: readonly { filename: string; type: string; bytes: Uint8Array }[]): Promise<SkillBundle | string> {
  if (parts.length === 0) return "no files were uploaded";
  const raw = await filesOf(parts);
  if (typeof raw === "string") return raw;
  const files: SkillFile[] = [];
  let total = 0;
  for (const f of raw) {
    const path = cleanPath(f.path);
    if (path === undefined) return `the file path '${f.path.slice(0, 100)}' is not a relative path inside the skill`;
    total += f.bytes.length;
    files.push({ path, bytes: f.bytes });
  }
  if (total > MAX_SKILL_BYTES) return `a skill's files add up to at most ${MAX_SKILL_BYTES} bytes`;
  const manifests = files.filter((f) => f.path === "SKILL.md" || f.path.endsWith("/SKILL.md"));
  if (manifests.length === 0) return "a skill must contain a SKILL.md file";
  if (manifests.length > 1) return `a skill must contain exactly one SKILL.md file, found ${manifests.length}`;
  const manifest = manifests[0]!;
  const dir = manifest.path.slice(0, manifest.path.length - "SKILL.md".length);
  const outside = files.find((f) => !f.path.startsWith(dir));
  if (outside !== undefined) return `every file must be in SKILL.md's directory ('${dir === "" ? "." : dir.slice(0, -1)}'), '${outside.path.slice(0, 100)}' is not`;
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.path)) return `the file '${f.path.slice(0, 100)}' is uploaded twice`;
    seen.add(f.path);
  }
  const meta = frontMatter(decoder.decode(manifest.bytes));
  if (typeof meta === "string") return meta;
  // The bundle unpacks to a directory: the uploaded one, or (files sent without one) one named as the skill.
  const entries = files.map((f) => ({ name: dir === "" ? `${meta.name}/${f.path}` : f.path, bytes: f.bytes }));
  return { ...meta, zip: writeZip(entries), files: files.length, directory: dir.slice(0, -1) };
}
