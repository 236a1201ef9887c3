/**
 * `--persist DIR`'s object store: what the routes keep over `Runtime.objects` (src/objects/store.ts) — files and their
 * parts, uploads, batches, vector stores, containers, skills, fine-tuning jobs, eval runs, Gemini files and caches —
 * kept in `DIR/objects`, as the Worker keeps them in R2. Each object is two files named by its key's SHA-256:
 * `{hash}.bin` (its bytes) and `{hash}.json` (its key, size and metadata), each written to a temporary file and renamed,
 * the bytes first, so a `.json` always names whole bytes. Writes reach the disk before `put` resolves (nothing waits for
 * the exit). Keys, sizes and metadata are held in memory, so `head` and `list` touch no disk; bytes are read on `get`:
 * at once up to INLINE_BYTES, streamed from the file beyond, so memory stays bounded by the object as in R2.
 */
import { createHash } from "node:crypto";
import { createReadStream, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { bytesBody, type ObjectBody, type ObjectStore, type StoredObject } from "../../objects/store";
import { isStringRecord } from "./persist";

/** Objects up to this size are read whole on `get`; larger ones are opened when their body is read. */
const INLINE_BYTES = 1024 * 1024;

const encoder = new TextEncoder();

interface Entry {
  size: number;
  meta: Record<string, string>;
}

/** The file name an object's two files share: its key's SHA-256 (any key, any length, one flat directory). */
function fileStem(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

let tmpCounter = 0;

async function writeAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = `${path}.${process.pid}.${++tmpCounter}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

function notFound(e: unknown): boolean {
  return (e as NodeJS.ErrnoException).code === "ENOENT";
}

/**
 * Objects in a directory. `restore` reads what an earlier run left (`--persist`); without it (`--keep-on-exit`) the
 * store starts empty and only writes. A record that no longer reads (its JSON, or bytes of another size) is reported
 * and skipped; leftovers of an interrupted write (a temporary file, bytes without their record) are removed.
 * @example const store = new FileObjectStore(join(dir, "objects"), { restore: true, report: console.error })
 */
export class FileObjectStore implements ObjectStore {
  private readonly index = new Map<string, Entry>();
  /** The write (or delete) in progress per key: one key's writes run in order, so its two files stay a pair. */
  private readonly writing = new Map<string, Promise<void>>();

  constructor(
    private readonly dir: string,
    opts: { restore: boolean; report: (message: string) => void },
  ) {
    mkdirSync(dir, { recursive: true });
    if (opts.restore) this.restore(opts.report);
  }

  private restore(report: (message: string) => void): void {
    const files = readdirSync(this.dir);
    for (const file of files) {
      if (!file.endsWith(".json")) continue;
      const path = join(this.dir, file);
      const stem = file.slice(0, -".json".length);
      try {
        const record = JSON.parse(readFileSync(path, "utf8")) as { key?: unknown; size?: unknown; meta?: unknown };
        const { key, size, meta } = record;
        if (typeof key !== "string" || typeof size !== "number" || !isStringRecord(meta)) throw new Error("not an object record (key, size, meta)");
        if (fileStem(key) !== stem) throw new Error(`its key "${key.slice(0, 80)}" is not the one its name hashes`);
        const actual = statSync(join(this.dir, `${stem}.bin`)).size;
        if (actual !== size) throw new Error(`its bytes are ${actual}, its record says ${size}`);
        this.index.set(key, { size, meta });
      } catch (e) {
        report(`mockllm: skipped ${path}: ${(e as Error).message}`);
      }
    }
    const present = new Set(files);
    for (const file of files) {
      const leftover = file.endsWith(".tmp") || (file.endsWith(".bin") && !present.has(`${file.slice(0, -".bin".length)}.json`));
      if (leftover) rmSync(join(this.dir, file), { force: true });
    }
  }

  /** Runs `task` after the key's earlier writes; the index changes only once the disk has. */
  private inOrder(key: string, task: () => Promise<void>): Promise<void> {
    const before = this.writing.get(key) ?? Promise.resolve();
    const run = before.then(task, task);
    const tail = run.catch(() => {});
    this.writing.set(key, tail);
    void tail.then(() => {
      if (this.writing.get(key) === tail) this.writing.delete(key);
    });
    return run;
  }

  put(key: string, value: Uint8Array | string, meta: Record<string, string> = {}): Promise<void> {
    const bytes = typeof value === "string" ? encoder.encode(value) : value.slice();
    const entry: Entry = { size: bytes.length, meta: { ...meta } };
    const stem = join(this.dir, fileStem(key));
    return this.inOrder(key, async () => {
      await writeAtomic(`${stem}.bin`, bytes);
      await writeAtomic(`${stem}.json`, JSON.stringify({ key, ...entry }));
      this.index.set(key, entry);
    });
  }

  async get(key: string): Promise<ObjectBody | null> {
    const entry = this.index.get(key);
    if (entry === undefined) return null;
    const path = join(this.dir, `${fileStem(key)}.bin`);
    const meta = { ...entry.meta };
    if (entry.size <= INLINE_BYTES) {
      try {
        return bytesBody(key, new Uint8Array(await readFile(path)), meta);
      } catch (e) {
        if (notFound(e)) return null; // deleted meanwhile
        throw e;
      }
    }
    const whole = async () => new Uint8Array(await readFile(path));
    return {
      key,
      size: entry.size,
      meta,
      stream: () => Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>,
      text: async () => new TextDecoder().decode(await whole()),
      bytes: whole,
    };
  }

  async head(key: string): Promise<StoredObject | null> {
    const entry = this.index.get(key);
    return entry === undefined ? null : { key, size: entry.size, meta: { ...entry.meta } };
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        this.inOrder(key, async () => {
          if (!this.index.has(key)) return;
          this.index.delete(key);
          const stem = join(this.dir, fileStem(key));
          await rm(`${stem}.json`, { force: true }); // the record first: bytes left alone name nothing
          await rm(`${stem}.bin`, { force: true });
        }),
      ),
    );
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const keys = [...this.index.keys()].filter((k) => k.startsWith(prefix)).sort();
    for (const key of keys) {
      const entry = this.index.get(key);
      if (entry !== undefined) yield { key, size: entry.size, meta: { ...entry.meta } };
    }
  }
}
