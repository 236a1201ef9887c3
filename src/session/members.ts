/**
 * What each `Session` member does to its object's storage: the one list a new member joins (the compiler asks for
 * it). The wrappers that change how a session is reached act on these kinds, never member by member: the Durable
 * Object (hosts/workers/session-object.ts), Node's session that does not exist yet (hosts/node/pending-session.ts)
 * and a namespace's sessions (tenancy/scope.ts).
 */
import type { JournaledInput } from "./caller";
import type { Session } from "./types";

/**
 * - `read`: creates nothing; an object that does not exist answers it from `ABSENT` (absent.ts).
 * - `write`: creates the object (and keeps it from expiring).
 * - `journal`: a write that journals a client's request; its input carries the caller (caller.ts), and a namespace
 *   charges it to its quotas.
 */
export type MemberKind = "read" | "write" | "journal";

export const MEMBERS = {
  exists: "read",
  next: "journal",
  state: "read",
  requests: "read",
  reset: "read",
  record: "journal",
  recording: "read",
  mcp: "journal",
  closeMcp: "read",
  noteMember: "write",
  members: "read",
  forgetMember: "read",
  increment: "write",
  saveResponse: "write",
  responseById: "read",
  responseHistory: "read",
  responseItems: "read",
  deleteResponse: "read",
  pointResponse: "write",
  responsePointer: "read",
  forgetResponsePointer: "read",
  putObjects: "write",
  objectById: "read",
  listObjects: "read",
  deleteObject: "read",
} as const satisfies Record<keyof Session, MemberKind>;

type Members = typeof MEMBERS;
type OfKind<K extends MemberKind> = { [M in keyof Members]: Members[M] extends K ? M : never }[keyof Members];
export type ReadMember = OfKind<"read">;
export type WriteMember = OfKind<"write">;
export type JournalMember = OfKind<"journal">;
type Journaled<T extends JournaledInput> = T;
/** What a journal member takes: a journaled input (checked: each one's single parameter extends it). */
export type JournalInput = Journaled<Parameters<Session[JournalMember]>[0]>;

/** How a wrapper answers each kind of member (args as the member got them). */
export interface ByKind {
  read(member: ReadMember, args: unknown[]): unknown;
  write(member: WriteMember | JournalMember, args: unknown[]): unknown;
  /** Absent: journal members are writes. */
  journal?(member: JournalMember, input: JournalInput): unknown;
}

type Method = (...args: unknown[]) => unknown;

/**
 * Calls `member` of `target` (a session, a Durable Object stub, `ABSENT`) with `args`.
 * @example call(session, "requests", [])
 */
export function call(target: object, member: keyof Session, args: unknown[]): unknown {
  const fn = Reflect.get(target, member) as Method;
  return Reflect.apply(fn, target, args);
}

/** A session whose every member goes to `by` by its kind; one allocation per session (the methods are shared). */
class SessionByKind {
  constructor(readonly by: ByKind) {}
}
for (const [member, kind] of Object.entries(MEMBERS) as [keyof Session, MemberKind][]) {
  const method: Method =
    kind === "read"
      ? function (this: SessionByKind, ...args) {
          return this.by.read(member as ReadMember, args);
        }
      : kind === "journal"
        ? function (this: SessionByKind, ...args) {
            return this.by.journal ? this.by.journal(member as JournalMember, args[0] as JournalInput) : this.by.write(member as JournalMember, args);
          }
        : function (this: SessionByKind, ...args) {
            return this.by.write(member as WriteMember, args);
          };
  Object.defineProperty(SessionByKind.prototype, member, { value: method });
}

/**
 * A session answered by kind of member.
 * @example sessionByKind({ read: (m, args) => call(held() ?? ABSENT, m, args), write: (m, args) => call(create(), m, args) })
 */
export function sessionByKind(by: ByKind): Session {
  return new SessionByKind(by) as unknown as Session;
}
