// Issue 19: the Worker's scenario store keeps only settled values at module scope; a pending KV read is shared only
// within the request (store instance) that started it.
import { beforeEach, describe, expect, it } from "vitest";
import { invalidateScenarioCaches, KvScenarioStore } from "../../src/hosts/workers/kv-scenarios";
import { isThenable } from "../../src/util/awaitable";

interface Deferred {
  key: string;
  resolve(): void;
}

/** A KV namespace whose reads wait until the test releases them, counting each read. */
function fakeKv(docs: Record<string, unknown>) {
  const waiting: Deferred[] = [];
  const reads: string[] = [];
  const later = <T>(key: string, value: () => T) =>
    new Promise<T>((resolve) => {
      reads.push(key);
      waiting.push({ key, resolve: () => resolve(value()) });
    });
  const kv = {
    getWithMetadata: (key: string) => later(key, () => ({ value: key.slice(9) in docs ? JSON.stringify(docs[key.slice(9)]) : null, metadata: null })),
    list: () =>
      later("list", () => ({
        keys: Object.keys(docs).map((n) => ({ name: `scenario:${n}`, metadata: { version: "v1", hasMatch: true } })),
        list_complete: true,
      })),
  };
  const releaseAll = async () => {
    while (waiting.length > 0) {
      waiting.shift()!.resolve();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { kv: kv as unknown as KVNamespace, reads, releaseAll };
}

const DOC = { name: "kv-one", match: { model: "m" }, steps: [{ respond: { text: "hi" } }] };

describe("KvScenarioStore caches (issue 19)", () => {
  beforeEach(() => invalidateScenarioCaches());

  it("a second request does not get the first request's pending read: it reads itself", async () => {
    const { kv, reads, releaseAll } = fakeKv({ "kv-one": DOC });
    const first = new KvScenarioStore(kv);
    const second = new KvScenarioStore(kv);
    const a = first.get("kv-one");
    const b = second.get("kv-one");
    expect(reads).toEqual(["scenario:kv-one", "scenario:kv-one"]);
    await releaseAll();
    expect((await a)?.name).toBe("kv-one");
    expect((await b)?.name).toBe("kv-one");
  });

  it("concurrent lookups within one request share one read; a later request reuses the settled value", async () => {
    const { kv, reads, releaseAll } = fakeKv({ "kv-one": DOC });
    const store = new KvScenarioStore(kv);
    const both = Promise.all([store.get("kv-one"), store.get("kv-one")]);
    expect(reads).toEqual(["scenario:kv-one"]);
    await releaseAll();
    const [x, y] = await both;
    expect(x).toBe(y);
    // Settled and fresh: answered as a value, no promise (a turn's lookup costs no turn of the microtask queue).
    const later = new KvScenarioStore(kv).get("kv-one");
    expect(isThenable(later)).toBe(false);
    expect(later).toBe(x);
    expect(reads).toEqual(["scenario:kv-one"]);
  });

  it("names() and candidates(): pending lists stay in their request, settled ones serve the next", async () => {
    const { kv, reads, releaseAll } = fakeKv({ "kv-one": DOC });
    const first = new KvScenarioStore(kv);
    const second = new KvScenarioStore(kv);
    const n1 = first.names();
    const n2 = second.names();
    const c1 = first.candidates();
    const c2 = second.candidates();
    await new Promise((r) => setTimeout(r, 0));
    expect(reads.filter((r) => r === "list")).toHaveLength(4);
    await releaseAll();
    expect(await n1).toContain("kv-one");
    expect(await n2).toEqual(await n1);
    expect((await c1).map((s) => s.name)).toContain("kv-one");
    expect((await c2).map((s) => s.name)).toEqual((await c1).map((s) => s.name));
    const before = reads.length;
    const third = new KvScenarioStore(kv);
    expect(await third.names()).toEqual(await n1);
    expect((await third.candidates()).map((s) => s.name)).toEqual((await c1).map((s) => s.name));
    expect(reads.length).toBe(before);
  });

  it("a read begun before an admin write does not cache what it read", async () => {
    const { kv, reads, releaseAll } = fakeKv({ "kv-one": DOC });
    const pending = new KvScenarioStore(kv).get("kv-one");
    invalidateScenarioCaches();
    await releaseAll();
    await pending;
    const again = new KvScenarioStore(kv).get("kv-one");
    await releaseAll();
    await again;
    expect(reads).toEqual(["scenario:kv-one", "scenario:kv-one"]);
  });
});

describe("module scope on the Worker path (issue 19)", () => {
  it("no module-level variable is declared to hold a promise (src/ minus the Node runtime and the client)", async () => {
    const { readdirSync, readFileSync, statSync } = await import("node:fs");
    const { join, relative, resolve } = await import("node:path");
    const src = resolve(__dirname, "../../src");
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => {
        const p = join(dir, f);
        return statSync(p).isDirectory() ? walk(p) : p.endsWith(".ts") ? [p] : [];
      });
    const found: string[] = [];
    for (const file of walk(src)) {
      const rel = relative(src, file);
      if (rel.startsWith("client/") || rel.startsWith("hosts/node/")) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (/^(export )?(let|const|var) /.test(line) && /Promise|async\s*\(/.test(line)) found.push(`${rel}:${i + 1}: ${line}`);
        });
    }
    expect(found).toEqual([]);
  });
});
