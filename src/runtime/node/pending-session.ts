/**
 * A Node session name that holds nothing yet: reads answer from the session if one was created since, else from
 * `ABSENT`, and keep nothing; the first write (a request, an MCP message, a recording, an index note, a stored
 * response) creates the session. So a read of a typo creates no session object (contract section 10).
 */
import type { Scenario } from "../../scenario/schema";
import { ABSENT } from "../../session/absent";
import type { NextInput } from "../../session/core";
import type { McpInput } from "../../session/mcp";
import type { RecordInput } from "../../session/recording";
import type { StoredResponseRecord } from "../../session/responses";
import type { Session } from "../../session/types";

export class PendingSession implements Session {
  /**
   * @param held the session if it exists now (created by another request since), without creating it
   * @param create the session, created on first use
   */
  constructor(
    private readonly held: () => Session | undefined,
    private readonly create: () => Session,
  ) {}

  exists(): boolean {
    return this.held() !== undefined;
  }
  next(input: NextInput) {
    return this.create().next(input);
  }
  state(current?: Scenario) {
    return this.held()?.state(current) ?? ABSENT.state(current);
  }
  requests() {
    return this.held()?.requests() ?? ABSENT.requests();
  }
  reset() {
    return this.held()?.reset() ?? ABSENT.reset();
  }
  record(input: RecordInput) {
    return this.create().record(input);
  }
  recording() {
    return this.held()?.recording() ?? ABSENT.recording();
  }
  mcp(input: McpInput) {
    return this.create().mcp(input);
  }
  closeMcp(mcpSession: string) {
    return this.held()?.closeMcp(mcpSession) ?? ABSENT.closeMcp();
  }
  noteMember(key: string, limit?: number) {
    return this.create().noteMember(key, limit);
  }
  members() {
    return this.held()?.members() ?? ABSENT.members();
  }
  forgetMember(key: string) {
    return this.held()?.forgetMember(key);
  }
  saveResponse(record: StoredResponseRecord) {
    return this.create().saveResponse(record);
  }
  responseById(id: string) {
    return this.held()?.responseById(id) ?? ABSENT.responseById();
  }
  responseHistory(id: string) {
    return this.held()?.responseHistory(id) ?? ABSENT.responseHistory(id);
  }
  responseItems(ids: string[]) {
    return this.held()?.responseItems(ids) ?? ABSENT.responseItems();
  }
  deleteResponse(id: string) {
    return this.held()?.deleteResponse(id) ?? ABSENT.deleteResponse();
  }
  pointResponse(id: string, object: string) {
    return this.create().pointResponse(id, object);
  }
  responsePointer(id: string) {
    return this.held()?.responsePointer(id) ?? ABSENT.responsePointer();
  }
  forgetResponsePointer(id: string) {
    return this.held()?.forgetResponsePointer(id);
  }
  count(key: string) {
    return this.create().count(key);
  }
}
