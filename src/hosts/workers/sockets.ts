/**
 * WebSockets held by a session Durable Object with the hibernation API: `acceptWebSocket`, then `webSocketMessage` /
 * `webSocketClose`. Each socket's init and protocol state live in a SQLite row named by the socket's attachment, so a
 * socket survives the object's hibernation; the protocol (a provider module's socket state machine, src/sockets) runs in the object.
 */
import { openProtocol, socketMessageCap } from "../../providers/registry";
import { MESSAGE_TOO_BIG, overSocketCap } from "../../sockets/limits";
import { socketRuntime } from "../../sockets/scope";
import type { SocketProtocol, SocketSink } from "../../sockets/types";
import type { SocketInit } from "../../session/socket";
import type { Session } from "../../session/types";
import type { Runtime } from "../../runtime/types";
import { chunks } from "./sql-chunks";
import { table, type SqlTables } from "./sql-tables";

const SOCKETS = table("sockets", "id TEXT PRIMARY KEY, init TEXT NOT NULL, state TEXT", "WITHOUT ROWID");
/** The state in parts (a Realtime conversation grows past SQLite's 2 MB value limit); `sockets.state` is left NULL. */
const SOCKET_STATE = table("socket_state", "id TEXT NOT NULL, part INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (id, part)", "WITHOUT ROWID");

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

/**
 * The code to answer a client's close frame with (RFC 6455 5.5.1, 7.4): its own code when that is one a close frame
 * may carry, 1000 for a close without a code, 1002 (protocol error) for a code no endpoint may send.
 * @example replyCloseCode(4000) // 4000; replyCloseCode(1005) // 1000; replyCloseCode(999) // 1002
 */
export function replyCloseCode(code: number): number {
  if (code === 1005 || code === 1006) return 1000;
  const legal = (code >= 1000 && code <= 1014 && code !== 1004) || (code >= 3000 && code <= 4999);
  return legal ? code : 1002;
}

/** Sockets of one Durable Object. */
export class DurableSockets {
  private readonly live = new Map<WebSocket, SocketProtocol>();
  /** Each socket's kind, for its protocol's message cap. */
  private readonly kinds = new WeakMap<WebSocket, string>();
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
    /** The object's tables: the socket rows' are made on their first write (an object that never held a socket has none). */
    private readonly tables: () => SqlTables,
    private readonly local: () => Session,
  ) {}

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
    this.tables().write(SOCKETS).exec(`INSERT OR REPLACE INTO sockets (id, init, state) VALUES (?, ?, NULL)`, init.seed, raw);
    const protocol = openProtocol({ rt: this.runtimeFor(name, init), init, sink: sinkFor(server) });
    this.kinds.set(server, init.kind);
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
    const tables = this.tables();
    const row = tables.rows<{ init: string; state: string | null }>(SOCKETS, `SELECT init, state FROM sockets WHERE id = ?`, attachment.id)[0];
    if (!row) return undefined;
    const init = JSON.parse(row.init) as SocketInit;
    const parts = tables.rows<{ text: string }>(SOCKET_STATE, `SELECT text FROM socket_state WHERE id = ? ORDER BY part`, attachment.id);
    const saved = parts.length > 0 ? parts.map((p) => p.text).join("") : row.state;
    const protocol = openProtocol({ rt: this.runtimeFor(attachment.name, init), init, sink: sinkFor(ws) }, saved === null ? undefined : JSON.parse(saved));
    this.kinds.set(ws, init.kind);
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
    const sql = this.tables().write(SOCKET_STATE);
    sql.exec(`DELETE FROM socket_state WHERE id = ?`, id);
    chunks(json).forEach((part, i) => sql.exec(`INSERT INTO socket_state (id, part, text) VALUES (?, ?, ?)`, id, i, part));
  }

  async message(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // The cap `ws`'s maxPayload holds on Node: the same close here.
    if (overSocketCap(message)) return ws.close(MESSAGE_TOO_BIG.code, MESSAGE_TOO_BIG.reason);
    const protocol = this.protocol(ws);
    if (!protocol) return ws.close(1011, "mockllm: socket state lost");
    // A protocol's own cap below that (the Responses WebSocket mode and Gemini Live: HTTP's 10 MiB).
    const kind = this.kinds.get(ws);
    if (kind !== undefined && overSocketCap(message, socketMessageCap(kind))) return ws.close(MESSAGE_TOO_BIG.code, MESSAGE_TOO_BIG.reason);
    if (typeof message !== "string") {
      protocol.binary();
      return this.save(ws, protocol);
    }
    try {
      const done = protocol.message(message);
      this.save(ws, protocol);
      await done;
    } catch (e) {
      // As on Node: a turn that throws is a bug of mockllm's, logged; the client gets a 1011 close, not silence.
      console.error(`mockllm: websocket turn failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      try {
        ws.close(1011, "mockllm: internal error");
      } catch {
        // already closed
      }
    } finally {
      this.save(ws, protocol);
    }
  }

  /**
   * The client closed (`code` and `reason` from its close frame) or the connection failed (no code): the turn in
   * flight stops, the row goes, and a close frame is answered with the code RFC 6455 asks for.
   */
  closed(ws: WebSocket, code?: number, reason = ""): void {
    this.forget(ws);
    if (code === undefined) return;
    const reply = replyCloseCode(code);
    try {
      ws.close(reply, reply === 1002 ? "invalid close code" : reason);
    } catch {
      // already closed, or a reason the runtime refuses: close without one
      try {
        ws.close(reply);
      } catch {
        // already closed
      }
    }
  }

  private forget(ws: WebSocket): void {
    const protocol = this.live.get(ws);
    protocol?.closed();
    this.live.delete(ws);
    const id = this.id(ws);
    if (id === undefined) return;
    this.saved.delete(id);
    const tables = this.tables();
    tables.change(SOCKETS, `DELETE FROM sockets WHERE id = ?`, id);
    tables.change(SOCKET_STATE, `DELETE FROM socket_state WHERE id = ?`, id);
  }
}
