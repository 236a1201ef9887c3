/**
 * The Node runtime's WebSocket host: `ws` in noServer mode on the HTTP server's `upgrade` event. The upgrade request
 * goes through the shared router like any other (so a scoped Runtime and `SessionStore.connect` decide it); an
 * accepted socket runs its protocol (a provider module's socket state machine, src/sockets) in this process.
 */
import type { IncomingMessage, Server } from "node:http";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";
import { route } from "../../router";
import { onFirstUse } from "./first-use";
import { openProtocol, socketMessageCap } from "../../providers/registry";
import { MAX_SOCKET_MESSAGE_BYTES, MESSAGE_TOO_BIG } from "../../sockets/limits";
import { socketRuntime } from "../../sockets/scope";
import type { SocketSink } from "../../sockets/types";
import type { Runtime } from "../../runtime/types";
import { takeAccepted } from "./socket-accept";
import { Headers, Request } from "./web";

export interface SocketHost {
  /** Open sockets. */
  readonly open: number;
  /** Closes every socket (1001, going away). */
  close(): void;
}

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  }
  return new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, { method: req.method ?? "GET", headers });
}

/** Answers a refused upgrade as plain HTTP, then drops the connection. */
async function refuse(socket: Duplex, res: Response): Promise<void> {
  const body = Buffer.from(await res.arrayBuffer());
  const lines = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ""}`];
  res.headers.forEach((v, k) => lines.push(`${k}: ${v}`));
  lines.push(`content-length: ${body.length}`, "connection: close");
  socket.end(Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`), body]));
}

function sinkFor(ws: WebSocket): SocketSink {
  return {
    send: (text) => {
      if (ws.readyState === ws.OPEN) ws.send(text);
    },
    close: (code, reason) => ws.close(code, reason),
    terminate: () => ws.terminate(),
  };
}

/** A `ws` message's size in bytes (a Buffer, an ArrayBuffer, or fragments). */
function byteLength(data: Buffer | ArrayBuffer | Buffer[]): number {
  return Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
}

/**
 * Serves WebSockets on `server` through `runtime`.
 * @example const sockets = attachSockets(server, runtime, log)
 */
export function attachSockets(server: Server, runtime: Runtime, log: (line: string) => void): SocketHost {
  const chosen = new WeakMap<IncomingMessage, string>();
  // `ws` (and the node:zlib, node:tls and node:https it requires) loads with the first upgrade, not at start-up.
  const socketServer = onFirstUse(() =>
    import("ws").then(({ WebSocketServer, WebSocket }) => {
      /** `ws` closes a message over `maxPayload` with a bare 1009: the reason added, as the Worker sends it. */
      class CappedSocket extends WebSocket {
        override close(code?: number, data?: string | Buffer): void {
          super.close(code, code === MESSAGE_TOO_BIG.code && data === undefined ? MESSAGE_TOO_BIG.reason : data);
        }
      }
      return new WebSocketServer({
        noServer: true,
        perMessageDeflate: false,
        maxPayload: MAX_SOCKET_MESSAGE_BYTES,
        WebSocket: CappedSocket,
        handleProtocols: (_offered, req) => chosen.get(req) ?? false,
      });
    }),
  );
  const pending = (p: Promise<unknown>) => void p.catch(() => {});
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    void (async () => {
      const res = await route(toRequest(req), runtime, { waitUntil: pending });
      const accepted = takeAccepted(res);
      if (!accepted) return refuse(socket, res);
      if (accepted.init.protocol !== undefined) chosen.set(req, accepted.init.protocol);
      (await socketServer()).handleUpgrade(req, socket, head, (ws) => {
        const protocol = openProtocol({ rt: socketRuntime(runtime, accepted.init), init: accepted.init, sink: sinkFor(ws) });
        // `ws` holds the runtimes' cap (maxPayload); a protocol's own, lower cap here (HTTP's 10 MiB).
        const cap = socketMessageCap(accepted.init.kind);
        ws.on("message", (data, isBinary) => {
          if (cap < MAX_SOCKET_MESSAGE_BYTES && byteLength(data) > cap) return ws.close(MESSAGE_TOO_BIG.code, MESSAGE_TOO_BIG.reason);
          if (isBinary) return protocol.binary();
          protocol.message(data.toString()).catch((e: unknown) => {
            log(`mockllm: websocket turn failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
            ws.close(1011, "mockllm: internal error");
          });
        });
        ws.on("close", () => protocol.closed());
        // A message over the cap: `ws` has sent its 1009 close and finishes the handshake itself.
        ws.on("error", (e: Error & { code?: string }) => {
          if (e.code !== "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") ws.terminate();
        });
        protocol.open();
      });
    })().catch((e: unknown) => {
      log(`mockllm: websocket upgrade failed: ${e instanceof Error ? e.message : String(e)}`);
      socket.destroy();
    });
  });
  return {
    get open() {
      return socketServer.current?.clients.size ?? 0;
    },
    close() {
      const wss = socketServer.current;
      if (!wss) return;
      for (const ws of wss.clients) ws.close(1001, "server closing");
      wss.close();
    },
  };
}
