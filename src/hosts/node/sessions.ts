/**
 * The Node runtime's session store: one in-process `sessionHost` per name, over memory storages. A session's
 * methods are synchronous, so each request is decided and recorded atomically, in arrival order.
 */
import { SessionHost } from "../../session/host";
import { wireToolCallIds } from "../../providers/registry";
import { indexOf } from "../../session/session-index";
import type { Session, SessionStore, SyncSession } from "../../session/types";
import { MemoryMcpStorage } from "./memory-mcp";
import type { SocketInit } from "../../session/socket";
import { MemoryRecordingStorage } from "./memory-recording";
import { pendingSession } from "./pending-session";
import { acceptedResponse } from "./socket-accept";
import { emptySessionData, MemoryResponsesStorage, MemorySessionStorage, type MemorySessionData } from "./memory";

/** A session held in this process: the host over memory storages (members on the prototype: ~1 KB an idle session less). */
class NodeSession extends SessionHost implements SyncSession {
  private constructor(
    private readonly data: MemorySessionData,
    private readonly responses: MemoryResponsesStorage,
    recording: MemoryRecordingStorage,
    private readonly session: MemorySessionStorage,
    mcp: MemoryMcpStorage,
  ) {
    super({ session, responses, recording, mcp }, wireToolCallIds);
  }

  /** @param changed called after any change (`--persist`); `unchanged` when nothing listens, so no closure is made */
  static over(data: MemorySessionData, changed: (session: NodeSession) => void): NodeSession {
    let session: NodeSession | undefined;
    const onChange = changed === unchanged ? unchanged : () => changed(session!);
    session = new NodeSession(
      data,
      new MemoryResponsesStorage(data, onChange),
      new MemoryRecordingStorage(data, onChange),
      new MemorySessionStorage(data, onChange),
      new MemoryMcpStorage(data, onChange),
    );
    return session;
  }

  /** What `--persist` writes out. */
  dump(): MemorySessionData {
    return { ...this.data, journal: this.session.journal(), ...this.responses.dump() };
  }
}

/** The change hook of a store that does not persist: one shared function, not one per session. */
const unchanged = (): void => {};

export class NodeSessionStore implements SessionStore {
  /** A turn's body comes as its text: the journal keeps entries as JSON text (./memory.ts), the body's copied in. */
  readonly sendsBodyText = true;
  private readonly sessions = new Map<string, NodeSession>();
  /** Last use of each session this process touched (ms), for SESSION_TTL. */
  private readonly lastUsed = new Map<string, number>();

  /**
   * @param saved sessions read back from `--persist`, by name
   * @param changed called after any change to a session (`--persist` writes it out)
   */
  constructor(
    private readonly saved: Map<string, MemorySessionData> = new Map(),
    private readonly changed?: (name: string, dump: () => MemorySessionData) => void,
  ) {}

  /** The session `name`; one that does not exist yet is created by its first write, never by a read. */
  get(name: string): Session {
    const held = this.held(name);
    if (held) return held;
    return pendingSession(
      () => this.held(name),
      () => this.held(name) ?? this.create(name),
    );
  }

  /** The session `name` if it exists (in memory or read back from `--persist`), noted as used. */
  private held(name: string): NodeSession | undefined {
    let session = this.sessions.get(name);
    if (!session) {
      const data = this.saved.get(name);
      if (data === undefined) return undefined;
      session = this.create(name, data);
    }
    this.lastUsed.set(name, Date.now());
    return session;
  }

  private create(name: string, data = emptySessionData()): NodeSession {
    this.saved.delete(name);
    const changed = this.changed;
    const session = NodeSession.over(data, changed ? (s) => changed(name, () => s.dump()) : unchanged);
    this.sessions.set(name, session);
    this.lastUsed.set(name, Date.now());
    return session;
  }

  /** Forgets every session whose name starts with `prefix`; the names forgotten. */
  drop(prefix: string): string[] {
    const names = this.names().filter((n) => n.startsWith(prefix));
    for (const n of names) this.forget(n);
    return names;
  }

  private forget(name: string): void {
    this.sessions.delete(name);
    this.saved.delete(name);
    this.lastUsed.delete(name);
  }

  /**
   * SESSION_TTL: forgets the sessions not used for `ttlMs` before `now` (sessions read back from `--persist` count
   * from start-up); the names forgotten, each once.
   */
  expireIdle(now: number, ttlMs: number): string[] {
    const out: string[] = [];
    for (const name of this.names()) {
      const last = this.lastUsed.get(name);
      if (last === undefined) this.lastUsed.set(name, now);
      else if (now - last >= ttlMs) {
        this.forget(name);
        out.push(name);
        // The session leaves its scenario's index (without touching the index's own last use).
        const listed = indexOf(name);
        const index = listed && (this.sessions.get(listed.index) ?? (this.saved.has(listed.index) ? this.get(listed.index) : undefined));
        if (listed && index) index.forgetMember(listed.member);
      }
    }
    return out;
  }

  /** Node holds sockets in the server process (sockets.ts): the answer only tells the upgrade handler to go ahead. */
  async connect(name: string, _request: Request, init: SocketInit): Promise<Response> {
    return acceptedResponse(name, init);
  }

  /** Names of the sessions this process holds (for listing sessions). */
  names(): string[] {
    return [...new Set([...this.sessions.keys(), ...this.saved.keys()])];
  }
}
