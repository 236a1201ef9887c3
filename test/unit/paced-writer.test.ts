// The Node runtime's shared-timer writer for paced streams (src/hosts/node/paced.ts), over a stand-in response.
import { EventEmitter } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Pacing } from "../../src/canonical/outcome";
import { BREAK_FLUSH_MS, encodeEvent, schedule, type PacedPlan, type StreamEnd } from "../../src/http/sse";
import type { SseEvent } from "../../src/providers/types";
import { sendPaced } from "../../src/hosts/node/paced";

/** What the writer does to a node:http response, recorded. */
class FakeOut extends EventEmitter {
  head: { status: number; headers: Record<string, string> } | undefined;
  flushed = 0;
  writes: (string | Uint8Array)[] = [];
  ended: string | Uint8Array | undefined;
  destroyed = false;
  writableNeedDrain = false;
  writeHead(status: number, headers: Record<string, string>) {
    this.head = { status, headers };
    return this;
  }
  flushHeaders() {
    this.flushed++;
  }
  write(text: string | Uint8Array) {
    this.writes.push(text);
    return true;
  }
  end(text: string | Uint8Array) {
    this.ended = text;
  }
  destroy() {
    this.destroyed = true;
    this.emit("close");
  }
}

const pacing = (p: Partial<Pacing>): Pacing => ({ ttftMs: 0, tokensPerSecond: 0, chunkDelayMs: 0, chunkWords: 1, jitterMs: 0, seed: 0, ...p });
const EVENTS: SseEvent[] = [{ data: "role" }, { data: "one", words: 1 }, { data: "two", words: 1 }, { data: "[DONE]" }];

const opened: FakeOut[] = [];

/** A full garbage collection, without starting the test process with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** Starts one stream of `events` on `out`; resolves `ended` when the writer lets go of it. */
function start(out: FakeOut, opts: { p?: Partial<Pacing>; startAt?: number; end?: StreamEnd; events?: SseEvent[]; encode?: PacedPlan["encode"] } = {}) {
  const events = opts.events ?? EVENTS;
  const plan: PacedPlan = {
    events,
    encode: opts.encode ?? encodeEvent,
    due: schedule(events, pacing(opts.p ?? { ttftMs: 200, chunkDelayMs: 100 })),
    startAt: opts.startAt ?? Date.now(),
    end: opts.end ?? { kind: "close" },
  };
  let ended = false;
  opened.push(out);
  const res = new Response("", { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8", "x-request-id": "req_1" } });
  sendPaced(out as unknown as ServerResponse, res, plan, (p) => void p.then(() => (ended = true)));
  return { ended: () => ended };
}

describe("Node runtime: paced streams on one shared timer", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "Date"], now: 1_000_000 });
  });
  afterEach(async () => {
    // The writer's heap and timer are the module's: let every stream of this test go before the clock is real again.
    for (const out of opened.splice(0)) if (!out.destroyed) out.destroy();
    await vi.runAllTimersAsync();
    vi.useRealTimers();
  });

  it("sends the head with the events already due in one write, then each event when due, and ends with the last ones", async () => {
    const out = new FakeOut();
    const s = start(out);
    expect(out.head).toEqual({ status: 200, headers: { "content-type": "text/event-stream; charset=utf-8", "x-request-id": "req_1" } });
    // Nothing is written until the requests that arrived with this one are handled (the next turn of the loop).
    expect(out.writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(out.writes).toEqual(["data: role\n\n"]);
    expect(out.flushed).toBe(0);
    await vi.advanceTimersByTimeAsync(198);
    expect(out.writes).toEqual(["data: role\n\n"]);
    await vi.advanceTimersByTimeAsync(2);
    expect(out.writes).toEqual(["data: role\n\n", "data: one\n\n"]);
    await vi.advanceTimersByTimeAsync(100);
    expect(out.ended).toBe("data: two\n\ndata: [DONE]\n\n");
    expect(s.ended()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("lets go of each event once written, while the stream goes on", async () => {
    const out = new FakeOut();
    // Made in a scope of their own: the test keeps only weak references to the events.
    const refs = (() => {
      const list: SseEvent[] = [{ data: "role" }, { data: "one", words: 1 }, { data: "two", words: 1 }, { data: "[DONE]" }];
      start(out, { events: list });
      return list.map((e) => new WeakRef(e));
    })();
    await vi.advanceTimersByTimeAsync(200);
    expect(out.writes).toEqual(["data: role\n\n", "data: one\n\n"]);
    collectGarbage();
    expect(refs.map((r) => r.deref()?.data)).toEqual([undefined, undefined, "two", "[DONE]"]);
    await vi.advanceTimersByTimeAsync(100);
    expect(out.ended).toBe("data: two\n\ndata: [DONE]\n\n");
  });

  it("a stream behind its schedule (arrived long ago) catches up in one write", async () => {
    const out = new FakeOut();
    const s = start(out, { startAt: Date.now() - 1000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(out.writes).toEqual([]);
    expect(out.ended).toBe("data: role\n\ndata: one\n\ndata: two\n\ndata: [DONE]\n\n");
    expect(s.ended()).toBe(true);
  });

  it("nothing due yet: the head goes out alone at once", async () => {
    const out = new FakeOut();
    start(out, { events: EVENTS.slice(1), p: { ttftMs: 50 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(out.head?.status).toBe(200);
    expect(out.flushed).toBe(1);
    expect(out.writes).toEqual([]);
  });

  it("a thousand open streams share one timer and each keeps its own schedule", async () => {
    const outs = Array.from({ length: 1000 }, () => new FakeOut());
    outs.forEach((out, i) => start(out, { startAt: Date.now() - (i % 10) }));
    await vi.advanceTimersByTimeAsync(0);
    expect(outs.every((o) => o.writes.length === 1)).toBe(true);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(195);
    // Started 0–9 ms before now, first word due 200 ms after its start, events within 1 ms of a tick go on it: at 195 ms
    // the first word has gone out for the streams started 4–9 ms before.
    expect(outs.filter((o) => o.writes.length === 2).length).toBe(600);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(outs.every((o) => o.ended === "data: two\n\ndata: [DONE]\n\n")).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("ends as scripted: raw text after the events, or a broken connection BREAK_FLUSH_MS after the last write", async () => {
    const raw = new FakeOut();
    start(raw, { end: { kind: "raw", text: "data: {broken\n\n" } });
    const broken = new FakeOut();
    const s = start(broken, { end: { kind: "break" } });
    await vi.advanceTimersByTimeAsync(300);
    expect(raw.ended).toBe("data: two\n\ndata: [DONE]\n\ndata: {broken\n\n");
    expect(broken.writes).toEqual(["data: role\n\n", "data: one\n\n", "data: two\n\ndata: [DONE]\n\n"]);
    expect(broken.ended).toBeUndefined();
    expect(broken.destroyed).toBe(false);
    await vi.advanceTimersByTimeAsync(BREAK_FLUSH_MS);
    expect(broken.destroyed).toBe(true);
    expect(s.ended()).toBe(true);
  });

  it("a client gone before its head is sent gets nothing written", async () => {
    const out = new FakeOut();
    const s = start(out);
    out.destroy();
    await vi.advanceTimersByTimeAsync(1000);
    expect([out.writes, out.flushed, out.ended, s.ended()]).toEqual([[], 0, undefined, true]);
  });

  it("stops at a client disconnect: no write after it, and the stream counts as ended", async () => {
    const out = new FakeOut();
    const s = start(out);
    await vi.advanceTimersByTimeAsync(0);
    out.destroy();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.ended()).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(out.writes).toEqual(["data: role\n\n"]);
    expect(out.ended).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("waits for a slow reader to drain, then writes everything due in one write", async () => {
    const out = new FakeOut();
    start(out, { events: [...EVENTS.slice(0, 3), { data: "three", words: 1 }, { data: "[DONE]" }] });
    await vi.advanceTimersByTimeAsync(0);
    out.writableNeedDrain = true;
    await vi.advanceTimersByTimeAsync(350);
    expect(out.writes).toEqual(["data: role\n\n"]);
    out.writableNeedDrain = false;
    out.emit("drain");
    await vi.advanceTimersByTimeAsync(0);
    expect(out.writes).toEqual(["data: role\n\n", "data: one\n\ndata: two\n\n"]);
    await vi.advanceTimersByTimeAsync(50);
    expect(out.ended).toBe("data: three\n\ndata: [DONE]\n\n");
  });
  it("an AWS event stream's binary frames go out as bytes, never as text (several due at once, then a raw ending)", async () => {
    const out = new FakeOut();
    const bytes = (e: SseEvent) => new TextEncoder().encode(`<${e.data}>`);
    start(out, { encode: bytes, p: { ttftMs: 200 }, end: { kind: "raw", text: new Uint8Array([0xff, 0x00]) } });
    await vi.advanceTimersByTimeAsync(0);
    expect(out.writes.map((w) => Buffer.from(w).toString("latin1"))).toEqual(["<role>"]);
    expect(out.writes.every((w) => w instanceof Uint8Array)).toBe(true);
    await vi.advanceTimersByTimeAsync(200);
    expect(out.ended).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(out.ended as Uint8Array).toString("latin1")).toBe("<one><two><[DONE]>\xff\x00");
  });
});
