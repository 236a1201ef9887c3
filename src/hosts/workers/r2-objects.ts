/**
 * The Worker's `ObjectStore` (src/objects/store.ts): an R2 bucket (binding `FILES`; Miniflare's R2 locally). Reads
 * after writes and listings are strongly consistent in R2, which is what a batch polled right after its upload needs.
 */
import type { ObjectBody, ObjectStore, StoredObject } from "../../objects/store";

function stored(o: R2Object): StoredObject {
  return { key: o.key, size: o.size, meta: o.customMetadata ?? {} };
}

export class R2ObjectStore implements ObjectStore {
  constructor(private readonly bucket: R2Bucket) {}

  async put(key: string, value: Uint8Array | string, meta: Record<string, string> = {}): Promise<void> {
    await this.bucket.put(key, value, { customMetadata: meta });
  }

  async get(key: string): Promise<ObjectBody | null> {
    const o = await this.bucket.get(key);
    if (o === null) return null;
    return { ...stored(o), stream: () => o.body, text: () => o.text(), bytes: async () => new Uint8Array(await o.arrayBuffer()) };
  }

  async head(key: string): Promise<StoredObject | null> {
    const o = await this.bucket.head(key);
    return o === null ? null : stored(o);
  }

  async delete(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) await this.bucket.delete(keys.slice(i, i + 1000));
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    let cursor: string | undefined;
    do {
      const page = await this.bucket.list({ prefix, include: ["customMetadata"], ...(cursor !== undefined ? { cursor } : {}) });
      for (const o of page.objects) yield stored(o);
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor !== undefined);
  }
}
