/**
 * The Node runtime's transport: node:http (and cleartext HTTP/2 on the same port) as Fetch requests and responses
 * (./incoming.ts, ./respond.ts, the classes of ./web.ts) into the shared request path (src/router.ts), WebSocket
 * upgrades, scripted connection breaks, paced streams written on the shared timer, and the draining of a body answered
 * before it arrived. It serves a Runtime that
 * ./runtime.ts assembled; ./server.ts joins the two.
 */
import { createServer, ServerResponse, type IncomingMessage, type Server } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import type { AddressInfo } from "node:net";
import { discardRest, MAX_DRAIN_BYTES } from "../../http/body";
import { primeHeaderRecord } from "../../http/headers";
import { PlannedResponse } from "../../http/planned";
import { route } from "../../router";
import { internalError } from "../../routes/internal";
import type { Runtime } from "../../runtime/types";
import { dualProtocolServer } from "./h2c";
import { requestOf } from "./incoming";
import { PlannedIncoming } from "./node-headers";
import { sendPaced } from "./paced";
import { writeFailed, writeResponse, type Outgoing } from "./respond";
import { attachSockets } from "./sockets";
import { Response } from "./web";

const LISTEN_BACKLOG = 4096;
/** `http2.constants.NGHTTP2_INTERNAL_ERROR` (RFC 9113 INTERNAL_ERROR), without loading node:http2 to read it. */
const NGHTTP2_INTERNAL_ERROR = 0x2;

export interface ListenOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface Transport {
  /** e.g. `http://127.0.0.1:41234` */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** Stream writers still running (a client disconnect or close() stops them). */
  readonly openStreams: number;
  /** Stops accepting and ends open connections and streams; resolves once the port is closed. */
  close(): Promise<void>;
}

/** Reads and discards `incoming` to its end, at most MAX_DRAIN_BYTES; true when it ended within that. */
function discardIncoming(incoming: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    let size = 0;
    const finish = (ended: boolean) => {
      incoming.off("data", onData).off("end", onEnd).off("error", onError);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_DRAIN_BYTES) {
        incoming.pause();
        finish(false);
      }
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    incoming.on("data", onData).on("end", onEnd).on("error", onError);
    incoming.resume();
  });
}

/**
 * A request answered before its body has all arrived (too large, refused headers, an unknown path): the rest is read
 * and thrown away (up to MAX_DRAIN_BYTES) before the answer goes out, so a client that writes its whole body before
 * reading sees the answer, not a reset. Past the bound the answer says `Connection: close`.
 */
async function drainBeforeAnswer(request: Request, incoming: IncomingMessage, res: Response): Promise<Response> {
  // GET and HEAD bodies never reach the Request (./web.ts gives them none): read them off the socket directly.
  const drained = request.body === null ? await discardIncoming(incoming) : !request.bodyUsed && (await discardRest(request.body.getReader()));
  if (drained) return res;
  try {
    res.headers.set("connection", "close");
    return res;
  } catch {
    const copy = new Response(res.body, res); // immutable headers (a fetched response)
    copy.headers.set("connection", "close");
    return copy;
  }
}

type RequestListener = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void;

/** What a handler answers when it wrote the response itself (a paced stream). */
const ALREADY_SENT = Symbol("already sent");

/**
 * The request listener for node:http and node:http2: each request as a Fetch `Request` (./incoming.ts), the handler's
 * `Response` written back (./respond.ts). A request whose URL cannot be made is answered 400 with no body.
 */
function fetchListener(handle: (request: Request, incoming: IncomingMessage | Http2ServerRequest, outgoing: Outgoing) => Promise<Response | typeof ALREADY_SENT>): RequestListener {
  return (incoming, outgoing) => {
    let request: Request;
    try {
      request = requestOf(incoming, outgoing) as unknown as Request;
    } catch {
      (outgoing as ServerResponse).writeHead(400);
      outgoing.end();
      return;
    }
    let handled: Promise<Response | typeof ALREADY_SENT>;
    try {
      handled = handle(request, incoming, outgoing);
    } catch (e) {
      handled = Promise.reject(e);
    }
    handled.then(
      (res) => (res === ALREADY_SENT ? undefined : writeResponse(res, outgoing)),
      (e: unknown) => writeFailed(e, outgoing),
    );
  };
}

/** Serves `runtime` over HTTP/1.1, cleartext HTTP/2 and WebSockets on one port. */
export async function serveHttp(runtime: Runtime, opts: ListenOptions, log: (line: string) => void): Promise<Transport> {
  const pending = new Set<Promise<unknown>>();
  const waitUntil = (p: Promise<unknown>) => {
    pending.add(p);
    p.finally(() => pending.delete(p)).catch(() => {});
  };
  // Not an async function: the route's promise is continued once (an async function awaiting it made two promises more a request).
  const listener = fetchListener((request, incoming, outgoing) => {
    // HTTP/1.1: `connection: keep-alive` as the providers send it, without the `keep-alive: timeout=65` hint Node
    // adds (the providers send none; Node's fetch, which reads the hint, falls back to its own 4 s idle timeout,
    // within the server's 65 s). Node reads this field for that header only, and every header costs each client's
    // parser a little (docs/performance.md).
    const http1 = outgoing instanceof ServerResponse ? (outgoing as ServerResponse & { _keepAliveTimeout: number }) : undefined;
    if (http1) http1._keepAliveTimeout = 0;
    // Every provider route reads the header record: built from Node's raw list, no Headers object materialised.
    primeHeaderRecord(request.headers, incoming.rawHeaders);
    // HTTP/1.1 only: an HTTP/2 answer ends its own stream, and HTTP/2 forbids a `connection` header.
    const finish = (res: Response): Response | Promise<Response> => (incoming.complete || incoming.httpVersionMajor !== 1 ? res : drainBeforeAnswer(request, incoming as IncomingMessage, res));
    // A scripted break: the TCP connection on HTTP/1.1, the stream (RST_STREAM) on HTTP/2.
    const breakConnection = () => ("stream" in outgoing ? outgoing.stream.close(NGHTTP2_INTERNAL_ERROR) : outgoing.destroy());
    return route(request, runtime, { waitUntil, breakConnection, playsPlans: http1 !== undefined }).then(
      (res) => {
        // A paced stream over HTTP/1 comes back as its plan and is written here, on the shared timer (./paced.ts), not
        // through a web stream.
        if (!(res instanceof PlannedResponse && http1)) return finish(res);
        try {
          sendPaced(http1, res, res.plan, waitUntil);
          return ALREADY_SENT;
        } catch (e) {
          return finish(internalError(e));
        }
      },
      (e: unknown) => finish(internalError(e)),
    );
  });
  // node:http's request class, its header object made from the raw list's plan (./node-headers.ts).
  const server: Server = createServer({ IncomingMessage: PlannedIncoming }, listener);
  server.keepAliveTimeout = 65_000;
  // Cleartext HTTP/2 with prior knowledge on the same port (the AWS SDK's default for Bedrock streams).
  const dual = dualProtocolServer(server, async () => (await import("node:http2")).createServer(listener));
  const tcp = dual.tcp;
  const sockets = attachSockets(server, runtime, log);
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    tcp.once("error", reject);
    // A burst of clients connecting at once (a thousand streams) must not overflow the accept queue (Node's default
    // is 511; the kernel caps this at net.core.somaxconn).
    tcp.listen(opts.port ?? 0, host, LISTEN_BACKLOG, () => {
      tcp.off("error", reject);
      resolve();
    });
  });
  // node:http tracks connections (request/headers timeouts, closeAllConnections) from its 'listening' event; the TCP
  // server listens on its behalf.
  server.emit("listening");
  const port = (tcp.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;

  return {
    url: `http://${shownHost}:${port}`,
    port,
    host,
    get openStreams() {
      return pending.size;
    },
    close() {
      return new Promise<void>((resolve) => {
        sockets.close();
        tcp.close(() => resolve());
        server.close(() => {}); // not listening itself: this only stops its connection tracking
        server.closeAllConnections(); // open streams end here; their writers see the disconnect and stop
        dual.closeAll();
      });
    },
  };
}
