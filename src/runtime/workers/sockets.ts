/**
 * WebSockets held by a session Durable Object with the hibernation API: `acceptWebSocket`, then `webSocketMessage` /
 * `webSocketClose`. Each socket's init and protocol state live in a SQLite row named by the socket's attachment, so a
 * socket survives the object's hibernation; the protocol (src/realtime) runs in the object.
 */
import { openProtocol } from "../../realtime/protocols";
import { socketRuntime } from "../../realtime/scope";
import type { SocketProtocol, SocketSink } from "../../realtime/types";
import type { SocketInit } from "../../session/socket";
import type { Session } from "../../session/types";
import type { Runtime } from "../types";

/** The request headers the Worker hands a socket's init, and the object's own name, in. */
export const SOCKET_INIT_HEADER = "x-mockllm-socket";
export const SOCKET_NAME_HEADER = "x-mockllm-object";

interface Attachment {
  id: string;
  /** This object's name, as the Worker's session store named it. */
  name: string;
}

function sinkFor(ws: WebSocket): SocketSink {
  return {
    send: (text) => {
      try {
        ws.send(text);
      } catch {
        // closed meanwhile
      }
    },
    close: (code, reason) => ws.close(code, reason),
    // Workers has no way to drop a TCP connection from here: 1006 cannot be sent, so the closest is an abnormal code.
    terminate: () => ws.close(1011, "mockllm: scripted network_error"),
  };
}

/** Sockets of one Durable Object. */
export class DurableSockets {
  private readonly live = new Map<WebSocket, SocketProtocol>();
  /** The state last written per socket id. */
  private readonly saved = new Map<string, string>();

  /**
   * @param runtime the Runtime a socket's turns run with
   * @param local this object's own session (built on first use): turns of the session holding the socket skip the RPC
   *   to itself
   */
  constructor(
    private readonly state: DurableObjectState,
    private readonly runtime: () => Runtime,
    private readonly local: () => Session,
  ) {}

  /**
   * The socket rows' storage, its table created on first use: an object that never held a socket has none (a read
   * of a session that never ran must find no table, see SessionObject.exists).
   */
  private get sql(): SqlStorage {
    if (!this.tableReady) {
      this.state.storage.sql.exec(`CREATE TABLE IF NOT EXISTS sockets (id TEXT PRIMARY KEY, init TEXT NOT NULL, state TEXT)`);
      this.tableReady = true;
    }
    return this.state.storage.sql;
  }
  private tableReady = false;

  /** Accepts the upgrade the Worker forwarded (see workersRuntime's `connect`). */
  accept(request: Request): Response {
    const raw = request.headers.get(SOCKET_INIT_HEADER);
    if (raw === null) return new Response("mockllm: not a socket", { status: 400 });
    const init = JSON.parse(raw) as SocketInit;
    const name = request.headers.get(SOCKET_NAME_HEADER) ?? "";
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.state.acceptWebSocket(server);
    server.serializeAttachment({ id: init.seed, name } satisfies Attachment);
    this.sql.exec(`INSERT OR REPLACE INTO sockets (id, init, state) VALUES (?, ?, NULL)`, init.seed, raw);
    const protocol = openProtocol({ rt: this.runtimeFor(name, init), init, sink: sinkFor(server) });
    this.live.set(server, protocol);
    protocol.open();
    this.save(server, protocol);
    return new Response(null, { status: 101, webSocket: client, ...(init.protocol !== undefined ? { headers: { "sec-websocket-protocol": init.protocol } } : {}) });
  }

  private attachment(ws: WebSocket): Attachment | undefined {
    return (ws.deserializeAttachment() as Attachment | null) ?? undefined;
  }

  private id(ws: WebSocket): string | undefined {
    return this.attachment(ws)?.id;
  }

  /**
   * The runtime for a socket held under `name` (this object's name as the Worker's store gave it): that session is
   * this object, reached without a round trip; then scoped as the upgrade was (socketRuntime).
   */
  private runtimeFor(name: string, init: SocketInit): Runtime {
    const rt = this.runtime();
    const sessions = rt.sessions;
    const base: Runtime = { ...rt, sessions: { get: (n) => (n === name ? this.local() : sessions.get(n)), connect: (n, r, i) => sessions.connect(n, r, i) } };
    return socketRuntime(base, init);
  }

  /** The socket's protocol: in memory, or rebuilt from its row after hibernation. */
  private protocol(ws: WebSocket): SocketProtocol | undefined {
    const known = this.live.get(ws);
    if (known) return known;
    const attachment = this.attachment(ws);
    if (attachment === undefined) return undefined;
    const row = this.sql.exec<{ init: string; state: string | null }>(`SELECT init, state FROM sockets WHERE id = ?`, attachment.id).toArray()[0];
    if (!row) return undefined;
    const init = JSON.parse(row.init) as SocketInit;
    const protocol = openProtocol({ rt: this.runtimeFor(attachment.name, init), init, sink: sinkFor(ws) }, row.state === null ? undefined : JSON.parse(row.state));
    this.live.set(ws, protocol);
    return protocol;
  }

  /** Writes the protocol's state when it changed (a write holds the object's outgoing messages until it is durable). */
  private save(ws: WebSocket, protocol: SocketProtocol): void {
    const id = this.id(ws);
    if (id === undefined) return;
    const json = JSON.stringify(protocol.state() ?? null);
    if (this.saved.get(id) === json) return;
    this.saved.set(id, json);
    this.sql.exec(`UPDATE sockets SET state = ? WHERE id = ?`, json, id);
  }

  async message(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const protocol = this.protocol(ws);
    if (!protocol) return ws.close(1011, "mockllm: socket state lost");
    if (typeof message !== "string") {
      protocol.binary();
      return this.save(ws, protocol);
    }
    const done = protocol.message(message);
    this.save(ws, protocol);
    try {
      await done;
    } finally {
      this.save(ws, protocol);
    }
  }

  closed(ws: WebSocket): void {
    const protocol = this.live.get(ws);
    protocol?.closed();
    this.live.delete(ws);
    const id = this.id(ws);
    if (id === undefined) return;
    this.saved.delete(id);
    this.sql.exec(`DELETE FROM sockets WHERE id = ?`, id);
  }
}
