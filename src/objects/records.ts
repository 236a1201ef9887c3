/**
 * Small JSON records kept in an `ObjectStore` under one prefix (`batches/`): a batch's state between the requests
 * that create, poll and cancel it. Ids from `sortableId` list oldest first.
 */
import type { ObjectStore } from "./store";

export class RecordStore<T> {
  constructor(
    private readonly store: ObjectStore,
    private readonly prefix: string,
  ) {}

  async put(id: string, record: T): Promise<void> {
    await this.store.put(this.prefix + id, JSON.stringify(record));
  }

  async get(id: string): Promise<T | null> {
    const o = await this.store.get(this.prefix + id);
    if (o === null) return null;
    try {
      return JSON.parse(await o.text()) as T;
    } catch {
      return null;
    }
  }

  async delete(id: string): Promise<void> {
    await this.store.delete([this.prefix + id]);
  }

  /** The ids, oldest first. */
  async ids(): Promise<string[]> {
    const out: string[] = [];
    for await (const o of this.store.list(this.prefix)) out.push(o.key.slice(this.prefix.length));
    return out;
  }

  /**
   * A page of records, newest first (as the batch listings answer), after the id `after`, at most `limit`.
   * @example await batches.page({ limit: 20 })
   */
  async page(opts: { after?: string; limit: number }): Promise<{ data: T[]; hasMore: boolean }> {
    const ids = (await this.ids()).reverse();
    let start = 0;
    if (opts.after !== undefined) {
      const at = ids.indexOf(opts.after);
      start = at < 0 ? ids.length : at + 1;
    }
    const chosen = ids.slice(start, start + opts.limit);
    const data = (await Promise.all(chosen.map((id) => this.get(id)))).filter((r): r is Awaited<T> => r !== null) as T[];
    return { data, hasMore: start + opts.limit < ids.length };
  }
}

/**
 * One processing at a time per key in this isolate: a caller that finds the key busy gets `busy()` — the object as
 * stored, still showing the state the running call has not written yet (a batch polled twice at once runs its lines
 * once). Only plain data sits at module scope: a pending promise of one request is never awaited by another, which
 * workerd refuses (or never resolves once the first request has ended).
 */
const running = new Set<string>();

export async function exclusive<T>(key: string, work: () => Promise<T>, busy: () => Promise<T>): Promise<T> {
  if (running.has(key)) return busy();
  running.add(key);
  try {
    return await work();
  } finally {
    running.delete(key);
  }
}
