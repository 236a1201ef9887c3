/**
 * One session's whole state, role by role (types.ts): the state machine (core.ts), the recording, the MCP server, the
 * index and the Responses / thread store (responses.ts), each over the storage a runtime gives. The Durable Object's
 * RPC methods call it (session/members.ts); on Node it is the session itself.
 */
import { SessionCore, type SessionStorage } from "./core";
import type { ToolCallIds } from "./canonical-view";
import { mcpCallsView, mcpRequest, type McpStorage } from "./mcp";
import { recordRequest, type RecordingStorage } from "./recording";
import type { ResponsesStorage } from "./responses";
import type { McpEndpoint, Recordings, SessionIndex, StoredResponses, SyncSession, Turns } from "./types";

/** The storages one session object keeps (SQLite in the Durable Object, memory on Node). */
export interface HostStorage {
  session: SessionStorage;
  responses: ResponsesStorage;
  recording: RecordingStorage;
  mcp: McpStorage;
}

/** A role's members, answered at once. */
type Host<Role> = Pick<SyncSession, keyof Role & keyof SyncSession>;

function turns(core: SessionCore, storage: HostStorage): Host<Turns> {
  return {
    // A host is built over storage that exists (the runtime answers for an object it has not built).
    exists: () => true,
    next: (input) => core.next(input),
    state: (current) => {
      const view = core.state(current);
      const calls = mcpCallsView(core.snapshot({ version: "" })?.document ?? current, storage.mcp.state());
      return calls.length > 0 ? { ...view, mcpCalls: calls } : view;
    },
    requests: () => core.requests(),
    reset: () => {
      storage.recording.clear();
      storage.mcp.clear();
      return core.reset();
    },
  };
}

function recordings(core: SessionCore, recorded: RecordingStorage): Host<Recordings> {
  return {
    record: (input) => recordRequest(recorded, (entry) => core.journalEntry(entry), input),
    recording: () => recorded.steps(),
  };
}

function mcpEndpoint(core: SessionCore, mcp: McpStorage): Host<McpEndpoint> {
  return {
    mcp: (input) => mcpRequest(mcp, { snapshot: (i) => core.snapshot(i), journal: (e) => core.journalEntry(e) }, input),
    closeMcp: (mcpSession) => mcp.close(mcpSession),
  };
}

function sessionIndex(core: SessionCore): Host<SessionIndex> {
  return {
    noteMember: (key, limit) => core.noteMember(key, Date.now(), limit),
    members: () => core.members(),
    forgetMember: (key) => core.forgetMember(key),
  };
}

function storedResponses(core: SessionCore, responses: ResponsesStorage): Host<StoredResponses> {
  return {
    increment: (key) => core.increment(key),
    saveResponse: (record) => responses.save(record, Date.now()),
    responseById: (id) => responses.load(id),
    responseHistory: (id) => responses.history(id),
    responseItems: (ids) => responses.items(ids),
    deleteResponse: (id) => responses.delete(id),
    pointResponse: (id, object) => responses.point(id, object, Date.now()),
    responsePointer: (id) => responses.pointer(id, Date.now()),
    forgetResponsePointer: (id) => responses.forgetPointer(id),
    putObjects: (kind, objects, max) => responses.putObjects(kind, objects, Date.now(), max),
    objectById: (kind, id) => responses.getObject(kind, id),
    listObjects: (kind) => responses.listObjects(kind),
    deleteObject: (kind, id) => responses.deleteObject(kind, id),
  };
}

/**
 * The session over `storage`: every role, each method synchronous (a request is decided and recorded atomically).
 * @example sessionHost({ session, responses, recording, mcp }, wireToolCallIds).next(input)
 */
export function sessionHost(storage: HostStorage, toolCallIds: ToolCallIds): SyncSession {
  const core = new SessionCore(storage.session, toolCallIds);
  return {
    ...turns(core, storage),
    ...recordings(core, storage.recording),
    ...mcpEndpoint(core, storage.mcp),
    ...sessionIndex(core),
    ...storedResponses(core, storage.responses),
  };
}
