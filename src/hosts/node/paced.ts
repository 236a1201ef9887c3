/**
 * The Node runtime's writer for paced streams: every open stream on one shared timer. A burst of a thousand paced
 * streams is a thousand entries in one heap ordered by when each stream's next event is due, not a hundred thousand
 * timers, promises and web-stream writes; on each tick every stream that is due writes all its due events to its
 * socket in one write (so a stream that fell behind catches up in one write, not one per event).
 */
import type { ServerResponse } from "node:http";
import { BREAK_FLUSH_MS, type PacedPlan, type SseEvent } from "../../http/sse";

/** Events due within this many ms of a tick go out on it (one timer serves a stream's neighbours). */
const EARLY_MS = 1;

interface Live {
  readonly out: ServerResponse;
  /** The plan without its events (below): how to encode, when each is due, how the stream ends. */
  readonly plan: Omit<PacedPlan, "events">;
  /**
   * The plan's events, each dropped once written: a paced stream lives for seconds, and an event holds its draft and,
   * once encoded, its wire text (a burst of a thousand 100-event streams kept ~25 MB of written events until each
   * stream ended, most of it promoted to the old generation before it died).
   */
  readonly events: (SseEvent | undefined)[];
  /** Index of the next event to write. */
  next: number;
  /** Epoch ms the next event is due. */
  at: number;
  /** Ends the stream's `waitUntil` promise (the server counts open streams by it). */
  readonly finish: () => void;
}

/** A binary min-heap of streams by `at`. */
const heap: Live[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let timerAt = Infinity;

function push(s: Live): void {
  let i = heap.push(s) - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (heap[p]!.at <= s.at) break;
    heap[i] = heap[p]!;
    i = p;
  }
  heap[i] = s;
}

function pop(): Live {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length > 0) {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heap.length) break;
      const c = l + 1 < heap.length && heap[l + 1]!.at < heap[l]!.at ? l + 1 : l;
      if (heap[c]!.at >= last.at) break;
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = last;
  }
  return top;
}

function arm(): void {
  const next = heap[0]?.at ?? Infinity;
  if (next >= timerAt) return;
  if (timer !== undefined) clearTimeout(timer);
  timerAt = next;
  timer = setTimeout(tick, Math.max(0, next - Date.now()));
}

function tick(): void {
  timer = undefined;
  timerAt = Infinity;
  const now = Date.now() + EARLY_MS;
  while (heap.length > 0 && heap[0]!.at <= now) {
    const s = pop();
    if (serve(s, now)) push(s);
  }
  arm();
}

/** Writes what is due; true when the stream has more to write later. */
function serve(s: Live, now: number): boolean {
  const { out, plan, events } = s;
  if (out.destroyed) {
    s.finish();
    return false;
  }
  if (out.writableNeedDrain) {
    // The client reads slower than the schedule: wait for it, then catch up in one write.
    out.once("drain", () => {
      s.at = Date.now();
      push(s);
      arm();
    });
    return false;
  }
  const { encode, due, startAt } = plan;
  const parts: (string | Uint8Array)[] = [];
  while (s.next < events.length && startAt + due[s.next]! <= now) {
    parts.push(encode(events[s.next]!));
    events[s.next++] = undefined;
  }
  if (s.next < events.length) {
    if (parts.length > 0) out.write(joined(parts));
    s.at = startAt + due[s.next]!;
    return true;
  }
  // Everything is written: end as scripted.
  const end = plan.end;
  if (end.kind === "break") {
    if (parts.length > 0) out.write(joined(parts));
    // Let the bytes reach the client before the connection breaks (as the web-stream writer does).
    setTimeout(() => {
      out.destroy();
      s.finish();
    }, BREAK_FLUSH_MS);
    return false;
  }
  if (end.kind === "raw") parts.push(end.text);
  out.end(joined(parts));
  s.finish();
  return false;
}

/** Due events as one write: text when every event is text, else bytes (an AWS event stream is binary). */
function joined(parts: (string | Uint8Array)[]): string | Buffer {
  let text = "";
  for (const p of parts) {
    if (typeof p !== "string") return Buffer.concat(parts.map((q) => (typeof q === "string" ? Buffer.from(q) : q)));
    text += p;
  }
  return text;
}

/**
 * Sends `res`'s status and headers and then `plan`'s events on their schedule, straight to `out`.
 * @param waitUntil given a promise that settles when the stream has ended or the client went away
 */
export function sendPaced(out: ServerResponse, res: Response, plan: PacedPlan, waitUntil: (p: Promise<unknown>) => void): void {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  out.writeHead(res.status, headers);
  let resolve!: () => void;
  waitUntil(new Promise<void>((r) => (resolve = r)));
  const { events, ...rest } = plan;
  const ended = plan.ended;
  let told = false;
  const finish = () => {
    resolve();
    if (ended === undefined || told) return;
    told = true;
    // Events left unwritten: the client went away before the stream's end.
    ended(s.next < s.events.length);
  };
  const s: Live = { out, plan: rest, events: events.slice(), next: 0, at: plan.startAt + (plan.due[0] ?? 0), finish };
  out.once("close", finish);
  // The first write waits for the requests that arrived with this one to be handled (a burst's heads then go out
  // together, after its requests are read, instead of each delaying the next request by a write).
  if (starting.push(s) === 1) setImmediate(begin);
}

/** Streams whose head is not sent yet. */
let starting: Live[] = [];

function begin(): void {
  const batch = starting;
  starting = [];
  const now = Date.now() + EARLY_MS;
  for (const s of batch) {
    if (s.out.destroyed) {
      s.finish();
      continue;
    }
    // What is due already goes out with the head, in one write; else the head goes out alone, at once.
    if (s.at > now) s.out.flushHeaders();
    else if (!serve(s, now)) continue;
    push(s);
  }
  arm();
}
