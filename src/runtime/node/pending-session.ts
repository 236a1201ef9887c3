/**
 * A Node session name that holds nothing yet: reads answer from the session if one was created since, else from
 * `ABSENT`, and keep nothing; the first write (a request, an MCP message, a recording, an index note, a stored
 * response: members.ts) creates the session. So a read of a typo creates no session object (contract section 10).
 */
import { ABSENT } from "../../session/absent";
import { call, sessionByKind } from "../../session/members";
import type { Session } from "../../session/types";

/**
 * @param held the session if it exists now (created by another request since), without creating it
 * @param create the session, created on first use
 * @example pendingSession(() => sessions.get(name), () => create(name)).requests() // [] and nothing created
 */
export function pendingSession(held: () => Session | undefined, create: () => Session): Session {
  return sessionByKind({
    read: (member, args) => call(held() ?? ABSENT, member, args),
    write: (member, args) => call(create(), member, args),
  });
}
