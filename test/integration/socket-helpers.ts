/**
 * A raw WebSocket client for the integration tests on both runtimes: inside workerd the Worker's fetch answers the
 * upgrade with a `webSocket`; on Node the `ws` package connects to the in-process server.
 */
import { call, RUNTIME } from "./helpers";

export interface TestSocket {
  /** The sub-protocol the server chose ("" when none). */
  protocol: string;
  send(message: unknown): void;
  /** A binary frame. */
  sendBinary(bytes: Uint8Array): void;
  /** Resolves with the next message not yet taken (parsed JSON, or the raw text when it is not JSON). */
  next(): Promise<any>;
  /** Every message received so far, in order. */
  received: any[];
  closed: Promise<{ code: number; reason: string }>;
  /** Closes from the client side (1000 "done" unless told). */
  close(code?: number, reason?: string): void;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function socketOf(protocol: string, send: (t: string | Uint8Array) => void, close: (code?: number, reason?: string) => void) {
  const received: any[] = [];
  const waiters: ((m: any) => void)[] = [];
  let taken = 0;
  let onClose!: (e: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((r) => (onClose = r));
  const socket: TestSocket = {
    protocol,
    received,
    closed,
    send: (m) => send(typeof m === "string" ? m : JSON.stringify(m)),
    sendBinary: (bytes) => send(bytes),
    next: () => (taken < received.length ? Promise.resolve(received[taken++]) : new Promise((r) => waiters.push(r))),
    close,
  };
  return {
    socket,
    push(text: string) {
      received.push(parse(text));
      const w = waiters.shift();
      if (w) w(received[taken++]);
    },
    closed: onClose,
  };
}

/** Opens a socket at `path` (with any `/s/…` prefix), or answers the refused upgrade's Response. */
export async function openSocket(path: string, headers: Record<string, string> = {}, protocols: string[] = []): Promise<TestSocket | Response> {
  const all = { ...headers, ...(protocols.length > 0 ? { "sec-websocket-protocol": protocols.join(", ") } : {}) };
  if (RUNTIME === "workers") {
    const res = await call(path, { headers: { upgrade: "websocket", ...all } });
    const ws = res.webSocket;
    if (!ws) return res;
    ws.accept();
    const s = socketOf(
      res.headers.get("sec-websocket-protocol") ?? "",
      (t) => ws.send(t),
      (code = 1000, reason = "done") => ws.close(code, reason),
    );
    ws.addEventListener("message", (e) => s.push(typeof e.data === "string" ? e.data : new TextDecoder().decode(e.data as ArrayBuffer)));
    ws.addEventListener("close", (e) => s.closed({ code: e.code, reason: e.reason }));
    return s.socket;
  }
  const { default: WebSocket } = await import("ws");
  const probe = await call(path, { method: "HEAD" });
  const base = new URL(probe.url).origin.replace("http", "ws");
  const ws = new WebSocket(`${base}${path}`, protocols, { headers });
  return new Promise((resolve) => {
    const s = socketOf(
      "",
      (t) => ws.send(t),
      (code = 1000, reason = "done") => ws.close(code, reason),
    );
    ws.on("message", (d) => s.push(String(d)));
    ws.on("close", (code, reason) => s.closed({ code, reason: String(reason) }));
    ws.on("open", () => resolve(Object.assign(s.socket, { protocol: ws.protocol })));
    ws.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += String(d)));
      res.on("end", () => resolve(new Response(body, { status: res.statusCode ?? 0 })));
    });
    ws.on("error", () => {});
  });
}

/** Takes messages until one satisfies `done`; returns them all. */
export async function until(socket: TestSocket, done: (m: any) => boolean): Promise<any[]> {
  const out: any[] = [];
  for (;;) {
    const m = await socket.next();
    out.push(m);
    if (done(m)) return out;
  }
}
