// The files store over the memory object store (src/objects): records, exact bytes, files written in parts, lines
// streamed across part boundaries, files assembled from an upload's parts, uploads' expiry and pending bytes, listing
// order and pagination, expiry, namespace scoping.
import { describe, expect, it } from "vitest";
import { FileStore, PART_BYTES } from "../../src/objects/files";
import { sortableId } from "../../src/objects/ids";
import { exclusive, RecordStore } from "../../src/objects/records";
import { MemoryObjectStore, scopedObjects } from "../../src/objects/store";
import { UploadStore, uploadPartKey } from "../../src/objects/uploads";

const record = (id: string, createdAt: number, extra: Record<string, unknown> = {}) => ({
  id,
  filename: `${id}.jsonl`,
  purpose: "batch",
  bytes: 0,
  createdAt,
  mimeType: "application/jsonl",
  ...extra,
});

describe("FileStore", () => {
  it("keeps exact bytes and the record", async () => {
    const files = new FileStore(new MemoryObjectStore());
    const bytes = new Uint8Array([0, 255, 10, 13, 1]);
    const r = await files.create(record("file-a", 1), bytes);
    expect(r.bytes).toBe(5);
    expect(await files.get("file-a")).toEqual(r);
    const opened = await files.open("file-a");
    expect([...new Uint8Array(await new Response(opened!.body).arrayBuffer())]).toEqual([0, 255, 10, 13, 1]);
    expect(await files.delete("file-a")).toBe(true);
    expect(await files.get("file-a")).toBeNull();
    expect(await files.delete("file-a")).toBe(false);
  });

  it("writes a large file in parts and streams its lines across part boundaries", async () => {
    const store = new MemoryObjectStore();
    const files = new FileStore(store);
    const w = files.writer({ id: "file-big", filename: "big.jsonl", purpose: "batch_output", createdAt: 1, mimeType: "application/jsonl" });
    const line = `${"x".repeat(999)}\n`;
    const count = Math.ceil((2.5 * PART_BYTES) / line.length);
    for (let i = 0; i < count; i++) await w.write(i === 7 ? `é${line.slice(1)}` : line);
    const r = await w.close();
    expect(r.parts).toBe(3);
    expect(r.bytes).toBe(count * line.length + 1); // "é" is two bytes
    let n = 0;
    for await (const l of files.lines("file-big")) {
      expect(l.length).toBe(999);
      n++;
    }
    expect(n).toBe(count);
    expect(new Uint8Array(await new Response((await files.open("file-big"))!.body).arrayBuffer()).length).toBe(r.bytes);
    await files.delete("file-big");
    const left = [];
    for await (const o of store.list("")) left.push(o.key);
    expect(left).toEqual([]);
  });

  it("lists newest first (or oldest), by purpose, after an id; expired files are gone", async () => {
    let now = 10_000_000;
    const files = new FileStore(new MemoryObjectStore(), () => now);
    await files.create(record("file-1", 100), new Uint8Array(1));
    await files.create(record("file-2", 200, { purpose: "user_data" }), new Uint8Array(1));
    await files.create(record("file-3", 300, { expiresAt: 10_005 }), new Uint8Array(1));
    expect((await files.list({ limit: 10 })).data.map((r) => r.id)).toEqual(["file-3", "file-2", "file-1"]);
    expect((await files.list({ limit: 10, order: "asc" })).data.map((r) => r.id)).toEqual(["file-1", "file-2", "file-3"]);
    expect(await files.list({ limit: 1, after: "file-3" })).toEqual({ data: [expect.objectContaining({ id: "file-2" })], hasMore: true });
    expect((await files.list({ limit: 10, purpose: "user_data" })).data.map((r) => r.id)).toEqual(["file-2"]);
    now = 10_005_000;
    expect(await files.get("file-3")).toBeNull();
    expect((await files.list({ limit: 10 })).data.map((r) => r.id)).toEqual(["file-2", "file-1"]);
  });

  it("assembles a file from stored objects without copying: lines read across them, deleted with the file", async () => {
    const store = new MemoryObjectStore();
    const files = new FileStore(store);
    const uploads = new UploadStore(store);
    await uploads.addPart("upload_1", "part_b", new TextEncoder().encode("two\nthr"));
    await uploads.addPart("upload_1", "part_a", new TextEncoder().encode("one\n"));
    await uploads.addPart("upload_1", "part_c", new TextEncoder().encode("ee\n"));
    const keys = ["part_a", "part_b", "part_c"].map((p) => uploadPartKey("upload_1", p));
    const r = await files.assemble(record("file-up", 1, { bytes: 15 }), keys);
    expect(r.assembled).toBe(3);
    expect(await files.get("file-up")).toEqual(r);
    const lines: string[] = [];
    for await (const l of files.lines("file-up")) lines.push(l);
    expect(lines).toEqual(["one", "two", "three"]);
    expect(await files.usage()).toEqual({ files: 1, bytes: 15 });
    expect(await files.delete("file-up")).toBe(true);
    expect(await uploads.parts("upload_1")).toEqual([]);
    expect([...store["map"].keys()]).toEqual([]);
  });

  it("uploads: an expired pending upload reads expired and drops its parts; pending bytes count pending uploads only", async () => {
    let now = 1_000_000_000;
    const store = new MemoryObjectStore();
    const uploads = new UploadStore(store, () => now);
    const up = (id: string, status: "pending" | "completed") => ({ id, filename: "f", purpose: "user_data", bytes: 9, mimeType: "text/plain", createdAt: 1_000_000, expiresAt: 1_003_600, status });
    await uploads.put(up("upload_p", "pending"));
    await uploads.put(up("upload_c", "completed"));
    await uploads.addPart("upload_p", "part_1", new Uint8Array(4));
    await uploads.addPart("upload_p", "part_2", new Uint8Array(5));
    await uploads.addPart("upload_c", "part_3", new Uint8Array(7));
    expect(await uploads.parts("upload_p")).toEqual([
      { id: "part_1", bytes: 4 },
      { id: "part_2", bytes: 5 },
    ]);
    expect(await uploads.pendingBytes()).toBe(9);
    await uploads.dropParts("upload_p", new Set(["part_2"]));
    expect(await uploads.pendingBytes()).toBe(5);
    now = 1_003_600 * 1000;
    expect(await uploads.pendingBytes()).toBe(0);
    expect((await uploads.get("upload_p"))?.status).toBe("expired");
    expect(await uploads.parts("upload_p")).toEqual([]);
    expect((await uploads.get("upload_c"))?.status).toBe("completed");
    expect(await uploads.get("upload_none")).toBeNull();
  });

  it("a scoped store sees only its own prefix", async () => {
    const inner = new MemoryObjectStore();
    const a = new FileStore(scopedObjects(inner, "__ns/a.1/"));
    const b = new FileStore(scopedObjects(inner, "__ns/b.1/"));
    await a.create(record("file-x", 1), new Uint8Array(2));
    expect(await b.get("file-x")).toBeNull();
    expect((await b.list({ limit: 10 })).data).toEqual([]);
    expect((await a.list({ limit: 10 })).data.map((r) => r.id)).toEqual(["file-x"]);
  });
});

describe("ids and records", () => {
  it("ids sort by creation", () => {
    const ids = Array.from({ length: 50 }, () => sortableId("file-", 14));
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^file-[0-9A-Za-z]{22}$/);
  });

  it("pages records newest first; exclusive runs one at a time per key, a busy key answered without waiting", async () => {
    const records = new RecordStore<{ n: number }>(new MemoryObjectStore(), "batches/");
    for (const n of [1, 2, 3]) await records.put(`b${n}`, { n });
    expect(await records.page({ limit: 2 })).toEqual({ data: [{ n: 3 }, { n: 2 }], hasMore: true });
    expect(await records.page({ limit: 2, after: "b2" })).toEqual({ data: [{ n: 1 }], hasMore: false });
    const order: string[] = [];
    const slow = (tag: string) =>
      exclusive(
        "k",
        async () => {
          order.push(`${tag}:start`);
          await new Promise((r) => setTimeout(r, 5));
          order.push(`${tag}:end`);
          return `${tag}:ran`;
        },
        async () => `${tag}:busy`,
      );
    expect(await Promise.all([slow("a"), slow("b")])).toEqual(["a:ran", "b:busy"]);
    expect(order).toEqual(["a:start", "a:end"]);
    expect(await slow("c")).toBe("c:ran");
  });
});
