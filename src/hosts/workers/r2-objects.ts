/**
 * The Worker's `ObjectStore` (src/objects/store.ts): an R2 bucket (binding `FILES`; Miniflare's R2 locally). Reads
 * after writes and listings are strongly consistent in R2, which is what a batch polled right after its upload needs.
 */
import type { ObjectBody, ObjectStore, StoredObject } from "../../objects/store";

/** R2's longest key, in UTF-8 bytes: the bucket refuses a longer one with an error, where no object by it can exist. */
const MAX_KEY_BYTES = 1024;

/**
 * Whether R2 can name `key`. A key is a client's id below a fixed prefix (`files/{id}`, `batches/{id}`), and an id
 * is whatever the client sent: one past the limit names no object, as an unknown id names none (the route's 404).
 */
function nameable(key: string): boolean {
  return key.length * 3 <= MAX_KEY_BYTES || new TextEncoder().encode(key).byteLength <= MAX_KEY_BYTES;
}

function stored(o: R2Object): StoredObject {
  return { key: o.key, size: o.size, meta: o.customMetadata ?? {} };
}

export class R2ObjectStore implements ObjectStore {
  constructor(private readonly bucket: R2Bucket) {}

  async put(key: string, value: Uint8Array | string, meta: Record<string, string> = {}): Promise<void> {
    // Written keys are minted here (a record's own id), never taken from a request: past the limit is a bug.
    if (!nameable(key)) throw new Error(`mockllm: object key over R2's ${MAX_KEY_BYTES} bytes: ${key.slice(0, 80)}…`);
    await this.bucket.put(key, value, { customMetadata: meta });
  }

  async get(key: string): Promise<ObjectBody | null> {
    if (!nameable(key)) return null;
    const o = await this.bucket.get(key);
    if (o === null) return null;
    return { ...stored(o), stream: () => o.body, text: () => o.text(), bytes: async () => new Uint8Array(await o.arrayBuffer()) };
  }

  async head(key: string): Promise<StoredObject | null> {
    if (!nameable(key)) return null;
    const o = await this.bucket.head(key);
    return o === null ? null : stored(o);
  }

  async delete(keys: string[]): Promise<void> {
    keys = keys.filter(nameable);
    for (let i = 0; i < keys.length; i += 1000) await this.bucket.delete(keys.slice(i, i + 1000));
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    if (!nameable(prefix)) return;
    let cursor: string | undefined;
    do {
      const page = await this.bucket.list({ prefix, include: ["customMetadata"], ...(cursor !== undefined ? { cursor } : {}) });
      for (const o of page.objects) yield stored(o);
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor !== undefined);
  }
}
