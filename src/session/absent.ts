/**
 * What a session object that does not exist answers (contract section 10, "Admin reads"): every read answers empty
 * and nothing is created. Both runtimes answer from here for a name that never received a write, so a read of a
 * typo, or of a name another namespace uses, neither creates state nor tells the two apart.
 */
import { stepId, type Scenario } from "../scenario/schema";
import type { JournalEntry, SessionView } from "./core";
import { mcpCallsView } from "./mcp";
import type { RecordedStep } from "./recording";
import type { ReadMember } from "./members";
import type { ResponseHistory, StoredObject } from "./responses";
import type { SyncSession } from "./types";

/** The reads of the `Session` interface (members.ts), answered for an object that holds nothing. */
export const ABSENT = {
  exists: (): boolean => false,
  /** The current document's steps (and MCP calls), all unused; no version, no request. */
  state(current?: Scenario): SessionView {
    const view: SessionView = {
      version: null,
      steps: (current?.steps ?? []).map((step, index) => ({ id: stepId(step, index), used: false, attempts: 0, attemptsByProvider: {} })),
      requests: 0,
      lastAt: null,
    };
    const calls = mcpCallsView(current, { used: [], attempts: {} });
    return calls.length > 0 ? { ...view, mcpCalls: calls } : view;
  },
  requests: (): JournalEntry[] => [],
  /** Nothing to forget: answered as a reset, and nothing is created. */
  reset: (): { reset: true } => ({ reset: true }),
  recording: (): RecordedStep[] => [],
  closeMcp: (): boolean => false,
  members: (): { key: string; at: string }[] => [],
  /** Nothing to forget. */
  forgetMember: (): void => {},
  responseById: (): string | null => null,
  responseHistory: (id: string): ResponseHistory => ({ segments: [], missing: id }),
  responseItems: (): Record<string, string> => ({}),
  deleteResponse: (): boolean => false,
  responsePointer: (): string | null => null,
  forgetResponsePointer: (): void => {},
  objectById: (): string | null => null,
  listObjects: (): StoredObject[] => [],
  deleteObject: (): boolean => false,
} satisfies Pick<SyncSession, ReadMember>;
