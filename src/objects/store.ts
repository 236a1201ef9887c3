/**
 * Where files and batches live (contract section 11, "Files and batches"): one small key → bytes store per runtime
 * (Node: memory, `MemoryObjectStore` below, or with `--persist` a directory, `hosts/node/object-files.ts`; Workers: an
 * R2 bucket, `hosts/workers/r2-objects.ts`), handed to the routes as `Runtime.objects`. A namespace's runtime sees
 * the store below its own prefix (`scopedObjects`), so another team's key never reaches an object: it gets the real
 * 404. What is kept over it — file records and bytes, batch records — is in `files.ts` and `records.ts`; nothing here
 * knows a provider.
 */

/** An object's name, size and its small metadata (strings; R2 keeps up to 2 KB of it with the object). */
export interface StoredObject {
  key: string;
  size: number;
  meta: Record<string, string>;
}

/** An object with its bytes, read once: as a stream (bounded memory) or whole. */
export interface ObjectBody extends StoredObject {
  stream(): ReadableStream<Uint8Array>;
  text(): Promise<string>;
  bytes(): Promise<Uint8Array>;
}

export interface ObjectStore {
  /** Writes (or replaces) `key`. */
  put(key: string, value: Uint8Array | string, meta?: Record<string, string>): Promise<void>;
  /** The object with its bytes, or null. */
  get(key: string): Promise<ObjectBody | null>;
  /** The object without its bytes, or null. */
  head(key: string): Promise<StoredObject | null>;
  /** Removes the keys (absent ones are ignored). */
  delete(keys: string[]): Promise<void>;
  /** Every object whose key starts with `prefix`, in ascending key order, with its metadata. */
  list(prefix: string): AsyncIterable<StoredObject>;
}

/** An object's small record as its metadata keeps it (JSON under `record`): files', uploads' and containers' records. */
export function recordMeta(record: unknown): Record<string, string> {
  return { record: JSON.stringify(record) };
}

/** The record `recordMeta` kept; undefined when there is none or it no longer parses. */
export function metaRecord<T>(meta: Record<string, string>): T | undefined {
  const raw = meta.record;
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

/** The same store, every key below `prefix` (a namespace's `__ns/{space}/`). */
export function scopedObjects(inner: ObjectStore, prefix: string): ObjectStore {
  const strip = (o: StoredObject): StoredObject => ({ ...o, key: o.key.slice(prefix.length) });
  return {
    put: (key, value, meta) => inner.put(prefix + key, value, meta),
    get: async (key) => {
      const o = await inner.get(prefix + key);
      return o === null ? null : { ...o, key };
    },
    head: async (key) => {
      const o = await inner.head(prefix + key);
      return o === null ? null : strip(o);
    },
    delete: (keys) => inner.delete(keys.map((k) => prefix + k)),
    async *list(p) {
      for await (const o of inner.list(prefix + p)) yield strip(o);
    },
  };
}

/** Deletes every object whose key starts with `prefix` (a deleted namespace's files and batches), 1,000 at a time. */
export async function dropPrefix(store: ObjectStore, prefix: string): Promise<void> {
  let keys: string[] = [];
  for await (const o of store.list(prefix)) {
    keys.push(o.key);
    if (keys.length >= 1000) {
      await store.delete(keys);
      keys = [];
    }
  }
  if (keys.length > 0) await store.delete(keys);
}

const encoder = new TextEncoder();

/** A body over bytes held in memory (the Node store; tests). */
export function bytesBody(key: string, bytes: Uint8Array, meta: Record<string, string>): ObjectBody {
  return {
    key,
    size: bytes.length,
    meta,
    stream: () =>
      new ReadableStream<Uint8Array>({
        start(c) {
          if (bytes.length > 0) c.enqueue(bytes);
          c.close();
        },
      }),
    text: async () => new TextDecoder().decode(bytes),
    bytes: async () => bytes,
  };
}

/**
 * Objects in memory, keys kept sorted on listing. The Node runtime's store (and the unit tests').
 * @example const store = new MemoryObjectStore(); await store.put("a", "x")
 */
export class MemoryObjectStore implements ObjectStore {
  private readonly map = new Map<string, { bytes: Uint8Array; meta: Record<string, string> }>();

  async put(key: string, value: Uint8Array | string, meta: Record<string, string> = {}): Promise<void> {
    this.map.set(key, { bytes: typeof value === "string" ? encoder.encode(value) : value.slice(), meta: { ...meta } });
  }

  async get(key: string): Promise<ObjectBody | null> {
    const o = this.map.get(key);
    return o === undefined ? null : bytesBody(key, o.bytes, { ...o.meta });
  }

  async head(key: string): Promise<StoredObject | null> {
    const o = this.map.get(key);
    return o === undefined ? null : { key, size: o.bytes.length, meta: { ...o.meta } };
  }

  async delete(keys: string[]): Promise<void> {
    for (const k of keys) this.map.delete(k);
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const keys = [...this.map.keys()].filter((k) => k.startsWith(prefix)).sort();
    for (const key of keys) {
      const o = this.map.get(key);
      if (o !== undefined) yield { key, size: o.bytes.length, meta: { ...o.meta } };
    }
  }
}
