/**
 * The Node runtime's session storages: plain memory, with a change hook (`--persist` writes a changed session out)
 * and a JSON form to persist and restore. The same contracts as the Durable Object's SQLite storages.
 */
import type { SessionState } from "../../scenario/engine";
import { JOURNAL_LIMIT, type JournalDraft, type JournalEntry, type SessionStorage, type Snapshot, type TurnWrite } from "../../session/core";
import { boundJson, joinApart, keptApart, type EntryApart } from "../../session/bound";
import type { RecordedStep } from "../../session/recording";
import type { MemoryMcpData } from "./memory-mcp";
import {
  childKind,
  MAX_CHAIN,
  MAX_KIND_CHARS,
  MAX_STORED_RESPONSES,
  POINTER_TTL_MS,
  type HistorySegment,
  type ResponseHistory,
  type ResponsesStorage,
  type StoredObject,
  type StoredResponseRecord,
} from "../../session/responses";

/** Everything one in-memory session holds, as plain JSON (what `--persist` writes). */
export interface MemorySessionData {
  snapshot?: Snapshot;
  used: number[];
  attempts: Record<string, number>;
  /** Seq of the last journal entry appended (seqs keep counting when old entries are dropped). */
  seq: number;
  journal: JournalEntry[];
  /** Index objects: names noted, oldest first (absent in files persisted before indexes existed). */
  members?: { key: string; at: string }[];
  responses: { record: StoredResponseRecord; created: number }[];
  pointers: { id: string; object: string; created: number }[];
  /** The platform's other objects by kind, oldest first (session/responses.ts `ObjectStorage`); absent until one is stored. */
  objects?: Record<string, (StoredObject & { created: number })[]>;
  /** Recorded upstream answers (session/recording.ts); absent until something is recorded. */
  recording?: RecordedStep[];
  /** The MCP server's state (session/mcp.ts); absent until an MCP request arrives. */
  mcp?: MemoryMcpData;
}

export function emptySessionData(): MemorySessionData {
  return { used: [], attempts: {}, seq: 0, journal: [], responses: [], pointers: [] };
}

export class MemorySessionStorage implements SessionStorage {
  /**
   * The journal, each entry as its JSON text (`boundJson`, as the Worker's SQLite rows keep it), parsed when read. An
   * entry kept as objects was dozens of them a turn (its request's headers and body, the canonical view) that V8's
   * young generation copied and its old generation marked until the journal dropped them; a flat string is one
   * (docs/decisions/performance-history.md, "what a Node turn keeps alive"). An entry whose body came as text keeps
   * the body's text apart from the rest (`keptApart`): the body is the request's own string, not copied into the
   * entry's. The newest `limit` texts are the journal.
   */
  private texts: (string | EntryApart)[];
  /** The journal's bound, as the last append gave it. */
  private limit = JOURNAL_LIMIT;

  /** @param data the session's data; its `journal` is read in here and from then on held by this storage */
  constructor(
    private readonly data: Omit<MemorySessionData, "responses" | "pointers" | "objects" | "recording" | "mcp">,
    private readonly changed: () => void = () => {},
  ) {
    this.texts = data.journal.map((e) => JSON.stringify(e));
    data.journal = [];
  }

  snapshot(): Snapshot | undefined {
    return this.data.snapshot;
  }

  setSnapshot(snapshot: Snapshot): void {
    this.data.snapshot = snapshot;
    this.changed();
  }

  state(): SessionState {
    return { used: this.data.used, attempts: this.data.attempts };
  }

  bumpAttempt(key: string): void {
    this.countAttempt(key);
    this.changed();
  }

  /** One more attempt at `key`, without the change hook (a journal append counts its turn's and then calls it once). */
  private countAttempt(key: string): void {
    this.data.attempts[key] = (this.data.attempts[key] ?? 0) + 1;
  }

  append(entry: JournalDraft, limit: number, turn: TurnWrite = {}): number {
    if (turn.attempt !== undefined) this.countAttempt(turn.attempt);
    if (turn.used !== undefined && !this.data.used.includes(turn.used)) this.data.used.push(turn.used);
    const seq = ++this.data.seq;
    this.limit = limit;
    const numbered = { seq, ...entry } as JournalEntry;
    this.texts.push(turn.bodyJson === undefined ? boundJson(numbered) : keptApart(numbered, turn.bodyJson));
    // The texts beyond the bound are dropped half a bound at a time, not one a turn.
    if (this.texts.length >= 2 * limit) this.texts = this.texts.slice(-limit);
    this.changed();
    return seq;
  }

  /** Entry `i` of the held texts. */
  private entry(i: number): JournalEntry {
    const text = this.texts[i]!;
    return typeof text === "string" ? (JSON.parse(text) as JournalEntry) : joinApart<JournalEntry>(text);
  }

  /** Index of the journal's oldest entry among the held texts. */
  private get first(): number {
    return Math.max(0, this.texts.length - this.limit);
  }

  journal(): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = this.first; i < this.texts.length; i++) out.push(this.entry(i));
    return out;
  }

  *newestFirst(): Iterable<JournalEntry> {
    for (let i = this.texts.length - 1; i >= this.first; i--) yield this.entry(i);
  }

  journalSize(): number {
    return this.texts.length - this.first;
  }

  lastAt(): string | undefined {
    return this.texts.length === 0 ? undefined : this.entry(this.texts.length - 1).at;
  }

  noteMember(key: string, at: string, limit: number): void {
    const members = (this.data.members ?? []).filter((m) => m.key !== key);
    members.push({ key, at });
    this.data.members = members.slice(-limit);
    this.changed();
  }

  members(): { key: string; at: string }[] {
    return (this.data.members ?? []).slice();
  }

  forgetMember(key: string): void {
    const members = this.data.members ?? [];
    if (!members.some((m) => m.key === key)) return;
    this.data.members = members.filter((m) => m.key !== key);
    this.changed();
  }

  clear(): void {
    delete this.data.snapshot;
    this.data.used = [];
    this.data.attempts = {};
    this.data.seq = 0;
    this.texts = [];
    delete this.data.members;
    this.changed();
  }
}

export class MemoryResponsesStorage implements ResponsesStorage {
  // Each map is made on first use: most sessions store no response, and four empty Maps are ~0.8 KB a session.
  private maps?: ResponseMaps;

  private get byId() {
    return (this.maps ??= newMaps()).byId;
  }

  private get itemOwner() {
    return (this.maps ??= newMaps()).itemOwner;
  }

  private get pointers() {
    return (this.maps ??= newMaps()).pointers;
  }

  private get objects() {
    return (this.maps ??= newMaps()).objects;
  }

  constructor(
    saved: Pick<MemorySessionData, "responses" | "pointers" | "objects">,
    private readonly changed: () => void = () => {},
  ) {
    for (const r of saved.responses) this.index(r);
    for (const p of saved.pointers) this.pointers.set(p.id, { object: p.object, created: p.created });
    for (const [kind, list] of Object.entries(saved.objects ?? {})) this.objects.set(kind, new Map(list.map((o) => [o.id, { json: o.json, created: o.created }])));
  }

  /** The JSON form, for `--persist`. */
  dump(): Pick<MemorySessionData, "responses" | "pointers" | "objects"> {
    if (this.maps === undefined) return { responses: [], pointers: [] };
    const objects: Record<string, (StoredObject & { created: number })[]> = {};
    for (const [kind, map] of this.objects) objects[kind] = [...map].map(([id, o]) => ({ id, ...o }));
    return { responses: [...this.byId.values()], pointers: [...this.pointers].map(([id, p]) => ({ id, ...p })), ...(this.objects.size > 0 ? { objects } : {}) };
  }

  putObjects(kind: string, objects: StoredObject[], now: number, max: number): void {
    let map = this.objects.get(kind);
    if (!map) this.objects.set(kind, (map = new Map()));
    for (const o of objects) map.set(o.id, { json: o.json, created: map.get(o.id)?.created ?? now });
    while (map.size > max) this.dropObject(kind, map.keys().next().value!);
    let chars = 0;
    for (const o of map.values()) chars += o.json.length;
    for (const [id, o] of map) {
      if (chars <= MAX_KIND_CHARS || map.size <= 1) break;
      chars -= o.json.length;
      this.dropObject(kind, id);
    }
    this.changed();
  }

  getObject(kind: string, id: string): string | null {
    return this.objects.get(kind)?.get(id)?.json ?? null;
  }

  listObjects(kind: string): StoredObject[] {
    return [...(this.objects.get(kind) ?? [])].map(([id, o]) => ({ id, json: o.json }));
  }

  deleteObject(kind: string, id: string): boolean {
    const known = this.dropObject(kind, id);
    if (known) this.changed();
    return known;
  }

  private dropObject(kind: string, id: string): boolean {
    const map = this.objects.get(kind);
    if (!map?.delete(id)) return false;
    if (map.size === 0) this.objects.delete(kind);
    const children = childKind(kind, id);
    for (const child of [...this.objects.keys()]) if (child === children || child.startsWith(`${children}/`)) this.objects.delete(child);
    return true;
  }

  private index(entry: { record: StoredResponseRecord; created: number }): void {
    this.byId.set(entry.record.id, entry);
    for (const item of entry.record.items) this.itemOwner.set(item.id, entry.record.id);
  }

  private remove(id: string): boolean {
    const entry = this.byId.get(id);
    if (!entry) return false;
    this.byId.delete(id);
    for (const item of entry.record.items) if (this.itemOwner.get(item.id) === id) this.itemOwner.delete(item.id);
    return true;
  }

  save(record: StoredResponseRecord, now: number): void {
    this.remove(record.id);
    this.index({ record, created: now });
    while (this.byId.size > MAX_STORED_RESPONSES) this.remove(this.byId.keys().next().value!);
    this.changed();
  }

  load(id: string): string | null {
    return this.byId.get(id)?.record.response ?? null;
  }

  history(id: string): ResponseHistory {
    const segments: HistorySegment[] = [];
    const seen = new Set<string>();
    let want: string | null = id;
    while (want !== null && !seen.has(want) && seen.size < MAX_CHAIN) {
      seen.add(want);
      const entry = this.byId.get(want);
      if (!entry) return { segments, missing: want };
      segments.unshift({ input: entry.record.input, output: entry.record.items.map((i) => i.json) });
      want = entry.record.previousId;
    }
    return { segments, missing: null };
  }

  items(ids: string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const id of ids) {
      const owner = this.itemOwner.get(id);
      const item = owner === undefined ? undefined : this.byId.get(owner)?.record.items.find((i) => i.id === id);
      if (item) out[id] = item.json;
    }
    return out;
  }

  delete(id: string): boolean {
    const known = this.remove(id);
    if (known) this.changed();
    return known;
  }

  point(id: string, object: string, now: number): void {
    this.pointers.delete(id);
    this.pointers.set(id, { object, created: now });
    for (const [key, p] of this.pointers) {
      if (p.created >= now - POINTER_TTL_MS) break; // insertion order is age order
      this.pointers.delete(key);
    }
    this.changed();
  }

  pointer(id: string, now: number): string | null {
    const p = this.pointers.get(id);
    return p && p.created >= now - POINTER_TTL_MS ? p.object : null;
  }

  forgetPointer(id: string): void {
    if (this.pointers.delete(id)) this.changed();
  }
}

/** What a `MemoryResponsesStorage` indexes. */
interface ResponseMaps {
  /** Response id → record, in storage order (a Map keeps insertion order: the oldest is first). */
  byId: Map<string, { record: StoredResponseRecord; created: number }>;
  /** Output item id → owning response id. */
  itemOwner: Map<string, string>;
  pointers: Map<string, { object: string; created: number }>;
  /** Kind → id → object, each kind's map in storage order. */
  objects: Map<string, Map<string, { json: string; created: number }>>;
}

function newMaps(): ResponseMaps {
  return { byId: new Map(), itemOwner: new Map(), pointers: new Map(), objects: new Map() };
}
