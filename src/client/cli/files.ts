/** Finding and reading scenario files for `validate` and `push`. */
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { parseScenarioDocument, type DocumentIssue } from "../../scenario/document";
import type { Scenario } from "../../scenario/schema";
import { compareNames } from "../../scenario/names";
import { UsageError } from "./io";
import { findJsonSyntaxError } from "./json-syntax";

export interface LoadedFile {
  /** Path as shown to the user (relative to cwd when below it, else absolute). */
  file: string;
  /** The document exactly as written (what gets uploaded). */
  raw: unknown;
  result: { ok: true; scenario: Scenario } | { ok: false; issues: DocumentIssue[] };
}

/**
 * Expands files and directories (recursively, `*.json`, skipping dot-folders and node_modules), sorted.
 * @example await collectFiles(["scenarios"], process.cwd())
 */
export async function collectFiles(paths: readonly string[], cwd: string): Promise<string[]> {
  if (paths.length === 0) throw new UsageError("no files or directories given");
  const out = new Set<string>();
  for (const p of paths) {
    const abs = resolve(cwd, p);
    const info = await stat(abs).catch(() => undefined);
    if (info === undefined) throw new UsageError(`no such file or directory: ${p}`);
    if (info.isDirectory()) {
      const found = await walk(abs);
      if (found.length === 0) throw new UsageError(`no .json files in ${p}`);
      found.forEach((f) => out.add(f));
    } else out.add(abs);
  }
  return [...out];
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries.sort((a, b) => compareNames(a.name, b.name))) {
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(path)));
    else if (e.isFile() && e.name.endsWith(".json")) out.push(path);
  }
  return out;
}

/**
 * Reads and validates every file; a second document with an already-seen name is an issue too.
 * @example const files = await loadScenarioFiles(await collectFiles(["scenarios"], cwd), cwd)
 */
export async function loadScenarioFiles(files: readonly string[], cwd: string): Promise<LoadedFile[]> {
  const seen = new Map<string, string>();
  const out: LoadedFile[] = [];
  for (const abs of files) {
    const rel = relative(cwd, abs);
    const file = rel !== "" && !rel.startsWith("..") ? rel : abs; // outside the cwd: the whole path reads better
    const text = (await readFile(abs, "utf8")).replace(/^\uFEFF/, ""); // editors on Windows add a BOM
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      out.push({ file, raw: undefined, result: { ok: false, issues: [{ path: "$", message: jsonError(err, text) }] } });
      continue;
    }
    const result = parseScenarioDocument(raw);
    if (result.ok) {
      const other = seen.get(result.scenario.name);
      if (other !== undefined) {
        const message = `duplicate scenario name "${result.scenario.name}" (also in ${other})`;
        out.push({ file, raw, result: { ok: false, issues: [{ path: "$.name", message }] } });
        continue;
      }
      seen.set(result.scenario.name, file);
    }
    out.push({ file, raw, result });
  }
  return out;
}

/** `invalid JSON at line 3, column 5: expected …`, whatever JSON.parse said. */
function jsonError(err: unknown, text: string): string {
  const found = findJsonSyntaxError(text);
  if (found !== undefined) return `invalid JSON at line ${found.line}, column ${found.column}: ${found.message}`;
  return `invalid JSON: ${err instanceof Error ? err.message : String(err)}`;
}
