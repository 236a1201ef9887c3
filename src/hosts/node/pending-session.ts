/**
 * A Node session name that holds nothing yet: reads answer from the session if one was created since, else from
 * `ABSENT`, and keep nothing; the first write (a request, an MCP message, a recording, an index note, a stored
 * response: members.ts) creates the session. So a read of a typo creates no session object (contract section 10).
 */
import { ABSENT } from "../../session/absent";
import { call, sessionByKind, type ByKind, type ReadMember } from "../../session/members";
import type { Session } from "../../session/types";

/** Reads from the session if it exists now, else from ABSENT; writes to the session, created on first use. */
class Pending implements ByKind {
  /**
   * @param held the session if it exists now (created by another request since), without creating it
   * @param create the session, created on first use
   */
  constructor(
    private readonly held: () => Session | undefined,
    private readonly create: () => Session,
  ) {}

  read(member: ReadMember, args: unknown[]): unknown {
    return call(this.held() ?? ABSENT, member, args);
  }

  write(member: keyof Session, args: unknown[]): unknown {
    return call(this.create(), member, args);
  }
}

/**
 * A session name that holds nothing yet (see above).
 * @example pendingSession(() => sessions.get(name), () => create(name)).requests() // [] and nothing created
 */
export function pendingSession(held: () => Session | undefined, create: () => Session): Session {
  return sessionByKind(new Pending(held, create));
}
