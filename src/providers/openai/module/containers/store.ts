/**
 * Code Interpreter containers and their files, kept in the caller's `ObjectStore`: a container is `containers/{id}`
 * (its record in the object's metadata, so a listing reads no bodies), a file `container_files/{container}/{file}` (the
 * bytes, its record in the metadata). A container expires `expires_after.minutes` after it was last active; an
 * expired one keeps its record (`status: "expired"`) and loses its files when next read.
 */
import { timeHex } from "../../../../objects/ids";
import { metaRecord, recordMeta, type ObjectStore } from "../../../../objects/store";

export interface ContainerRecord {
  id: string;
  createdAt: number;
  /** `creationStamp()` at creation: the listing's order. */
  stamp: number;
  /** Unix seconds of the last use (creation, a file added, a Responses turn that ran code in it). */
  lastActiveAt: number;
  minutes: number;
  name: string;
  memoryLimit: string;
  networkPolicy?: unknown;
}

export interface ContainerFileRecord {
  id: string;
  containerId: string;
  createdAt: number;
  /** `creationStamp()` when written: the listing's order. */
  stamp: number;
  bytes: number;
  path: string;
  /** `user` (uploaded or copied from a file) or `assistant` (written by code the model ran). */
  source: "user" | "assistant";
}

/** Most containers a namespace keeps; one more forgets the oldest (with its files). */
export const MAX_CONTAINERS = 1000;
/** Most files one container keeps. */
export const MAX_CONTAINER_FILES = 1000;

const CONTAINERS = "containers/";
const FILES = "container_files/";

const fileKey = (containerId: string, fileId: string) => `${FILES}${containerId}/${fileId}`;

export function containerExpired(r: ContainerRecord, nowSeconds: number): boolean {
  return r.lastActiveAt + r.minutes * 60 <= nowSeconds;
}

/** A new file id as the real ones look: `cfile_`, the Unix seconds in 8 hex, then 24 hex. */
export const newContainerFileId = (): string => timeHex("cfile_", 32);

export class ContainerStore {
  constructor(
    private readonly store: ObjectStore,
    private readonly now: () => number = Date.now,
  ) {}

  private seconds(): number {
    return Math.floor(this.now() / 1000);
  }

  async put(r: ContainerRecord): Promise<void> {
    await this.store.put(CONTAINERS + r.id, "", recordMeta(r));
  }

  /** The container (an expired one's files dropped), or null. */
  async get(id: string): Promise<ContainerRecord | null> {
    const head = await this.store.head(CONTAINERS + id);
    const r = head === null ? undefined : metaRecord<ContainerRecord>(head.meta);
    if (r === undefined) return null;
    if (containerExpired(r, this.seconds())) await this.dropFiles(id);
    return r;
  }

  /** Every container, oldest first. */
  async all(): Promise<ContainerRecord[]> {
    const out: ContainerRecord[] = [];
    for await (const o of this.store.list(CONTAINERS)) {
      const r = metaRecord<ContainerRecord>(o.meta);
      if (r !== undefined) out.push(r);
    }
    return out.sort((a, b) => a.stamp - b.stamp);
  }

  /** Stores a new container, forgetting the oldest when the namespace holds `MAX_CONTAINERS`. */
  async create(r: ContainerRecord): Promise<void> {
    const all = await this.all();
    for (const old of all.slice(0, Math.max(0, all.length - MAX_CONTAINERS + 1))) await this.delete(old.id);
    await this.put(r);
  }

  /** Marks the container active now. */
  async touch(r: ContainerRecord): Promise<ContainerRecord> {
    const touched = { ...r, lastActiveAt: this.seconds() };
    await this.put(touched);
    return touched;
  }

  async delete(id: string): Promise<void> {
    await this.dropFiles(id);
    await this.store.delete([CONTAINERS + id]);
  }

  /** The container's files, oldest first. */
  async files(containerId: string): Promise<ContainerFileRecord[]> {
    const out: ContainerFileRecord[] = [];
    for await (const o of this.store.list(`${FILES}${containerId}/`)) {
      const r = metaRecord<ContainerFileRecord>(o.meta);
      if (r !== undefined) out.push(r);
    }
    return out.sort((a, b) => a.stamp - b.stamp);
  }

  async file(containerId: string, fileId: string): Promise<ContainerFileRecord | null> {
    const head = await this.store.head(fileKey(containerId, fileId));
    return (head === null ? undefined : metaRecord<ContainerFileRecord>(head.meta)) ?? null;
  }

  async fileBytes(containerId: string, fileId: string): Promise<ReadableStream<Uint8Array> | null> {
    const o = await this.store.get(fileKey(containerId, fileId));
    return o === null ? null : o.stream();
  }

  /** Writes (or replaces) a file; the oldest file goes when the container holds `MAX_CONTAINER_FILES`. */
  async putFile(r: ContainerFileRecord, bytes: Uint8Array): Promise<void> {
    if ((await this.file(r.containerId, r.id)) === null) {
      const all = await this.files(r.containerId);
      const over = all.slice(0, Math.max(0, all.length - MAX_CONTAINER_FILES + 1));
      if (over.length > 0) await this.store.delete(over.map((f) => fileKey(r.containerId, f.id)));
    }
    await this.store.put(fileKey(r.containerId, r.id), bytes, recordMeta(r));
  }

  async deleteFile(containerId: string, fileId: string): Promise<void> {
    await this.store.delete([fileKey(containerId, fileId)]);
  }

  private async dropFiles(containerId: string): Promise<void> {
    const keys = (await this.files(containerId)).map((f) => fileKey(containerId, f.id));
    if (keys.length > 0) await this.store.delete(keys);
  }
}
