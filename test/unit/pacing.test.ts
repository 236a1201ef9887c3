import { afterEach, describe, expect, it, vi } from "vitest";
import type { Pacing } from "../../src/canonical/outcome";
import { encodeEvent, pacedStream, Pauses, schedule, type SseEvent } from "../../src/http/sse";
import { chunkChars, chunkWords, firstWords, wordCount, wordPieces } from "../../src/util/text";
import { seededRandom } from "../../src/util/hash";

const pacing = (p: Partial<Pacing>): Pacing => ({ ttftMs: 0, tokensPerSecond: 0, chunkDelayMs: 0, chunkWords: 1, jitterMs: 0, seed: 0, ...p });
const ev = (words = 0) => ({ data: "x", words });

describe("schedule (absolute offsets from stream start)", () => {
  it.each([
    { name: "no pacing: everything at 0", p: {}, events: [ev(), ev(1), ev(1), ev()], due: [0, 0, 0, 0] },
    { name: "ttft before the first content event only", p: { ttftMs: 300 }, events: [ev(), ev(1), ev(1), ev()], due: [0, 300, 300, 300] },
    { name: "chunkDelayMs between content events", p: { chunkDelayMs: 50 }, events: [ev(1), ev(1), ev(1)], due: [0, 50, 100] },
    { name: "tokensPerSecond by words", p: { tokensPerSecond: 10 }, events: [ev(2), ev(1), ev()], due: [200, 300, 300] },
    { name: "all together", p: { ttftMs: 100, chunkDelayMs: 10, tokensPerSecond: 100 }, events: [ev(), ev(1), ev(2)], due: [0, 110, 140] },
  ])("$name", ({ p, events, due }) => {
    expect(schedule(events, pacing(p))).toEqual(due);
  });

  it("jitter is seeded: the same seed gives the same schedule, another seed another", () => {
    const events = [ev(1), ev(1), ev(1), ev(1)];
    const a = schedule(events, pacing({ jitterMs: 40, seed: 1 }));
    expect(schedule(events, pacing({ jitterMs: 40, seed: 1 }))).toEqual(a);
    expect(schedule(events, pacing({ jitterMs: 40, seed: 2 }))).not.toEqual(a);
    for (let i = 1; i < a.length; i++) {
      expect(a[i]! - a[i - 1]!).toBeGreaterThanOrEqual(0);
      expect(a[i]! - a[i - 1]!).toBeLessThan(40);
    }
  });
});

describe("pacedStream without pacing", () => {
  it("is the whole transcript as one string, terminator and raw ending included, and no writer runs", () => {
    let writers = 0;
    const events = [
      { data: "one", words: 1 },
      { event: "done", data: "[DONE]" },
    ];
    const base = { events, pacing: pacing({}), waitUntil: () => void writers++ };
    expect(pacedStream({ ...base, end: { kind: "close" } })).toBe("data: one\n\nevent: done\ndata: [DONE]\n\n");
    expect(pacedStream({ ...base, end: { kind: "raw", text: "data: {broken\n\n" } })).toBe("data: one\n\nevent: done\ndata: [DONE]\n\ndata: {broken\n\n");
    expect(pacedStream({ ...base, format: "ndjson", end: { kind: "close" } })).toBe("one\n[DONE]\n");
    expect(writers).toBe(0);
    expect(pacedStream({ ...base, end: { kind: "break" } })).toBeInstanceOf(ReadableStream);
    expect(pacedStream({ ...base, pacing: pacing({ ttftMs: 1 }), end: { kind: "close" } })).toBeInstanceOf(ReadableStream);
    expect(writers).toBe(2);
  });

  it("past WHOLE_BODY_LIMIT is a readable of the same bytes, encoded as it is read, the raw ending last", async () => {
    let reads = 0;
    const piece = "x".repeat(1000);
    // 1,200 events of ~1 KB: over the limit at the 1,037th; each event's data read once while sizing, then on pull.
    const events = Array.from({ length: 1200 }, (_, i) => ({
      get data() {
        reads++;
        return `${i}:${piece}`;
      },
      words: 1,
      oneLine: true,
    }));
    const body = pacedStream({ events, pacing: pacing({}), end: { kind: "raw", text: "data: {broken\n\n" }, waitUntil: () => {} });
    expect(body).toBeInstanceOf(ReadableStream);
    expect(reads).toBe(1037);
    const chunks: Uint8Array[] = [];
    for await (const chunk of body as ReadableStream<Uint8Array>) chunks.push(chunk);
    expect(reads).toBe(1037 + 1200);
    expect(chunks.length).toBeGreaterThan(10); // enqueued in batches, never joined
    const text = new TextDecoder().decode(Buffer.concat(chunks));
    expect(text).toBe(`${events.map((_, i) => `data: ${i}:${piece}\n\n`).join("")}data: {broken\n\n`);
  });
});

describe("pacedStream counts its schedule from startAt (the request's arrival, issue 10)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** ms of fake time until the first content event (the second event) arrives, for a stream created `late` ms after arrival. */
  async function firstTokenAfter(late: number | undefined): Promise<number> {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 1_000_000 });
    const created = Date.now();
    const body = pacedStream({
      events: [
        { data: "start", words: 0 },
        { data: "token", words: 1 },
      ],
      pacing: pacing({ ttftMs: 200 }),
      end: { kind: "close" },
      waitUntil: () => {},
      ...(late !== undefined ? { startAt: created - late } : {}),
    });
    if (!(body instanceof ReadableStream)) throw new Error("a paced stream must be a readable");
    const reader = body.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    // Both events already due: one write (as the Node runtime's writer does).
    if (first === "data: start\n\ndata: token\n\n") return 0;
    expect(first).toBe("data: start\n\n");
    let got: string | undefined;
    void reader.read().then((r) => (got = new TextDecoder().decode(r.value)));
    let waited = 0;
    while (got === undefined && waited < 1000) {
      await vi.advanceTimersByTimeAsync(1);
      waited++;
    }
    expect(got).toBe("data: token\n\n");
    return waited;
  }

  it.each([
    { late: undefined, ttft: 200 },
    { late: 0, ttft: 200 },
    { late: 150, ttft: 50 },
    { late: 500, ttft: 0 },
  ])("created $late ms after arrival: first token $ttft ms later", async ({ late, ttft }) => {
    expect(await firstTokenAfter(late)).toBe(ttft);
  });
});

describe("pacedStream on a web stream writes what is due together, and stops when the client goes away", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * Every write of a paced stream, with the fake time it happened at (ms after creation), and when its body ended;
   * `leaveAt`: the client goes away then (the signal aborts).
   */
  async function writes(events: SseEvent[], p: Partial<Pacing>, signal?: AbortController, leaveAt?: number) {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 1_000_000 });
    const t0 = Date.now();
    let run: Promise<unknown> | undefined;
    const body = pacedStream({ events, pacing: pacing(p), end: { kind: "close" }, waitUntil: (w) => void (run = w), ...(signal ? { signal: signal.signal } : {}) });
    if (!(body instanceof ReadableStream)) throw new Error("a paced stream must be a readable");
    const reader = body.getReader();
    const out: { at: number; text: string }[] = [];
    let endedAt: number | undefined;
    const pump = (async () => {
      for (;;) {
        const r = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (r.done) break;
        out.push({ at: Date.now() - t0, text: new TextDecoder().decode(r.value) });
      }
      endedAt = Date.now() - t0;
    })();
    for (let waited = 0; endedAt === undefined && waited < 2000; waited++) {
      if (waited === leaveAt) signal?.abort();
      await vi.advanceTimersByTimeAsync(1);
    }
    await pump;
    await run;
    return { out, endedAt };
  }

  it("events due at the same time go out in one write; later ones on their own schedule", async () => {
    const events = [
      { data: "role", words: 0 },
      { data: "a", words: 1 },
      { data: "b", words: 1 },
      { data: "stop", words: 0 },
      { data: "[DONE]", words: 0 },
    ];
    // ttft 100, then 50 words a second (a word is due once its own 20 ms have passed): a at 120, b at 140, the
    // finish chunk and [DONE] with b.
    expect(await writes(events, { ttftMs: 100, tokensPerSecond: 50 })).toEqual({
      out: [
        { at: 0, text: "data: role\n\n" },
        { at: 120, text: "data: a\n\n" },
        { at: 140, text: "data: b\n\ndata: stop\n\ndata: [DONE]\n\n" },
      ],
      endedAt: 140,
    });
  });

  it("a client that goes away mid-sleep stops the writer at once, with one abort listener for the whole stream", async () => {
    const controller = new AbortController();
    const signal = controller.signal;
    let added = 0;
    let removed = 0;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<AbortSignal["addEventListener"]>) => {
      added++;
      add(...args);
    }) as AbortSignal["addEventListener"];
    signal.removeEventListener = ((...args: Parameters<AbortSignal["removeEventListener"]>) => {
      removed++;
      remove(...args);
    }) as AbortSignal["removeEventListener"];
    const events = Array.from({ length: 10 }, (_, i) => ({ data: `w${i}`, words: 1 }));
    // One word every 100 ms; the client leaves at 250 ms, in the sleep before the third: the body ends then.
    expect(await writes(events, { tokensPerSecond: 10 }, controller, 250)).toEqual({
      out: [
        { at: 100, text: "data: w0\n\n" },
        { at: 200, text: "data: w1\n\n" },
      ],
      endedAt: 250,
    });
    expect([added, removed]).toEqual([1, 1]);
  });

  it("a stream that runs to its end listens once too, and lets go of the signal", async () => {
    const controller = new AbortController();
    const spy = vi.spyOn(controller.signal, "addEventListener");
    const off = vi.spyOn(controller.signal, "removeEventListener");
    const events = Array.from({ length: 20 }, (_, i) => ({ data: `w${i}`, words: 1 }));
    const { out, endedAt } = await writes(events, { tokensPerSecond: 100 }, controller);
    expect([out.length, endedAt, spy.mock.calls.length, off.mock.calls.length]).toEqual([20, 200, 1, 1]);
  });
});

describe("Pauses", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sleeps on a timer, wakes every pending sleep when the signal aborts, and stops listening on close", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 0 });
    const controller = new AbortController();
    const pauses = new Pauses(controller.signal);
    let woke = false;
    void pauses.sleep(50).then(() => (woke = true));
    await vi.advanceTimersByTimeAsync(49);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(woke).toBe(true);
    woke = false;
    void pauses.sleep(10_000).then(() => (woke = true));
    await vi.advanceTimersByTimeAsync(5);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect([woke, pauses.aborted, vi.getTimerCount()]).toEqual([true, true, 0]);
    // Once aborted, sleeping does not wait.
    let again = false;
    void pauses.sleep(1_000).then(() => (again = true));
    await Promise.resolve();
    expect(again).toBe(true);
    pauses.close();
  });

  it("an already aborted signal is aborted from the start, and no signal never is", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(new Pauses(controller.signal).aborted).toBe(true);
    const none = new Pauses();
    expect(none.aborted).toBe(false);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 0 });
    let woke = false;
    void none.sleep(20).then(() => (woke = true));
    await vi.advanceTimersByTimeAsync(20);
    expect(woke).toBe(true);
    none.close();
  });
});

describe("chunking text", () => {
  it.each([
    { text: "one two three four five", n: 2, chunks: ["one two", " three four", " five"] },
    { text: "  leading and trailing  ", n: 1, chunks: ["  leading", " and", " trailing  "] },
    { text: "line one\nline two", n: 3, chunks: ["line one\nline", " two"] },
    { text: "", n: 1, chunks: [] },
    { text: "   ", n: 1, chunks: ["   "] },
  ])("$text by $n", ({ text, n, chunks }) => {
    expect(chunkWords(text, n)).toEqual(chunks);
    expect(chunkWords(text, n).join("")).toBe(text);
  });

  /** How chunkWords split text before it matched whole chunks: words one by one, then `n` joined. */
  function byWords(text: string, n: number): string[] {
    const words = text.match(/\s*\S+/g);
    if (!words) return text === "" ? [] : [text];
    const chunks: string[] = [];
    for (let i = 0; i < words.length; i += n) chunks.push(words.slice(i, i + n).join(""));
    const tail = text.slice(chunks.join("").length);
    if (tail !== "") chunks[chunks.length - 1] += tail;
    return chunks;
  }

  it("splits as word-by-word grouping does, for any text and any n (seeded random texts)", () => {
    const next = seededRandom(34);
    const alphabet = ["a", "bc", " ", "  ", "\n", "\t", "é", "🙂", "x-y", "\u00a0", "\u3000", "."];
    for (let t = 0; t < 400; t++) {
      const text = Array.from({ length: Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
      for (const n of [1, 2, 3, 5, 8, 1000, 1e12]) expect(chunkWords(text, n), JSON.stringify({ text, n })).toEqual(byWords(text, n));
    }
  });

  it("wordPieces: chunkWords' pieces, each with its own word count (at least 1), for any text and any n", () => {
    const next = seededRandom(35);
    const alphabet = ["a", "bc", " ", "  ", "\n", "\t", "é", "🙂", "x-y", "\u00a0", "\u3000", "\u2028", "\ufeff", "."];
    for (let t = 0; t < 400; t++) {
      const text = Array.from({ length: Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
      for (const n of [1, 2, 3, 5, 8, 1000, 1e12]) {
        const counted = chunkWords(text, n).map((piece) => ({ text: piece, words: Math.max(1, wordCount(piece)) }));
        expect(wordPieces(text, n), JSON.stringify({ text, n })).toEqual(counted);
      }
    }
    expect(wordPieces("a b c d e", 2)).toEqual([
      { text: "a b", words: 2 },
      { text: " c d", words: 2 },
      { text: " e", words: 1 },
    ]);
  });

  it("chunkChars and wordCount", () => {
    expect(chunkChars('{"a":"bcdef"}', 5)).toEqual(['{"a":', '"bcde', 'f"}']);
    // Never between a surrogate pair's halves: the fragment ends before the pair (or, one unit long, after it).
    expect(chunkChars('{"a":"👋b"}', 7)).toEqual(['{"a":"', '👋b"}']);
    expect(chunkChars("a👋b", 2)).toEqual(["a", "👋", "b"]);
    expect(chunkChars("👋👋", 1)).toEqual(["👋", "👋"]);
    expect(chunkChars("x\ud800y\udc00", 2)).toEqual(["x\ud800", "y\udc00"]);
    for (const [text, size] of [
      ['🌍 and 👋 in "é" 🎉🎉🎉', 3],
      ["👋".repeat(20), 16],
      ["ab👋".repeat(9), 5],
    ] as const) {
      const parts = chunkChars(text, size);
      expect(parts.join("")).toBe(text);
      for (const p of parts) expect(p.length).toBeLessThanOrEqual(size);
      for (const p of parts) expect(p).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    expect(wordCount(" a  b\nc ")).toBe(3);
    expect(wordCount("")).toBe(0);
    expect(wordCount("\u00a0\u2003\ufeff")).toBe(0);
    // The same count as /\S+/g on every character `\s` holds, and on those beside them it does not.
    const alphabet = [..."aé👋\u0085\u200b\u180e \t\n\v\f\r\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"];
    let seed = 7;
    for (let n = 0; n < 2000; n++) {
      let text = "";
      for (let i = 0; i < n % 40; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        text += alphabet[seed % alphabet.length];
      }
      expect(wordCount(text)).toBe(text.match(/\S+/g)?.length ?? 0);
      // The text up to the end of its k-th word: the first k matches of /\s*\S+/g joined.
      const k = ((seed >> 8) % 8) - 1;
      expect(firstWords(text, k)).toBe(k <= 0 ? "" : (text.match(/\s*\S+/g) ?? []).slice(0, k).join(""));
    }
    expect(firstWords(" a  b c ", 2)).toBe(" a  b");
    expect(firstWords(" a  b c ", 9)).toBe(" a  b c");
  });

  it("encodes multi-line data as several data: lines and ends every event with a blank line", () => {
    expect(encodeEvent({ event: "x", data: "a\nb" })).toBe("event: x\ndata: a\ndata: b\n\n");
    expect(encodeEvent({ data: "[DONE]" })).toBe("data: [DONE]\n\n");
  });
});
