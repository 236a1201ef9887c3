/**
 * The polled SSE body both managed-agents streams use (src/http/polled-stream.ts): what a read finds is sent as it is
 * found, a quiet stream sends its keep-alive, `last` ends it, so does the idle bound, and a client that goes away
 * stops the reads.
 */
import { describe, expect, it } from "vitest";
import { DueQueue, polledStream, type PolledRead } from "../../src/http/polled-stream";

const decoder = new TextDecoder();

async function chunks(body: ReadableStream<Uint8Array>, max = 20): Promise<string[]> {
  const out: string[] = [];
  const reader = body.getReader();
  for (let i = 0; i < max; i++) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(decoder.decode(value));
  }
  await reader.cancel();
  return out;
}

/** A source that answers `script` in order, then nothing; counts its reads. */
function scripted(script: PolledRead[]) {
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    read: async () => script[reads++],
  };
}

describe("polledStream", () => {
  it("sends each read's text, skips the empty reads, and ends after a last one", async () => {
    const source = scripted([{ text: "a" }, undefined, undefined, { text: "b" }, { text: "c", last: true }, { text: "never" }]);
    expect(await chunks(polledStream({ read: () => source.read(), keepAlive: "k", keepAliveMs: 60_000, idleMs: 60_000 }))).toStrictEqual(["a", "b", "c"]);
    expect(source.reads).toBe(5);
  });

  it("a quiet stream sends its keep-alive, and closes at the idle bound", async () => {
    const body = polledStream({ read: async () => undefined, keepAlive: ": keep-alive\n\n", keepAliveMs: 30, idleMs: 100 });
    const got = await chunks(body);
    expect(got.length).toBeGreaterThanOrEqual(1);
    expect(got.every((c) => c === ": keep-alive\n\n")).toBe(true);
  });

  it("an empty last read ends the stream without sending anything", async () => {
    expect(await chunks(polledStream({ read: async () => ({ text: "", last: true }), keepAlive: "k", keepAliveMs: 60_000, idleMs: 60_000 }))).toStrictEqual([]);
  });

  it("a cancelled stream stops reading", async () => {
    let reads = 0;
    const body = polledStream({
      read: async () => {
        reads++;
        return reads === 1 ? { text: "first" } : undefined;
      },
      keepAlive: "k",
      keepAliveMs: 60_000,
      idleMs: 60_000,
    });
    const reader = body.getReader();
    expect(decoder.decode((await reader.read()).value)).toBe("first");
    const pending = reader.read();
    await new Promise((r) => setTimeout(r, 30));
    await reader.cancel();
    await pending.catch(() => undefined);
    const after = reads;
    await new Promise((r) => setTimeout(r, 150));
    expect(reads).toBeLessThanOrEqual(after + 1);
  });
});

describe("DueQueue", () => {
  it("gives the items due by now in order, and never one before an earlier one", () => {
    const q = new DueQueue<string>();
    q.push("a", 100);
    q.push("b", 300);
    q.push("c", 200); // read after b: waits for b, whatever its own time
    expect(q.takeDue(50)).toStrictEqual([]);
    expect(q.takeDue(250)).toStrictEqual(["a"]);
    expect(q.size).toBe(2);
    expect(q.takeDue(300)).toStrictEqual(["b", "c"]);
    expect(q.size).toBe(0);
  });
});
