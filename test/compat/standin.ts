/**
 * A stand-in upstream for the recording proxy's tests: an in-test node:http server that answers each request with a
 * scripted status, headers and frames, written one write per frame after scripted gaps, then ends, breaks the
 * connection (`cut`, when the test says), or holds it open a while before ending (`hold`). It remembers what it got and what it sent.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Script {
  status?: number;
  headers?: Record<string, string>;
  /** Each frame is written `gap` ms after the previous one (the first after the headers). */
  frames: { gap?: number; data: string }[];
  /** After the frames: end the body (default), break the connection, or wait `holdMs` and then end. */
  end?: "close" | "cut" | "hold";
  holdMs?: number;
  /**
   * `cut` breaks the connection once this settles (a test resolves it when its client has every frame: a break that
   * overtook frames still on their way would lose them), else once the frames are flushed to the socket.
   */
  cutWhen?: Promise<unknown>;
}

export interface Seen {
  method: string;
  path: string;
  query: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** Every byte written to the body, in order. */
  sent: string;
  /** The frames written. */
  frames: string[];
  /** Resolves when the answer has ended (or broken off). */
  done: Promise<void>;
}

export interface StandIn {
  url: string;
  /** Answers requests whose body contains `keyword` with `script` (first registered keyword that matches wins). */
  on(keyword: string, script: Script | ((body: string) => Script)): void;
  seen: Seen[];
  /** The requests whose body contains `keyword`. */
  seenWith(keyword: string): Seen[];
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startStandIn(): Promise<StandIn> {
  const scripts: [string, Script | ((body: string) => Script)][] = [];
  const seen: Seen[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://standin");
    let finish!: () => void;
    const entry: Seen = {
      method: req.method ?? "",
      path: url.pathname,
      query: url.search,
      headers: req.headers,
      body,
      sent: "",
      frames: [],
      done: new Promise<void>((r) => (finish = r)),
    };
    seen.push(entry);
    const found = scripts.find(([k]) => body.includes(k));
    if (!found) {
      res.writeHead(599, { "content-type": "text/plain" }).end("stand-in: no script");
      finish();
      return;
    }
    const script = typeof found[1] === "function" ? found[1](body) : found[1];
    res.writeHead(script.status ?? 200, script.headers ?? {});
    res.flushHeaders();
    let flushed: Promise<unknown> = Promise.resolve();
    for (const f of script.frames) {
      if (f.gap) await sleep(f.gap);
      flushed = new Promise((r) => res.write(f.data, r));
      entry.sent += f.data;
      entry.frames.push(f.data);
    }
    if (script.end === "cut") {
      await flushed;
      await script.cutWhen;
      res.socket?.destroy();
    } else {
      if (script.end === "hold") await sleep(script.holdMs ?? 300);
      res.end();
    }
    finish();
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    on: (keyword, script) => void scripts.push([keyword, script]),
    seen,
    seenWith: (keyword) => seen.filter((s) => s.body.includes(keyword)),
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** One SSE event as the wire carries it. */
export function sse(data: unknown, event?: string): string {
  return `${event !== undefined ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}
