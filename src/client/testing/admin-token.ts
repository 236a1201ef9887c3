/**
 * The admin token a started instance gets when none is given: 24 base64url characters (144 random bits) that never
 * begin with `-`. A command line reads a word beginning with a dash as an option, so `mockllm push --token -x…` was
 * refused as ambiguous (node's `parseArgs`) for one token in 64.
 */
import { randomBytes } from "node:crypto";

/** @example randomAdminToken() // "q3Vb…" (24 characters of [A-Za-z0-9_-], the first not "-") */
export function randomAdminToken(): string {
  for (;;) {
    const token = randomBytes(18).toString("base64url");
    if (!token.startsWith("-")) return token;
  }
}
