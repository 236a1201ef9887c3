/**
 * The namespace-scoped Runtime. The router resolves the caller first (gate.ts) and hands every handler
 * `scopeRuntime(rt, caller)`: its `sessions` name every session inside the namespace (`__ns/{space}/{name}`), its
 * `scenarios` are the namespace's own uploads over the bundled defaults (read-only). Routes reach all state through
 * these two stores, so every route — including ones added later — is isolated without knowing about namespaces.
 * The wrappers implement the interfaces member by member: a member added to an interface must be forwarded here.
 */
import type { Runtime } from "../runtime/types";
import type { Scenario } from "../scenario/schema";
import type { ScenarioStore, ScenarioSummary, StoredScenario } from "../scenario/store";
import type { JournalEntry, NeedsDocument, NextInput, NextResult, SessionView } from "../session/core";
import type { McpInput, McpResult } from "../session/mcp";
import type { RecordedStep, RecordInput, RecordResult } from "../session/recording";
import type { ResponseHistory, StoredResponseRecord } from "../session/responses";
import type { Awaitable, Session, SessionStore } from "../session/types";
import type { SocketInit } from "../session/socket";
import { KEY_ID_HEADER } from "./keys";
import { charge } from "./quota";
import type { Caller, Usage } from "./types";

/** Where a namespace incarnation's sessions live: no default-namespace name (`{scenario}/{session}`) starts so. */
export function sessionPrefix(space: string): string {
  return `__ns/${space}/`;
}

type Charge = (usage: Usage) => Promise<void>;

/**
 * A namespace incarnation's directory: every object name its sessions store wrote to (sessions, `__responses/…`,
 * `__index/…`), so deleting the namespace can purge each object's storage (Durable Objects cannot be enumerated).
 */
export function directoryName(space: string): string {
  return sessionPrefix(space) + DIRECTORY;
}
const DIRECTORY = "__index/objects";

/** Whether an object name is a namespace's directory (which must outlive idle spells: it alone can find the objects). */
export function isDirectory(name: string): boolean {
  return name.startsWith("__ns/") && name.endsWith(`/${DIRECTORY}`);
}
/** Most names a directory keeps (far above any session quota; the oldest go first). */
export const DIRECTORY_LIMIT = 100_000;
/** Names this isolate has noted in their directory already: each object costs one directory call per isolate. */
const noted = new Set<string>();
const NOTED_LIMIT = 10_000;

/** Notes the object `name` (prefixed) in the directory of `prefix`, once per isolate. */
function noteObject(inner: SessionStore, prefix: string, name: string): Awaitable<void> {
  if (noted.has(name)) return;
  if (noted.size >= NOTED_LIMIT) noted.clear();
  const directory = prefix + DIRECTORY;
  if (name === directory) return;
  const done = inner.get(directory).noteMember(name, DIRECTORY_LIMIT);
  const mark = () => void noted.add(name);
  if (done instanceof Promise) return done.then(mark);
  mark();
}

/** Runs `call` and notes the object in its directory at the same time (a write creates the object). */
async function withNote<T>(note: () => Awaitable<void>, call: () => Awaitable<T>): Promise<T> {
  const [, out] = await Promise.all([note(), call()]);
  return out;
}

/**
 * A session of a namespace: each journaled request notes the key id (`x-mockllm-key-id` among the journaled headers)
 * and, with session or journal quotas, is charged first.
 */
class ScopedSession implements Session {
  constructor(
    private readonly inner: Session,
    private readonly name: string,
    private readonly keyId: string,
    private readonly charge: Charge | undefined,
    private readonly note: () => Awaitable<void>,
    /** The namespace's prefix, in front of the ids' seed of every answer (equal names in two namespaces). */
    private readonly idScope: string,
  ) {}

  private withKeyId<T extends { wire: NextInput["wire"] }>(input: T): T {
    return { ...input, wire: { ...input.wire, headers: { ...input.wire.headers, [KEY_ID_HEADER]: this.keyId } } };
  }

  private async chargeRequest(wire: unknown): Promise<void> {
    await this.charge?.({ session: this.name, journalBytes: JSON.stringify(wire).length });
  }

  exists(): Awaitable<boolean> {
    return this.inner.exists();
  }
  async next(input: NextInput): Promise<NextResult | NeedsDocument> {
    // The retry with the document is the same request: charged once.
    if (this.charge && input.document === undefined) await this.chargeRequest(input.wire);
    return withNote(this.note, () => this.inner.next({ ...this.withKeyId(input), idScope: this.idScope }));
  }
  state(current?: Scenario): Awaitable<SessionView> {
    return this.inner.state(current);
  }
  requests(): Awaitable<JournalEntry[]> {
    return this.inner.requests();
  }
  reset(): Awaitable<{ reset: true }> {
    return this.inner.reset();
  }
  async record(input: RecordInput): Promise<RecordResult> {
    await this.chargeRequest(input.wire);
    return withNote(this.note, () => this.inner.record(this.withKeyId(input)));
  }
  recording(): Awaitable<RecordedStep[]> {
    return this.inner.recording();
  }
  async mcp(input: McpInput): Promise<McpResult | NeedsDocument> {
    // As for next(): the retry with the document is the same message, charged once.
    if (this.charge && input.document === undefined) await this.chargeRequest(input.wire);
    return withNote(this.note, () => this.inner.mcp(this.withKeyId(input)));
  }
  closeMcp(mcpSession: string): Awaitable<boolean> {
    return this.inner.closeMcp(mcpSession);
  }
  noteMember(key: string, limit?: number): Promise<void> {
    return withNote(this.note, () => this.inner.noteMember(key, limit));
  }
  members(): Awaitable<{ key: string; at: string }[]> {
    return this.inner.members();
  }
  forgetMember(key: string): Awaitable<void> {
    return this.inner.forgetMember(key);
  }
  count(key: string): Promise<number> {
    return withNote(this.note, () => this.inner.count(key));
  }
  saveResponse(record: StoredResponseRecord): Promise<void> {
    return withNote(this.note, () => this.inner.saveResponse(record));
  }
  responseById(id: string): Awaitable<string | null> {
    return this.inner.responseById(id);
  }
  responseHistory(id: string): Awaitable<ResponseHistory> {
    return this.inner.responseHistory(id);
  }
  responseItems(ids: string[]): Awaitable<Record<string, string>> {
    return this.inner.responseItems(ids);
  }
  deleteResponse(id: string): Awaitable<boolean> {
    return this.inner.deleteResponse(id);
  }
  pointResponse(id: string, object: string): Promise<void> {
    return withNote(this.note, () => this.inner.pointResponse(id, object));
  }
  responsePointer(id: string): Awaitable<string | null> {
    return this.inner.responsePointer(id);
  }
  forgetResponsePointer(id: string): Awaitable<void> {
    return this.inner.forgetResponsePointer(id);
  }
}

/** A namespace's sessions: the same store, every name inside the namespace's prefix. */
export class ScopedSessionStore implements SessionStore {
  constructor(
    private readonly inner: SessionStore,
    private readonly prefix: string,
    private readonly keyId: string,
    private readonly charge: Charge | undefined,
  ) {}

  get(name: string): Session {
    const full = this.prefix + name;
    const session = this.inner.get(full);
    // Internal objects (`__responses/…`, `__index/…`) journal nothing and are not sessions for the quotas.
    const charge = name.startsWith("__") ? undefined : this.charge;
    return new ScopedSession(session, name, this.keyId, charge, () => noteObject(this.inner, this.prefix, full), this.prefix);
  }

  /** A socket on one of the namespace's sessions (its init carries the caller, see src/sockets/scope.ts). */
  connect(name: string, request: Request, init: SocketInit): Promise<Response> {
    const full = this.prefix + name;
    return withNote(() => noteObject(this.inner, this.prefix, full), () => this.inner.connect(full, request, init));
  }
}

/** A namespace's scenarios, with its scenario-bytes quota checked on upload. */
export class ScopedScenarioStore implements ScenarioStore {
  constructor(
    private readonly inner: ScenarioStore,
    private readonly charge: Charge | undefined,
  ) {}

  get(name: string): Promise<StoredScenario | undefined> {
    return this.inner.get(name);
  }
  list(): Promise<ScenarioSummary[]> {
    return this.inner.list();
  }
  candidates(): Promise<StoredScenario[]> {
    return this.inner.candidates();
  }
  names(): Promise<string[]> {
    return this.inner.names();
  }
  async put(raw: unknown, scenario: Scenario, version: string): Promise<void> {
    await this.charge?.({ scenario: { name: scenario.name, bytes: JSON.stringify(raw).length } });
    return this.inner.put(raw, scenario, version);
  }
  async delete(name: string): Promise<boolean> {
    const removed = await this.inner.delete(name);
    if (removed) await this.charge?.({ scenario: { name, bytes: 0 } });
    return removed;
  }
}

/**
 * The Runtime a namespace's caller gets. `default` callers get `rt` itself (no key, no wrapper, nothing changes).
 * @example const scoped = scopeRuntime(rt, caller); await scoped.sessions.get("weather/run-1").requests()
 */
export function scopeRuntime(rt: Runtime, caller: Caller): Runtime {
  const ns = caller.namespace;
  const q = ns.quotas;
  const charging = (on: boolean): Charge | undefined => (on ? (usage) => charge(rt, caller, usage) : undefined);
  return {
    ...rt,
    sessions: new ScopedSessionStore(rt.sessions, sessionPrefix(ns.space), caller.keyId, charging(q.sessions !== undefined || q.journalBytes !== undefined)),
    scenarios: new ScopedScenarioStore(rt.tenancy!.scenarios(ns.space), charging(q.scenarioBytes !== undefined)),
    caller,
  };
}
