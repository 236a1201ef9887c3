/**
 * `--persist DIR`: uploads and sessions written to disk, read back at start. Uploads are written at once
 * (`DIR/scenarios/{name}.json`); a changed session is written within PERSIST_DELAY_MS (`DIR/sessions/{name}.json`,
 * via a temporary file and a rename, so a file is never half written), and every pending write is flushed before
 * the server exits. Namespace uploads and sessions are named `__ns/{space}/…`; the key registry (namespaces, key
 * hashes, quota usage, audit) is `DIR/registry.json`, written within PERSIST_DELAY_MS of a change. Files, batches and
 * the other stored objects are `DIR/objects` (./object-files.ts), written before their request is answered. Each
 * namespace's webhooks (endpoints, waiting deliveries, the delivery log) are `DIR/webhooks/ns-{space}.json`, written
 * within PERSIST_DELAY_MS of a change.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MemorySessionData } from "./memory";

/** Longest a changed session waits before it is written. */
export const PERSIST_DELAY_MS = 100;

/** A namespace's webhooks file is named `ns-{space}` (the project without a namespace's space is "": `ns-.json`). */
const WEBHOOKS_PREFIX = "ns-";

/** Whether a value read back is an object of strings (a stored object's metadata, a namespace's webhook entries). */
export function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string");
}

/** A session or scenario name as a file name (`weather/run-1` → `weather%2Frun-1.json`). */
function fileName(name: string): string {
  return `${encodeURIComponent(name)}.json`;
}

function nameOf(file: string): string | undefined {
  if (!file.endsWith(".json")) return undefined;
  try {
    return decodeURIComponent(file.slice(0, -".json".length));
  } catch {
    return undefined;
  }
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export class Persister {
  private readonly scenariosDir: string;
  private readonly sessionsDir: string;
  private readonly registryFile: string;
  private readonly webhooksDir: string;
  private readonly pending = new Map<string, () => MemorySessionData>();
  /** Namespaces whose webhooks changed: their entries, or undefined for a namespace deleted. */
  private readonly pendingWebhooks = new Map<string, Map<string, string> | undefined>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pendingRegistry: Map<string, string> | undefined;

  constructor(dir: string) {
    this.scenariosDir = join(dir, "scenarios");
    this.sessionsDir = join(dir, "sessions");
    this.registryFile = join(dir, "registry.json");
    this.webhooksDir = join(dir, "webhooks");
    mkdirSync(this.scenariosDir, { recursive: true });
    mkdirSync(this.sessionsDir, { recursive: true });
    mkdirSync(this.webhooksDir, { recursive: true });
  }

  /** Uploaded documents as stored, by name. Unreadable files are reported and skipped. */
  uploads(report: (message: string) => void): Map<string, unknown> {
    return this.readAll(this.scenariosDir, report);
  }

  sessions(report: (message: string) => void): Map<string, MemorySessionData> {
    return this.readAll(this.sessionsDir, report) as Map<string, MemorySessionData>;
  }

  private readAll(dir: string, report: (message: string) => void): Map<string, unknown> {
    const out = new Map<string, unknown>();
    for (const file of readdirSync(dir)) {
      const name = nameOf(file);
      if (name === undefined) continue;
      try {
        out.set(name, JSON.parse(readFileSync(join(dir, file), "utf8")));
      } catch (e) {
        report(`mockllm: skipped ${join(dir, file)}: ${(e as Error).message}`);
      }
    }
    return out;
  }

  /** Writes or removes an uploaded document at once. */
  saveUpload(name: string, raw: unknown): void {
    const path = join(this.scenariosDir, fileName(name));
    if (raw === undefined) rmSync(path, { force: true });
    else writeAtomic(path, JSON.stringify(raw));
  }

  /** The key registry (namespaces, key hashes, usage, audit), as written by saveRegistry. */
  registry(report: (message: string) => void): Map<string, string> {
    try {
      return new Map(Object.entries(JSON.parse(readFileSync(this.registryFile, "utf8")) as Record<string, string>));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") report(`mockllm: skipped ${this.registryFile}: ${(e as Error).message}`);
      return new Map();
    }
  }

  /** Schedules the key registry to be written (within PERSIST_DELAY_MS, like sessions, and at exit). */
  saveRegistry(entries: Map<string, string>): void {
    this.pendingRegistry = entries;
    this.timer ??= setTimeout(() => this.flush(), PERSIST_DELAY_MS);
  }

  /** Each namespace's webhook entries, as saveWebhooks wrote them (a file that is not a map of strings is skipped). */
  webhooks(report: (message: string) => void): Map<string, Map<string, string>> {
    const out = new Map<string, Map<string, string>>();
    for (const [name, entries] of this.readAll(this.webhooksDir, report)) {
      const space = name.startsWith(WEBHOOKS_PREFIX) ? name.slice(WEBHOOKS_PREFIX.length) : undefined;
      if (space === undefined || !isStringRecord(entries)) report(`mockllm: skipped ${join(this.webhooksDir, fileName(name))}: not a namespace's webhooks`);
      else out.set(space, new Map(Object.entries(entries)));
    }
    return out;
  }

  /** Schedules a namespace's webhooks to be written (within PERSIST_DELAY_MS, and at exit); undefined removes them. */
  saveWebhooks(space: string, entries: Map<string, string> | undefined): void {
    this.pendingWebhooks.set(space, entries);
    this.timer ??= setTimeout(() => this.flush(), PERSIST_DELAY_MS);
  }

  /** Removes a session's file (a deleted namespace's, an expired one). */
  removeSession(name: string): void {
    this.pending.delete(name);
    rmSync(join(this.sessionsDir, fileName(name)), { force: true });
  }

  /** Schedules a session to be written; `dump` is called when it is. */
  sessionChanged(name: string, dump: () => MemorySessionData): void {
    this.pending.set(name, dump);
    this.timer ??= setTimeout(() => this.flush(), PERSIST_DELAY_MS);
  }

  /** Writes every pending session now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const [name, dump] of this.pending) writeAtomic(join(this.sessionsDir, fileName(name)), JSON.stringify(dump()));
    this.pending.clear();
    for (const [space, entries] of this.pendingWebhooks) {
      const path = join(this.webhooksDir, fileName(WEBHOOKS_PREFIX + space));
      if (entries === undefined) rmSync(path, { force: true });
      else writeAtomic(path, JSON.stringify(Object.fromEntries(entries)));
    }
    this.pendingWebhooks.clear();
    if (this.pendingRegistry) writeAtomic(this.registryFile, JSON.stringify(Object.fromEntries(this.pendingRegistry)));
    this.pendingRegistry = undefined;
  }
}
