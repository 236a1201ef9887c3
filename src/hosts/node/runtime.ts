/**
 * The Node runtime's assembly: the Runtime (../types.ts) built from in-process stores over the scenario files, the
 * bundled defaults and, with `persist`, the state kept on disk, as ../workers/runtime.ts builds it from a Worker's
 * bindings. No HTTP here: ./transport.ts serves what this builds, ./server.ts joins the two.
 */
import { join } from "node:path";
import { MemoryObjectStore, type ObjectStore } from "../../objects/store";
import { NodeWebhooks } from "./webhooks";
import { deliveryLogger } from "../../webhooks/send";
import { parseScenarioDocument } from "../../scenario/document";
import { versionOf } from "../../scenario/store";
import { sessionTtlMs } from "../../tenancy/quota";
import type { Runtime, RuntimeVars } from "../../runtime/types";
import { loadScenarioPaths, type ScenarioFiles } from "./files";
import { FileObjectStore } from "./object-files";
import { Persister } from "./persist";
import { putRecordingScenario, type RecordOptions } from "./record";
import { NodeScenarioStore } from "./scenarios";
import { NodeSessionStore } from "./sessions";
import { NodeTenancy, splitPersistedName } from "./tenancy";

export interface AssemblyOptions {
  /** Admin bearer token; unset, admin routes answer 503. */
  adminToken?: string;
  /** Scenario files or directories, loaded at start (and watched with `watch`). */
  scenarios?: readonly string[];
  /** Re-read scenario files when they change. Default true when `scenarios` are given. */
  watch?: boolean;
  /**
   * Keep uploads, sessions, journals, stored responses, webhooks and the stored objects (files, batches, vector
   * stores, containers, …) in this directory across restarts.
   */
  persist?: string;
  /**
   * Write what `persist` writes to this directory (by close() or the process's exit at the latest), without reading
   * what it holds at start: a run kept for `mockllm serve --persist <dir>` to show afterwards.
   */
  keepOnExit?: string;
  /** Worker variables (`DEFAULT_WORDS_PER_SECOND`, `DEFAULT_RESPONDER`, …). */
  vars?: RuntimeVars & Record<string, string | undefined>;
  /** `mockllm serve --record` / `mockllm record`: a recording scenario over these upstreams (see recordingScenario). */
  record?: RecordOptions;
}

export interface NodeRuntime {
  readonly runtime: Runtime;
  /** Problems found in scenario files at start (each names the file and a JSON path). */
  readonly problems: readonly string[];
  /** Stops watching files and expiring idle sessions. */
  stop(): void;
  /** Writes pending state (with `persist`/`keepOnExit`); called once the transport has closed. */
  flush(): void;
}

/** Builds the Node runtime's stores; `log` takes reload reports and problems. */
export async function nodeRuntime(opts: AssemblyOptions, log: (line: string) => void): Promise<NodeRuntime> {
  if (opts.persist !== undefined && opts.keepOnExit !== undefined) throw new TypeError("persist and keepOnExit exclude each other");
  const dir = opts.persist ?? opts.keepOnExit;
  const persister = dir !== undefined ? new Persister(dir) : undefined;
  const restore = opts.persist !== undefined ? persister : undefined; // keepOnExit writes only
  const scenarios = new NodeScenarioStore((name, stored) => persister?.saveUpload(name, stored?.raw));
  await scenarios.init();
  const sessions = new NodeSessionStore(restore?.sessions(log), persister ? (name, dump) => persister.sessionChanged(name, dump) : undefined);
  const tenancy = new NodeTenancy(sessions, persister, restore?.registry(log));
  // Pending writes reach the disk when the process exits without close() (flush is synchronous); a directory removed
  // meanwhile must not turn the exit into a crash.
  const flushOnExit = () => {
    try {
      persister?.flush();
    } catch (e) {
      log(`mockllm: could not write ${dir} at exit: ${(e as Error).message}`);
    }
  };
  if (persister) process.once("exit", flushOnExit);
  if (restore) {
    for (const [persisted, raw] of restore.uploads(log)) {
      const inSpace = splitPersistedName(persisted);
      const name = inSpace?.name ?? persisted;
      const parsed = parseScenarioDocument(raw, name);
      if (!parsed.ok) {
        log(`mockllm: skipped persisted scenario "${persisted}": ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`);
        continue;
      }
      const store = inSpace ? tenancy.scenarios(inSpace.space) : scenarios;
      store.restoreUpload({ name, version: await versionOf(raw), source: "kv", scenario: parsed.scenario, raw });
    }
  }
  const files: ScenarioFiles | undefined = opts.scenarios && opts.scenarios.length > 0 ? await loadScenarioPaths(scenarios, opts.scenarios, { watch: opts.watch ?? true, log }) : undefined;

  if (opts.record) await putRecordingScenario(scenarios, opts.record);
  const vars: RuntimeVars = { ...opts.vars, ...(opts.adminToken !== undefined ? { ADMIN_TOKEN: opts.adminToken } : {}) };
  // A local server answers browser pages from any origin unless told otherwise (a deployed Worker: none until set).
  vars.CORS_ORIGINS ??= "*";
  const requestLog = vars.REQUEST_LOG?.trim().toLowerCase() === "json";
  // Files, batches and the other stored objects: in DIR/objects with a directory, as the Worker keeps them in R2.
  const objects: ObjectStore = dir !== undefined ? new FileObjectStore(join(dir, "objects"), { restore: restore !== undefined, report: log }) : new MemoryObjectStore();
  tenancy.objects = objects;
  const webhooks = new NodeWebhooks(
    vars,
    deliveryLogger(vars, log),
    persister ? { saved: restore?.webhooks(log) ?? new Map(), save: (space, entries) => persister.saveWebhooks(space, entries) } : undefined,
  );
  tenancy.webhooks = webhooks;
  const runtime: Runtime = {
    sessions,
    scenarios,
    vars,
    tenancy,
    objects,
    webhooks: (space) => webhooks.hub(space),
    ...(requestLog ? { log: (entry) => log(JSON.stringify({ mockllm: "request", ...entry })) } : {}),
  };
  const ttl = sessionTtlMs(vars);
  const expiry = setInterval(
    () => {
      for (const name of sessions.expireIdle(Date.now(), ttl)) persister?.removeSession(name);
    },
    Math.min(ttl, 60_000),
  );
  expiry.unref();
  return {
    runtime,
    problems: files?.problems ?? [],
    stop() {
      files?.close();
      clearInterval(expiry);
      webhooks.stopAll();
    },
    flush() {
      process.off("exit", flushOnExit);
      persister?.flush();
    },
  };
}
