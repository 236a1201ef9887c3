/**
 * The Node runtime's scenario store: uploads (admin API) in memory over `--scenarios` files over the bundled
 * defaults. Files are read at start and re-read when they change; an invalid file is reported with its JSON paths
 * and its last good version keeps answering.
 */
import type { Scenario } from "../../scenario/schema";
import { bundledScenarios, byPriority, summaryOf, type ScenarioStore, type ScenarioSummary, type StoredScenario } from "../../scenario/store";
import { compareNames } from "../../scenario/names";
import type { Awaitable } from "../../util/awaitable";

export class NodeScenarioStore implements ScenarioStore {
  private readonly uploads = new Map<string, StoredScenario>();
  /** By scenario name, from `--scenarios` files. */
  private readonly files = new Map<string, StoredScenario & { file: string }>();
  private bundled: Map<string, StoredScenario> | undefined;

  constructor(private readonly onUpload: (name: string, stored: StoredScenario | undefined) => void = () => {}) {}

  /** Loads the bundled defaults once; call before serving. */
  async init(): Promise<void> {
    this.bundled = await bundledScenarios();
  }

  private layer(name: string): StoredScenario | undefined {
    return this.uploads.get(name) ?? this.files.get(name) ?? this.bundled?.get(name);
  }

  get(name: string): Awaitable<StoredScenario | undefined> {
    if (!this.bundled) return this.init().then(() => this.layer(name));
    return this.layer(name);
  }

  private all(): StoredScenario[] {
    const names = new Set([...this.uploads.keys(), ...this.files.keys(), ...(this.bundled?.keys() ?? [])]);
    return [...names].map((n) => this.layer(n)!);
  }

  async list(): Promise<ScenarioSummary[]> {
    if (!this.bundled) await this.init();
    return this.all()
      .map(summaryOf)
      .sort((a, b) => compareNames(a.name, b.name));
  }

  private candidateCache: StoredScenario[] | undefined;

  async candidates(): Promise<StoredScenario[]> {
    if (!this.bundled) await this.init();
    this.candidateCache ??= this.all()
      .filter((s) => s.scenario.match !== undefined)
      .sort(byPriority);
    return this.candidateCache;
  }

  async names(): Promise<string[]> {
    return (await this.list()).map((s) => s.name);
  }

  async put(raw: unknown, scenario: Scenario, version: string): Promise<void> {
    const stored: StoredScenario = { name: scenario.name, version, source: "kv", scenario, raw };
    this.uploads.set(scenario.name, stored);
    this.candidateCache = undefined;
    this.onUpload(scenario.name, stored);
  }

  async delete(name: string): Promise<boolean> {
    const had = this.uploads.delete(name);
    if (had) {
      this.candidateCache = undefined;
      this.onUpload(name, undefined);
    }
    return had;
  }

  /** Restores a persisted upload without reporting it as a change. */
  restoreUpload(stored: StoredScenario): void {
    this.uploads.set(stored.name, stored);
    this.candidateCache = undefined;
  }

  /** Replaces every scenario that came from `file` with `docs` (none: the file is gone). */
  setFile(file: string, docs: StoredScenario[]): void {
    for (const [name, s] of this.files) if (s.file === file) this.files.delete(name);
    for (const d of docs) this.files.set(d.name, { ...d, source: "file", file });
    this.candidateCache = undefined;
  }

  /** The file a scenario name was loaded from, if any. */
  fileOf(name: string): string | undefined {
    return this.files.get(name)?.file;
  }
}
