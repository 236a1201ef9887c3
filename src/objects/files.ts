/**
 * Files, provider-neutral (contract section 11): a record (id, name, purpose, size, times) and exact bytes, kept in an
 * `ObjectStore` (store.ts). Uploaded files are one object, `files/{id}`: the bytes with the record as its metadata.
 * Files mockllm writes (a batch's output and error files) are written in parts of at most `PART_BYTES`
 * (`parts/{id}/{n}`), so a 10,000-line batch never holds its output in memory; their record says how many parts.
 *
 * The interface later features build on (vector stores, Anthropic's and Gemini's Files APIs): `FileStore` —
 * `create`, `writer` (a file written piece by piece), `assemble` (a file made of objects already stored: an upload's
 * parts), `get` (the record; an expired file is gone), `open` (the bytes as one stream, parts joined), `lines` (the
 * bytes as text lines, streamed), `list`, `delete`. The record's fields are neutral; each provider renders its own
 * shape from it.
 */
import { restPath } from "../http/url";
import { metaRecord, recordMeta, type ObjectStore } from "./store";

export interface FileRecord {
  id: string;
  filename: string;
  /** The provider's purpose (`batch`, `user_data`, `batch_output`, …). */
  purpose: string;
  bytes: number;
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds; absent: kept until deleted. */
  expiresAt?: number;
  /** The media type it was uploaded with. */
  mimeType: string;
  /** Written in this many parts (`parts/{id}/{n}`); absent: the bytes are the record's own object. */
  parts?: number;
  /** The bytes' SHA-256, base64, for a provider whose file object shows it (Gemini's `sha256Hash`). */
  sha256?: string;
  /**
   * Assembled from this many objects written before the file existed (an OpenAI upload's parts): the file's own
   * object holds their keys, in order, as a JSON array; their bytes joined are the file's.
   */
  assembled?: number;
}

/** Largest part of a written file (bytes): what a writer holds at most. */
export const PART_BYTES = 1024 * 1024;

const FILES = "files/";
const PARTS = "parts/";
const encoder = new TextEncoder();

function partKey(id: string, n: number): string {
  return `${PARTS}${id}/${String(n).padStart(6, "0")}`;
}

const fromMeta = (meta: Record<string, string>) => metaRecord<FileRecord>(meta);

function expired(r: FileRecord, now: number): boolean {
  return r.expiresAt !== undefined && r.expiresAt <= Math.floor(now / 1000);
}

/** Where a file being written stands between requests (`FileWriter.checkpoint`, `FileStore.writer(record, state)`). */
export interface WriterState {
  parts: number;
  bytes: number;
}

/**
 * A file written piece by piece, in parts of at most `PART_BYTES`: `write` text, then `close` once. A writer can stop
 * at a `checkpoint` and a later request go on from it (a batch run a slice of lines per read).
 */
export class FileWriter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private parts = 0;
  private total = 0;

  constructor(
    private readonly store: ObjectStore,
    readonly record: Omit<FileRecord, "bytes" | "parts">,
    state?: WriterState,
  ) {
    if (state) {
      this.parts = state.parts;
      this.total = state.bytes;
    }
  }

  /** Writes what is pending as a part and answers where the file stands; the file does not exist yet. */
  async checkpoint(): Promise<WriterState> {
    await this.flush();
    return { parts: this.parts, bytes: this.total };
  }

  get id(): string {
    return this.record.id;
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.total;
  }

  async write(text: string): Promise<void> {
    const bytes = encoder.encode(text);
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.total += bytes.length;
    if (this.pendingBytes >= PART_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const joined = new Uint8Array(this.pendingBytes);
    let at = 0;
    for (const p of this.pending) {
      joined.set(p, at);
      at += p.length;
    }
    this.pending = [];
    this.pendingBytes = 0;
    await this.store.put(partKey(this.record.id, this.parts++), joined);
  }

  /** Writes what is pending and the record: the file exists from here. */
  async close(): Promise<FileRecord> {
    await this.flush();
    const record: FileRecord = { ...this.record, bytes: this.total, parts: this.parts };
    await this.store.put(FILES + record.id, "", recordMeta(record));
    return record;
  }
}

/** A listing's page, in the order asked. */
export interface FilePage {
  data: FileRecord[];
  hasMore: boolean;
}

export class FileStore {
  constructor(
    private readonly store: ObjectStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores an uploaded file whole. */
  async create(record: FileRecord, bytes: Uint8Array): Promise<FileRecord> {
    const r = { ...record, bytes: bytes.length };
    delete r.parts;
    await this.store.put(FILES + r.id, bytes, recordMeta(r));
    return r;
  }

  /**
   * A file whose bytes are the objects `keys` joined in order (stored already, in this store): nothing is copied; the
   * objects become the file's, deleted with it.
   */
  async assemble(record: Omit<FileRecord, "parts" | "assembled">, keys: string[]): Promise<FileRecord> {
    const r: FileRecord = { ...record, assembled: keys.length };
    await this.store.put(FILES + r.id, JSON.stringify(keys), recordMeta(r));
    return r;
  }

  /** A file mockllm writes itself, in parts; `state` goes on from a checkpoint. */
  writer(record: Omit<FileRecord, "bytes" | "parts">, state?: WriterState): FileWriter {
    return new FileWriter(this.store, record, state);
  }

  /** The file's record; null when there is none or it expired (an expired file is deleted then). */
  async get(id: string): Promise<FileRecord | null> {
    const head = await this.store.head(FILES + id);
    const r = head === null ? undefined : fromMeta(head.meta);
    if (r === undefined) return null;
    if (expired(r, this.now())) {
      await this.delete(id);
      return null;
    }
    return r;
  }

  /** The file's bytes as one stream (its parts joined, one part in memory at a time), or null. */
  async open(id: string): Promise<{ record: FileRecord; body: ReadableStream<Uint8Array> } | null> {
    const record = await this.get(id);
    if (record === null) return null;
    let keys: string[];
    if (record.parts !== undefined) keys = Array.from({ length: record.parts }, (_, n) => partKey(id, n));
    else if (record.assembled !== undefined) keys = await this.pieceKeys(id);
    else {
      const o = await this.store.get(FILES + id);
      return o === null ? null : { record, body: o.stream() };
    }
    const store = this.store;
    let n = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (n >= keys.length) return c.close();
        const part = await store.get(keys[n++]!);
        if (part !== null) c.enqueue(await part.bytes());
      },
    });
    return { record, body };
  }

  /** The keys an assembled file is made of (its own object's JSON); none when that no longer parses. */
  private async pieceKeys(id: string): Promise<string[]> {
    const o = await this.store.get(FILES + id);
    if (o === null) return [];
    try {
      const keys: unknown = JSON.parse(await o.text());
      return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === "string") : [];
    } catch {
      return [];
    }
  }

  /** The file's text, line by line (without the line break), streamed. */
  async *lines(id: string): AsyncIterable<string> {
    const opened = await this.open(id);
    if (opened === null) return;
    const decoder = new TextDecoder();
    const reader = opened.body.getReader();
    let carry = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      carry += decoder.decode(value, { stream: true });
      let nl = carry.indexOf("\n");
      while (nl >= 0) {
        yield carry.slice(0, nl).replace(/\r$/, "");
        carry = carry.slice(nl + 1);
        nl = carry.indexOf("\n");
      }
    }
    carry += decoder.decode();
    if (carry !== "") yield carry.replace(/\r$/, "");
  }

  /**
   * Files in creation order (`desc`: newest first), after the id `after`, at most `limit`, those of `purpose` only
   * when given. Expired files are left out.
   */
  async list(opts: { order?: "asc" | "desc"; after?: string; limit: number; purpose?: string }): Promise<FilePage> {
    const now = this.now();
    const all: FileRecord[] = [];
    for await (const o of this.store.list(FILES)) {
      const r = fromMeta(o.meta);
      if (r === undefined || expired(r, now)) continue;
      if (opts.purpose !== undefined && r.purpose !== opts.purpose) continue;
      all.push(r);
    }
    all.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (opts.order !== "asc") all.reverse();
    let start = 0;
    if (opts.after !== undefined) {
      const at = all.findIndex((r) => r.id === opts.after);
      start = at < 0 ? all.length : at + 1;
    }
    const data = all.slice(start, start + opts.limit);
    return { data, hasMore: start + opts.limit < all.length };
  }

  /** How many files there are (expired ones too, until a read drops them) and their bytes: what file quotas count. */
  async usage(): Promise<{ files: number; bytes: number }> {
    let files = 0;
    let bytes = 0;
    for await (const o of this.store.list(FILES)) {
      const r = fromMeta(o.meta);
      if (r === undefined) continue;
      files++;
      bytes += r.bytes;
    }
    return { files, bytes };
  }

  /** Deletes the file and its parts; false when there was none. */
  async delete(id: string): Promise<boolean> {
    const head = await this.store.head(FILES + id);
    if (head === null) return false;
    const r = fromMeta(head.meta);
    const keys = [FILES + id];
    for (let n = 0; n < (r?.parts ?? 0); n++) keys.push(partKey(id, n));
    if (r?.assembled !== undefined) keys.push(...(await this.pieceKeys(id)));
    await this.store.delete(keys);
    return true;
  }
}

/** Where the Files API answers (OpenAI's and Anthropic's share it; headers tell them apart). */
export const FILES_PATHS = ["/v1/files", "/files"];

/**
 * A Files API path → the file's id (if any) and whether `/content` was asked; undefined when the path is not one.
 * @example filesRoute("/v1/files/file-abc/content") // { id: "file-abc", content: true }
 */
export function filesRoute(path: string): { id?: string; action?: "content" } | undefined {
  return restPath(FILES_PATHS, FILE_ACTIONS, path);
}

const FILE_ACTIONS = ["content"] as const;
