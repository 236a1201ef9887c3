/**
 * The Node runtime: the shared request path (src/router.ts) served by node:http through @hono/node-server's
 * fetch adapter, with session state in process and scenarios in memory over files and the bundled defaults.
 * `mockllm serve` and `startMockLLM()` both start it here.
 */
import { createServer, ServerResponse, type IncomingMessage, type Server } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import type { AddressInfo } from "node:net";
import type { PacedPlan } from "../../http/sse";
import { route } from "../../router";
import { discardRest, MAX_DRAIN_BYTES } from "../../http/body";
import { primeHeaderRecord } from "../../http/headers";
import { internalError } from "../../routes/internal";
import { parseScenarioDocument } from "../../scenario/document";
import { versionOf } from "../../scenario/store";
import type { Runtime, RuntimeVars } from "../types";
import { loadScenarioPaths, type ScenarioFiles } from "./files";
import { Persister } from "./persist";
import { NodeScenarioStore } from "./scenarios";
import { NodeSessionStore } from "./sessions";
import { sendPaced } from "./paced";
import { NodeTenancy, splitPersistedName } from "./tenancy";
import { sessionTtlMs } from "../../tenancy/quota";
import { putRecordingScenario, type RecordOptions } from "./record";
import { onFirstUse } from "./first-use";
import { dualProtocolServer } from "./h2c";
import { attachSockets } from "./sockets";

const LISTEN_BACKLOG = 4096;
/** `http2.constants.NGHTTP2_INTERNAL_ERROR` (RFC 9113 INTERNAL_ERROR), without loading node:http2 to read it. */
const NGHTTP2_INTERNAL_ERROR = 0x2;

export interface ServeOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Admin bearer token; unset, admin routes answer 503. */
  adminToken?: string;
  /** Scenario files or directories, loaded at start (and watched with `watch`). */
  scenarios?: readonly string[];
  /** Re-read scenario files when they change. Default true when `scenarios` are given. */
  watch?: boolean;
  /** Keep uploads, sessions, journals and stored responses in this directory across restarts. */
  persist?: string;
  /**
   * Write what `persist` writes to this directory (by close() or the process's exit at the latest), without reading
   * what it holds at start: a run kept for `mockllm serve --persist <dir>` to show afterwards.
   */
  keepOnExit?: string;
  /** Worker variables (`DEFAULT_WORDS_PER_SECOND`, `DEFAULT_RESPONDER`, …). */
  vars?: RuntimeVars & Record<string, string | undefined>;
  /** Where reload reports and problems go; default stderr. */
  log?: (line: string) => void;
  /** `mockllm serve --record` / `mockllm record`: a recording scenario over these upstreams (see recordingScenario). */
  record?: RecordOptions;
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:41234` */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly runtime: Runtime;
  /** Problems found in scenario files at start (each names the file and a JSON path). */
  readonly problems: readonly string[];
  /** Stream writers still running (a client disconnect or close() stops them). */
  readonly openStreams: number;
  /** Stops accepting, ends open streams, writes pending state; safe to call twice. */
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
  // GET and HEAD bodies never reach the Request (the adapter gives them none): read them off the socket directly.
  const drained =
    request.body === null ? await discardIncoming(incoming) : !request.bodyUsed && (await discardRest(request.body.getReader()));
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
type Adapter = typeof import("@hono/node-server") & typeof import("@hono/node-server/utils/response");

/**
 * The request listener, made when the first request arrives or once the server is listening (`load`), whichever
 * comes first. The fetch adapter and the `Request`/`Response`/`Headers` classes under it (Node's bundled undici and
 * node:http2: ~20 ms idle, ~250 ms of CPU under a burst, ~10 MB) load after start-up, not before it: the server is
 * ready as soon, and a burst arriving on a freshly started server does not queue behind the loading (issue 34).
 * Requests arriving while it loads wait for it.
 */
function deferredListener(make: (adapter: Adapter) => RequestListener): RequestListener & { load: () => void } {
  const listener = onFirstUse(() =>
    Promise.all([import("@hono/node-server"), import("@hono/node-server/utils/response")]).then(([a, b]) => make({ ...a, ...b })),
  );
  const load = () => void listener().catch(() => {}); // a failure answers each request with it, below
  return Object.assign((req: Parameters<RequestListener>[0], res: Parameters<RequestListener>[1]) => {
    if (listener.current) return listener.current(req, res);
    listener().then((l) => l(req, res)).catch((e: unknown) => {
      res.statusCode = 500;
      res.end(`mockllm: could not load the HTTP adapter: ${(e as Error).message}`);
    });
  }, { load });
}

/**
 * Starts the Node runtime.
 * @example const server = await startServer({ port: 8787, adminToken: "t", scenarios: ["scenarios"] })
 */
export async function startServer(opts: ServeOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (opts.persist !== undefined && opts.keepOnExit !== undefined) throw new TypeError("persist and keepOnExit exclude each other");
  const dir = opts.persist ?? opts.keepOnExit;
  const persister = dir !== undefined ? new Persister(dir) : undefined;
  const restore = opts.persist !== undefined ? persister : undefined; // keepOnExit writes only
  const scenarios = new NodeScenarioStore((name, stored) => persister?.saveUpload(name, stored?.raw));
  await scenarios.init();
  const sessions = new NodeSessionStore(restore?.sessions(log), persister ? (name, dump) => persister.sessionChanged(name, dump) : undefined);
  const tenancy = new NodeTenancy(sessions, persister, restore?.registry(log));
  // Pending writes reach the disk when the process exits without close() (flush is synchronous); a directory removed
  // meanwhile must not turn the exit into a crash.
  const flushOnExit = () => {
    try {
      persister?.flush();
    } catch (e) {
      log(`mockllm: could not write ${dir} at exit: ${(e as Error).message}`);
    }
  };
  if (persister) process.once("exit", flushOnExit);
  if (restore) {
    for (const [persisted, raw] of restore.uploads(log)) {
      const inSpace = splitPersistedName(persisted);
      const name = inSpace?.name ?? persisted;
      const parsed = parseScenarioDocument(raw, name);
      if (!parsed.ok) {
        log(`mockllm: skipped persisted scenario "${persisted}": ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`);
        continue;
      }
      const store = inSpace ? tenancy.scenarios(inSpace.space) : scenarios;
      store.restoreUpload({ name, version: await versionOf(raw), source: "kv", scenario: parsed.scenario, raw });
    }
  }
  const files: ScenarioFiles | undefined =
    opts.scenarios && opts.scenarios.length > 0
      ? await loadScenarioPaths(scenarios, opts.scenarios, { watch: opts.watch ?? true, log })
      : undefined;

  if (opts.record) await putRecordingScenario(scenarios, opts.record);
  const vars: RuntimeVars = { ...opts.vars, ...(opts.adminToken !== undefined ? { ADMIN_TOKEN: opts.adminToken } : {}) };
  const requestLog = vars.REQUEST_LOG?.trim().toLowerCase() === "json";
  const runtime: Runtime = { sessions, scenarios, vars, tenancy, ...(requestLog ? { log: (entry) => log(JSON.stringify({ mockllm: "request", ...entry })) } : {}) };
  const ttl = sessionTtlMs(vars);
  const expiry = setInterval(() => {
    for (const name of sessions.expireIdle(Date.now(), ttl)) persister?.removeSession(name);
  }, Math.min(ttl, 60_000));
  expiry.unref();
  const pending = new Set<Promise<unknown>>();
  const waitUntil = (p: Promise<unknown>) => {
    pending.add(p);
    p.finally(() => pending.delete(p)).catch(() => {});
  };
  const listener = deferredListener(({ getRequestListener, RESPONSE_ALREADY_SENT }) => getRequestListener(
    async (request, { incoming, outgoing }) => {
      let res: Response;
      // HTTP/1.1: `connection: keep-alive` as the providers send it, without the `keep-alive: timeout=65` hint Node
      // adds (the providers send none; Node's fetch, which reads the hint, falls back to its own 4 s idle timeout,
      // within the server's 65 s). Node reads this field for that header only, and every header costs each client's
      // parser a little (docs/performance.md).
      const http1 = outgoing instanceof ServerResponse ? (outgoing as ServerResponse & { _keepAliveTimeout: number }) : undefined;
      if (http1) http1._keepAliveTimeout = 0;
      // Every provider route reads the header record: built from Node's raw list, no Headers object materialised.
      primeHeaderRecord(request.headers, incoming.rawHeaders);
      try {
        // A scripted break: the TCP connection on HTTP/1.1, the stream (RST_STREAM) on HTTP/2.
        const breakConnection = () => ("stream" in outgoing ? outgoing.stream.close(NGHTTP2_INTERNAL_ERROR) : outgoing.destroy());
        // A paced stream over HTTP/1 is written here, on the shared timer (./paced.ts), not through a web stream.
        let paced: PacedPlan | undefined;
        const direct = http1 ? { directStream: (plan: PacedPlan) => void (paced = plan) } : {};
        res = await route(request, runtime, { waitUntil, breakConnection, ...direct });
        if (paced !== undefined && http1) {
          sendPaced(http1, res, paced, waitUntil);
          return RESPONSE_ALREADY_SENT;
        }
      } catch (e) {
        res = internalError(e);
      }
      // HTTP/1.1 only: an HTTP/2 answer ends its own stream, and HTTP/2 forbids a `connection` header.
      if (incoming.complete || incoming.httpVersionMajor !== 1) return res;
      return drainBeforeAnswer(request, incoming as IncomingMessage, res);
    },
    // The adapter's lightweight Request and Response (drop-in subclasses that skip undici's costs for plain bodies)
    // become this process's globals: the largest single saving per request (see docs/performance.md).
    { overrideGlobalObjects: true },
  ));
  const server: Server = createServer(listener);
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
  // The adapter loads once the caller has taken the URL (after its continuation), before the first request asks.
  setImmediate(listener.load);
  const port = (tcp.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    host,
    runtime,
    problems: files?.problems ?? [],
    get openStreams() {
      return pending.size;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        files?.close();
        clearInterval(expiry);
        sockets.close();
        tcp.close(() => resolve());
        server.close(() => {}); // not listening itself: this only stops its connection tracking
        server.closeAllConnections(); // open streams end here; their writers see the disconnect and stop
        dual.closeAll();
      }).then(() => {
        process.off("exit", flushOnExit);
        persister?.flush();
      });
      return closing;
    },
  };
}
