/**
 * A one-line assertion for test suites: the session did what the script says, or the test fails with a message
 * that says what went wrong (the server's verify summary).
 */
import type { AdminClient } from "./client";
import type { VerifyResult } from "./types";

/** Thrown when a session fails verification; the message is the verify summary. */
export class MockLLMVerifyError extends Error {
  override readonly name = "MockLLMVerifyError";

  constructor(readonly result: VerifyResult) {
    super(result.summary);
  }
}

/**
 * Verifies a session and throws `MockLLMVerifyError` (message: the summary) unless it passed.
 * @example await assertVerified(mock, "weather", "run-1") // or assertVerified(adminClient, …)
 */
export async function assertVerified(
  target: AdminClient | { admin: AdminClient },
  scenario: string,
  session = "default",
  options: { allowUnused?: readonly string[] } = {},
): Promise<VerifyResult> {
  const admin = "admin" in target ? target.admin : target;
  const result = await admin.verify(scenario, session, options);
  if (!result.ok) throw new MockLLMVerifyError(result);
  return result;
}
