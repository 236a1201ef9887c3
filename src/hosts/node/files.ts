/**
 * `--scenarios PATH`: scenario files (a file, or every `*.json` below a directory) loaded at start and re-read when
 * they change. An invalid file is reported with its JSON paths and its last good version keeps answering.
 */
import { existsSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { collectFiles, loadScenarioFiles } from "../../client/cli/files";
import { versionOf } from "../../scenario/store";
import type { NodeScenarioStore } from "./scenarios";

/** Waits this long after a change before re-reading, so an editor's save (several events) is read once. */
const SETTLE_MS = 50;

export interface ScenarioFiles {
  /** Files that loaded, and the problems found (each line names the file and a JSON path). */
  loaded: string[];
  problems: string[];
  close(): void;
}

async function loadInto(store: NodeScenarioStore, paths: readonly string[], cwd: string, known: Set<string>) {
  const present = paths.filter((p) => existsSync(resolve(cwd, p)));
  const files = present.length > 0 ? await collectFiles(present, cwd).catch(() => [] as string[]) : [];
  const loaded = await loadScenarioFiles(files, cwd);
  const problems: string[] = [];
  const ok: string[] = [];
  const seen = new Set<string>();
  for (const f of loaded) {
    const abs = resolve(cwd, f.file);
    seen.add(abs);
    if (!f.result.ok) {
      for (const issue of f.result.issues) problems.push(`${f.file}: ${issue.path}: ${issue.message}`);
      continue; // the last good version (if any) keeps answering
    }
    const scenario = f.result.scenario;
    store.setFile(abs, [{ name: scenario.name, version: await versionOf(f.raw), source: "file", scenario, raw: f.raw }]);
    ok.push(`${f.file} (${scenario.name})`);
  }
  for (const abs of known) if (!seen.has(abs)) store.setFile(abs, []); // deleted since the last read
  known.clear();
  seen.forEach((abs) => known.add(abs));
  return { loaded: ok, problems };
}

/**
 * Loads `paths` into `store`; with `watch`, re-reads them on change and reports each reload through `log`.
 * @example const files = await loadScenarioPaths(store, ["scenarios"], { watch: true, log: console.log })
 */
export async function loadScenarioPaths(store: NodeScenarioStore, paths: readonly string[], opts: { cwd?: string; watch?: boolean; log?: (line: string) => void } = {}): Promise<ScenarioFiles> {
  const cwd = opts.cwd ?? process.cwd();
  const log = opts.log ?? (() => {});
  const known = new Set<string>();
  const first = await loadInto(store, paths, cwd, known);
  const watchers: FSWatcher[] = [];
  if (opts.watch) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reload = () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const again = await loadInto(store, paths, cwd, known);
        for (const p of again.problems) log(`mockllm: invalid scenario file, keeping the last good version: ${p}`);
        if (again.loaded.length > 0) log(`mockllm: scenarios reloaded: ${again.loaded.join(", ")}`);
      }, SETTLE_MS);
    };
    for (const p of paths) {
      const abs = resolve(cwd, p);
      try {
        if (existsSync(abs) && !abs.endsWith(".json")) watchers.push(watch(abs, { recursive: true }, reload));
        else {
          const name = basename(abs);
          watchers.push(watch(dirname(abs), (_event, file) => file === name && reload()));
        }
      } catch (e) {
        log(`mockllm: cannot watch ${p}: ${(e as Error).message}`);
      }
    }
  }
  return {
    ...first,
    close() {
      for (const w of watchers) w.close();
    },
  };
}
