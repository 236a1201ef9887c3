/**
 * An ephemeral key among a request's credentials (src/util/ephemeral.ts): checked before anything else, since it is
 * valid only as what it was minted for. Altered or unknown: 401. Expired: 401. Minted with a namespace key: the
 * request runs in that namespace (refused once that key is revoked). The claims go on to the router, which opens
 * only the socket protocol the key names and plays the scenario and session it is bound to.
 */
import { apiError, type ApiError } from "../http/errors";
import type { Runtime } from "../runtime/types";
import { ephemeralSecret, readEphemeral, type EphemeralClaims } from "../util/ephemeral";
import { callerOfKeyId } from "./resolve";
import { scopeRuntime } from "./scope";

export type EphemeralGate = { ok: true; rt: Runtime; claims: EphemeralClaims } | { ok: false; error: ApiError; headers: Record<string, string> };

const REFUSED = { "x-mockllm-outcome": "error" };

function refused(message: string): EphemeralGate {
  return { ok: false, error: apiError("authentication", message), headers: REFUSED };
}

/**
 * Verifies `token` and resolves whose it is. `others`: the request's other credentials (a browser's sub-protocol and
 * a Bearer may both carry the same token; a different key beside it is refused, as for namespace keys).
 */
export async function gateEphemeral(rt: Runtime, token: string, others: string[]): Promise<EphemeralGate> {
  if (others.some((v) => v !== token)) return refused("mockllm: conflicting credentials: the request carries an ephemeral key and another key");
  const now = Math.floor(Date.now() / 1000);
  const read = await readEphemeral(ephemeralSecret(rt.vars), token, now);
  if (!read.ok) {
    return refused(
      read.reason === "expired"
        ? "The ephemeral key has expired. Mint a new one and connect with it."
        : "Incorrect API key provided: this ephemeral key was not issued by this server (or was altered).",
    );
  }
  const { claims } = read;
  if (claims.newSessionExp !== undefined && now >= claims.newSessionExp) return refused("The ephemeral token can no longer start new sessions (newSessionExpireTime has passed).");
  if (claims.key === undefined) return { ok: true, rt, claims };
  const caller = await callerOfKeyId(rt, claims.key);
  if (caller === null) return refused("mockllm: the namespace key that minted this ephemeral key was revoked, or its namespace deleted");
  return { ok: true, rt: scopeRuntime(rt, caller), claims };
}
