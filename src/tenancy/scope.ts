/**
 * The namespace-scoped Runtime. The router resolves the caller first (gate.ts) and hands every handler
 * `scopeRuntime(rt, caller)`: its `sessions` name every session inside the namespace (`__ns/{space}/{name}`), its
 * `scenarios` are the namespace's own uploads over the bundled defaults (read-only). Routes reach all state through
 * these two stores, so every route — including ones added later — is isolated without knowing about namespaces.
 * The session store is a mapping of names; each session it hands out is mapped by kind of member
 * (session/members.ts), so a member added to `Session` needs nothing here.
 */
import type { Runtime } from "../runtime/types";
import type { Scenario } from "../scenario/schema";
import type { ScenarioStore, ScenarioSummary, StoredScenario } from "../scenario/store";
import { sessionPrefix } from "../session/caller";
import { call, sessionByKind, type ByKind, type JournalInput, type JournalMember, type ReadMember } from "../session/members";
import type { Awaitable, Session, SessionStore } from "../session/types";
import type { SocketInit } from "../session/socket";
import { charge } from "./quota";
import { scopedObjects } from "../objects/store";
import type { Caller, Usage } from "./types";
import { isThenable } from "../util/awaitable";

export { sessionPrefix };

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
  if (isThenable(done)) return done.then(mark);
  mark();
}

/** Runs `call` and notes the object in its directory at the same time (a write creates the object). */
async function withNote<T>(note: () => Awaitable<void>, call: () => Awaitable<T>): Promise<T> {
  const [, out] = await Promise.all([note(), call()]);
  return out;
}

/**
 * A session of a namespace, mapped by kind of member (session/members.ts): a journaled request carries the caller
 * on its input (the session journals its key id and scopes the answers' ids with it) and, with session or journal
 * quotas, is charged here first — the one place a request is charged; every write notes the object in the
 * namespace's directory; reads go straight through. (A class: nothing is allocated per member.)
 */
class ScopedMembers implements ByKind {
  constructor(
    private readonly store: ScopedSessionStore,
    private readonly inner: Session,
    /** The name inside the namespace (`{scenario}/{session}`): what the sessions quota counts. */
    private readonly name: string,
    /** The name in the inner store. */
    private readonly full: string,
  ) {}

  read(member: ReadMember, args: unknown[]): unknown {
    return call(this.inner, member, args);
  }

  write(member: keyof Session, args: unknown[]): Promise<unknown> {
    return withNote(
      () => noteObject(this.store.inner, this.store.prefix, this.full),
      () => call(this.inner, member, args),
    );
  }

  async journal(member: JournalMember, input: JournalInput): Promise<unknown> {
    // Internal objects (`__responses/…`, `__index/…`) journal nothing and are not sessions for the quotas.
    const charge = this.name.startsWith("__") ? undefined : this.store.charge;
    // The retry with the document is the same request (or message): charged once.
    const retry = "document" in input && input.document !== undefined;
    if (charge && !retry) await charge({ session: this.name, journalBytes: journalBytes(input) });
    return this.write(member, [{ ...input, caller: this.store.caller }]);
  }
}

const BODY_KEY = `,"body":`;

/**
 * What the journal quota charges a request: its wire as JSON, body included. A turn whose body crosses as its text
 * (`NextInput.wireText`, the wire's `body` left undefined, so absent from its JSON) is charged that text where the
 * body's JSON would be — the wire's last member, so the same figure for a body sent compact, as the SDKs send it.
 * @example journalBytes({ wire: { method: "POST", path: "/v1/chat/completions", headers: {}, body: undefined }, wireText: "{}" })
 */
export function journalBytes(input: JournalInput): number {
  const text = "wireText" in input ? input.wireText : undefined;
  const wire = JSON.stringify(input.wire).length;
  return typeof text === "string" ? wire + BODY_KEY.length + text.length : wire;
}

/** A namespace's sessions: the same store, every name inside the namespace's prefix. */
export class ScopedSessionStore implements SessionStore {
  constructor(
    readonly inner: SessionStore,
    readonly prefix: string,
    readonly caller: Caller,
    readonly charge: Charge | undefined,
  ) {}

  /** As the inner store: the journal quota charges a body sent as text by that text (`journalBytes`). */
  get sendsBodyText(): boolean {
    return this.inner.sendsBodyText === true;
  }

  get(name: string): Session {
    const full = this.prefix + name;
    return sessionByKind(new ScopedMembers(this, this.inner.get(full), name, full));
  }

  /** A socket on one of the namespace's sessions (its init carries the caller, see src/sockets/scope.ts). */
  connect(name: string, request: Request, init: SocketInit): Promise<Response> {
    const full = this.prefix + name;
    return withNote(
      () => noteObject(this.inner, this.prefix, full),
      () => this.inner.connect(full, request, init),
    );
  }
}

/** A namespace's scenarios, with its scenario-bytes quota checked on upload. */
export class ScopedScenarioStore implements ScenarioStore {
  constructor(
    private readonly inner: ScenarioStore,
    private readonly charge: Charge | undefined,
  ) {}

  get(name: string): Awaitable<StoredScenario | undefined> {
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
    sessions: new ScopedSessionStore(rt.sessions, sessionPrefix(ns.space), caller, charging(q.sessions !== undefined || q.journalBytes !== undefined)),
    scenarios: new ScopedScenarioStore(rt.tenancy!.scenarios(ns.space), charging(q.scenarioBytes !== undefined)),
    ...(rt.objects ? { objects: scopedObjects(rt.objects, sessionPrefix(ns.space)) } : {}),
    caller,
  };
}
