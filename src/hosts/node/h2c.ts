/**
 * HTTP/1.1 and cleartext HTTP/2 (prior knowledge, as `@aws-sdk/client-bedrock-runtime` speaks by default) on one
 * port: a plain TCP server reads the first bytes of each connection and hands the socket, bytes put back, to the
 * HTTP/1.1 server or to an HTTP/2 server. Once handed over, a connection is the chosen server's alone, so
 * HTTP/1.1 keep-alive, upgrades (WebSockets) and per-request cost are those of node:http itself. The HTTP/2 server
 * (and node:http2 with it: ~10 ms and ~6 MB) is made when the first HTTP/2 connection arrives.
 */
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import type { Server as HttpServer } from "node:http";
import type { Http2Server, Http2Session } from "node:http2";
import { onFirstUse } from "./first-use";

/** HTTP/2's connection preface starts `PRI * HTTP/2.0`; no HTTP/1 method starts with `PRI`. */
const H2_START = "PRI";

export interface DualServer {
  /** The listening TCP server (address, listen, close). */
  tcp: NetServer;
  /** Ends HTTP/2 sessions and connections still deciding, for a shutdown. */
  closeAll(): void;
}

/**
 * A TCP server dispatching each connection by its first bytes.
 * @example const { tcp } = dualProtocolServer(createServer(listener), async () => (await import("node:http2")).createServer(listener)); tcp.listen(0)
 */
export function dualProtocolServer(http1: HttpServer, makeHttp2: () => Promise<Http2Server>): DualServer {
  const deciding = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  const h2 = onFirstUse(() =>
    makeHttp2().then((server) =>
      server.on("session", (s: Http2Session) => {
        sessions.add(s);
        s.once("close", () => sessions.delete(s));
      }),
    ),
  );
  const tcp = createNetServer((socket) => {
    deciding.add(socket);
    const drop = () => {
      deciding.delete(socket);
      socket.destroy();
    };
    const onReadable = () => {
      const head = socket.read() as Buffer | null;
      if (head === null) return;
      socket.unshift(head);
      const start = head.subarray(0, H2_START.length).toString("latin1");
      // A first read shorter than "PRI" that could still be the preface: wait for more.
      if (start.length < H2_START.length && H2_START.startsWith(start)) return;
      socket.off("readable", onReadable);
      const handOver = (server: HttpServer | Http2Server) => {
        socket.off("error", drop);
        socket.off("end", drop);
        deciding.delete(socket);
        server.emit("connection", socket);
      };
      if (start !== H2_START) return handOver(http1);
      // The first HTTP/2 connection waits while node:http2 loads (its error and end still drop it meanwhile).
      h2().then((server) => (socket.destroyed ? undefined : handOver(server)), drop);
    };
    socket.on("readable", onReadable);
    socket.on("error", drop);
    socket.on("end", drop);
  });
  return {
    tcp,
    closeAll() {
      for (const s of deciding) s.destroy();
      for (const s of sessions) s.destroy();
    },
  };
}
