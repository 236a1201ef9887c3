// `--persist`'s object store (src/hosts/node/object-files.ts) beside the memory one it stands in for: the same
// ObjectStore behaviour (exact bytes, metadata, replace, sorted prefix listing, delete), then what only a directory
// has — a second store over it reads what the first wrote, large objects are streamed from their file, a damaged
// record is reported and skipped, an interrupted write's leftovers are removed, one key's writes stay a pair.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileObjectStore } from "../../src/hosts/node/object-files";
import { FileStore } from "../../src/objects/files";
import { MemoryObjectStore, type ObjectStore } from "../../src/objects/store";

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mockllm-objects-"));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function keys(store: ObjectStore, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const o of store.list(prefix)) out.push(`${o.key}:${o.size}`);
  return out;
}

const stores: [string, () => Promise<ObjectStore>][] = [
  ["memory", async () => new MemoryObjectStore()],
  ["files", async () => new FileObjectStore(await tempDir(), { restore: true, report: (m) => expect.fail(m) })],
];

describe.each(stores)("ObjectStore (%s)", (_name, make) => {
  it("keeps exact bytes and metadata; text, bytes and stream read the same", async () => {
    const store = await make();
    const bytes = new Uint8Array([0, 255, 10, 13, 1]);
    await store.put("files/a", bytes, { record: '{"id":"a"}' });
    bytes[0] = 9; // the caller's buffer changed after the put: the stored bytes do not
    const o = await store.get("files/a");
    expect(o).toMatchObject({ key: "files/a", size: 5, meta: { record: '{"id":"a"}' } });
    expect([...(await o!.bytes())]).toStrictEqual([0, 255, 10, 13, 1]);
    expect([...new Uint8Array(await new Response((await store.get("files/a"))!.stream()).arrayBuffer())]).toStrictEqual([0, 255, 10, 13, 1]);
    await store.put("t", "héllo");
    expect(await (await store.get("t"))!.text()).toBe("héllo");
    expect(await store.head("t")).toStrictEqual({ key: "t", size: 6, meta: {} });
    expect(await store.get("missing")).toBeNull();
    expect(await store.head("missing")).toBeNull();
  });

  it("replaces, lists a prefix in key order, deletes (absent keys ignored)", async () => {
    const store = await make();
    for (const k of ["b/2", "a/1", "b/10", "b/1", "c"]) await store.put(k, k);
    await store.put("b/2", "longer value", { v: "2" });
    expect(await keys(store, "b/")).toStrictEqual(["b/1:3", "b/10:4", "b/2:12"]);
    expect((await store.head("b/2"))!.meta).toStrictEqual({ v: "2" });
    await store.delete(["b/1", "nope", "c"]);
    expect(await keys(store)).toStrictEqual(["a/1:3", "b/10:4", "b/2:12"]);
    expect(await store.get("b/1")).toBeNull();
  });
});

describe("FileObjectStore", () => {
  it("a store over the same directory reads what the first wrote: bytes, metadata, order; deletes stay deleted", async () => {
    const dir = await tempDir();
    const a = new FileObjectStore(dir, { restore: true, report: (m) => expect.fail(m) });
    await a.put("__ns/team-a/files/file-1", new Uint8Array([1, 2, 3]), { record: "{}" });
    await a.put("batches/batch_1", '{"status":"completed"}');
    await a.put("batches/batch_0", "gone");
    await a.delete(["batches/batch_0"]);
    const b = new FileObjectStore(dir, { restore: true, report: (m) => expect.fail(m) });
    expect(await keys(b)).toStrictEqual(["__ns/team-a/files/file-1:3", "batches/batch_1:22"]);
    expect((await b.head("__ns/team-a/files/file-1"))!.meta).toStrictEqual({ record: "{}" });
    expect(await (await b.get("batches/batch_1"))!.text()).toBe('{"status":"completed"}');
    expect(await readdir(dir)).toHaveLength(4); // two files an object, nothing else
    // Without restore (--keep-on-exit) the store starts empty and writes beside what is there.
    expect(await keys(new FileObjectStore(dir, { restore: false, report: (m) => expect.fail(m) }))).toStrictEqual([]);
  });

  it("streams an object past the inline size from its file, exact", async () => {
    const dir = await tempDir();
    const store = new FileObjectStore(dir, { restore: true, report: (m) => expect.fail(m) });
    const big = new Uint8Array(3 * 1024 * 1024 + 7).map((_, i) => (i * 31) % 251);
    await store.put("files/big", big);
    const o = (await store.get("files/big"))!;
    expect(o.size).toBe(big.length);
    const chunks: number[] = [];
    const reader = o.stream().getReader();
    let read = new Uint8Array(0);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value.length);
      const next = new Uint8Array(read.length + value.length);
      next.set(read);
      next.set(value, read.length);
      read = next;
    }
    expect(chunks.length).toBeGreaterThan(1); // read in pieces, not whole
    expect(Buffer.compare(read, big)).toBe(0);
    expect(Buffer.compare(await (await store.get("files/big"))!.bytes(), big)).toBe(0);
  });

  it("reports and skips a damaged record; removes an interrupted write's leftovers", async () => {
    const dir = await tempDir();
    const a = new FileObjectStore(dir, { restore: true, report: (m) => expect.fail(m) });
    await a.put("good", "fine");
    await a.put("short", "four");
    await a.put("broken", "x");
    const files = await readdir(dir);
    const stemOf = async (key: string) => {
      for (const f of files.filter((n) => n.endsWith(".json"))) if ((JSON.parse(await readFile(join(dir, f), "utf8")) as { key: string }).key === key) return f.slice(0, -5);
      throw new Error(key);
    };
    await writeFile(join(dir, `${await stemOf("short")}.bin`), "abc"); // bytes of another size than the record says
    await writeFile(join(dir, `${await stemOf("broken")}.json`), "{not json");
    await writeFile(join(dir, `${"0".repeat(64)}.bin`), "orphan bytes"); // written, its record never was
    await writeFile(join(dir, `${await stemOf("good")}.json.123.4.tmp`), "half");
    const reports: string[] = [];
    const b = new FileObjectStore(dir, { restore: true, report: (m) => reports.push(m) });
    expect(await keys(b)).toStrictEqual(["good:4"]);
    expect(reports.sort()).toStrictEqual([
      expect.stringMatching(/^mockllm: skipped .*\.json: (Unexpected token|Expected property name)/),
      expect.stringMatching(/^mockllm: skipped .*\.json: its bytes are 3, its record says 4$/),
    ]);
    const left = await readdir(dir);
    expect(left.filter((f) => f.endsWith(".tmp") || f.startsWith("0".repeat(64)))).toStrictEqual([]);
    expect(left).toHaveLength(6); // good's two files, and the skipped records' (left for a person to look at)
  });

  it("one key's writes run in order: its record and bytes stay a pair, the last put wins", async () => {
    const dir = await tempDir();
    const store = new FileObjectStore(dir, { restore: true, report: (m) => expect.fail(m) });
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.put("k", "x".repeat(i + 1), { n: String(i) })));
    await Promise.all([store.put("k", "last", { n: "last" }), store.delete(["k"]), store.put("k", "after delete", { n: "after" })]);
    const again = new FileObjectStore(dir, { restore: true, report: (m) => expect.fail(m) });
    for (const s of [store, again]) {
      const o = (await s.get("k"))!;
      expect([o.size, o.meta.n, await o.text()]).toStrictEqual([12, "after", "after delete"]);
    }
  });

  it("carries the files store: a batch output written in parts reads back line by line after a restart", async () => {
    const dir = await tempDir();
    const files = new FileStore(new FileObjectStore(dir, { restore: true, report: (m) => expect.fail(m) }));
    const w = files.writer({ id: "file-out", filename: "out.jsonl", purpose: "batch_output", createdAt: 1, mimeType: "application/jsonl" });
    const line = `${"y".repeat(199_999)}\n`;
    for (let i = 0; i < 14; i++) await w.write(line); // parts of six lines (1.2 MB: past the inline size), six, two
    const r = await w.close();
    expect(r.parts).toBe(3);
    const again = new FileStore(new FileObjectStore(dir, { restore: true, report: (m) => expect.fail(m) }));
    expect(await again.get("file-out")).toStrictEqual(r);
    let n = 0;
    for await (const l of again.lines("file-out")) {
      expect(l.length).toBe(199_999);
      n++;
    }
    expect(n).toBe(14);
  });
});
