/**
 * Uploads in parts (OpenAI's `/v1/uploads`), provider-neutral: an upload's record (`uploads/{id}`, the record in its
 * metadata) and its parts (`uploads/{id}/parts/{partId}`, the bytes as sent), kept in the caller's `ObjectStore`
 * beside its files. Completing one makes a file of the parts named, in that order, without copying them
 * (`FileStore.assemble`): the parts become the file's and go with it. A pending upload past its expiry reads as
 * `expired`, and its parts are dropped when it is next read; a cancelled one's are dropped at once.
 */
import { metaRecord, recordMeta, type ObjectStore } from "./store";

export type UploadStatus = "pending" | "completed" | "cancelled" | "expired";

export interface UploadRecord {
  id: string;
  filename: string;
  purpose: string;
  /** The bytes the client said the file holds: the parts named at completion must add up to them. */
  bytes: number;
  mimeType: string;
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds: a pending upload expires then. */
  expiresAt: number;
  status: UploadStatus;
  /** When the file it becomes expires, in seconds after that file's creation (`expires_after`); absent: the purpose's default. */
  fileExpiresAfter?: number;
  /** The file it became (`completed`). */
  fileId?: string;
}

/** A part's name and size. */
export interface UploadPart {
  id: string;
  bytes: number;
}

const UPLOADS = "uploads/";
const PARTS = "/parts/";

/** Where a part's bytes are kept (what an assembled file names). */
export function uploadPartKey(uploadId: string, partId: string): string {
  return UPLOADS + uploadId + PARTS + partId;
}

const fromMeta = (meta: Record<string, string>) => metaRecord<UploadRecord>(meta);

export class UploadStore {
  constructor(
    private readonly store: ObjectStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Writes the record (a new upload, or one whose status changed). */
  async put(record: UploadRecord): Promise<void> {
    await this.store.put(UPLOADS + record.id, "", recordMeta(record));
  }

  /** The upload, its status as of now (pending past its expiry: `expired`, its parts dropped); null when there is none. */
  async get(id: string): Promise<UploadRecord | null> {
    const head = await this.store.head(UPLOADS + id);
    const r = head === null ? undefined : fromMeta(head.meta);
    if (r === undefined) return null;
    if (r.status === "pending" && r.expiresAt <= Math.floor(this.now() / 1000)) {
      r.status = "expired";
      await this.put(r);
      await this.dropParts(id);
    }
    return r;
  }

  async addPart(uploadId: string, partId: string, bytes: Uint8Array): Promise<void> {
    await this.store.put(uploadPartKey(uploadId, partId), bytes);
  }

  /** The upload's parts, in id order. */
  async parts(uploadId: string): Promise<UploadPart[]> {
    const prefix = UPLOADS + uploadId + PARTS;
    const out: UploadPart[] = [];
    for await (const o of this.store.list(prefix)) out.push({ id: o.key.slice(prefix.length), bytes: o.size });
    return out;
  }

  /** A part's bytes, or null. */
  async partBytes(uploadId: string, partId: string): Promise<Uint8Array | null> {
    const o = await this.store.get(uploadPartKey(uploadId, partId));
    return o === null ? null : o.bytes();
  }

  /** Deletes the upload's parts but those in `keep`. */
  async dropParts(uploadId: string, keep: ReadonlySet<string> = new Set()): Promise<void> {
    const gone = (await this.parts(uploadId)).filter((p) => !keep.has(p.id)).map((p) => uploadPartKey(uploadId, p.id));
    if (gone.length > 0) await this.store.delete(gone);
  }

  /**
   * The bytes pending uploads' parts hold (what a namespace's `fileBytes` quota counts beside its files); a completed
   * upload's parts are its file's, counted there.
   */
  async pendingBytes(): Promise<number> {
    const now = Math.floor(this.now() / 1000);
    const pending = new Set<string>();
    const sizes = new Map<string, number>();
    for await (const o of this.store.list(UPLOADS)) {
      const rest = o.key.slice(UPLOADS.length);
      const at = rest.indexOf(PARTS);
      if (at < 0) {
        const r = fromMeta(o.meta);
        if (r?.status === "pending" && r.expiresAt > now) pending.add(rest);
      } else {
        const id = rest.slice(0, at);
        sizes.set(id, (sizes.get(id) ?? 0) + o.size);
      }
    }
    let total = 0;
    for (const [id, size] of sizes) if (pending.has(id)) total += size;
    return total;
  }
}
