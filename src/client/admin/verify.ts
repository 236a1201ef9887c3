/**
 * A one-line assertion for test suites: the session did what the script says, or the test fails with a message
 * that says what went wrong (the server's verify summary) and the inspector link to the session.
 */
import type { AdminClient } from "./client";
import { isLoopback } from "./inspector-link";
import type { VerifyResult } from "./types";

/** Thrown when a session fails verification; the message is the verify summary, then the inspector link. */
export class MockLLMVerifyError extends Error {
  override readonly name = "MockLLMVerifyError";

  constructor(
    readonly result: VerifyResult,
    /** The inspector page on the session (with the key only for a server on this machine). */
    readonly inspectorURL?: string,
  ) {
    super(inspectorURL === undefined ? result.summary : `${result.summary}\n\ninspector: ${inspectorURL}`);
  }
}

/** The link a verify failure prints: with the key for a server on this machine, without it for a shared one. */
export function failureLink(admin: AdminClient, scenario: string, session: string): string {
  return admin.inspectorURL(scenario, session, { key: isLoopback(admin.url) });
}

/**
 * Verifies a session and throws `MockLLMVerifyError` (message: the summary and the inspector link) unless it passed.
 * @example await assertVerified(mock, "weather", "run-1") // or assertVerified(adminClient, …)
 */
export async function assertVerified(target: AdminClient | { admin: AdminClient }, scenario: string, session = "default", options: { allowUnused?: readonly string[] } = {}): Promise<VerifyResult> {
  const admin = "admin" in target ? target.admin : target;
  const result = await admin.verify(scenario, session, options);
  if (!result.ok) throw new MockLLMVerifyError(result, failureLink(admin, scenario, session));
  return result;
}
