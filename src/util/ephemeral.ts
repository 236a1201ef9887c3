/**
 * Ephemeral keys (contract section 11): OpenAI Realtime's client secrets (`ek_…`) and Gemini Live's auth tokens
 * (`auth_tokens/…`), minted by a backend with its own key and handed to a browser. Stateless, so both runtimes honour
 * them without storage: the token carries what it is bound to (the minting key's namespace key id, the scenario and
 * session of the request that minted it, the protocol it opens, its expiry) and an HMAC-SHA256 over that, keyed by a
 * server secret (`EPHEMERAL_KEY_SECRET`, else the admin token). A token cannot be altered without the secret; revoking
 * the key that minted it revokes the token with it (the key id is looked up on use).
 */
import { base64url, fromBase64 } from "./base64";
import { hex, sameHash } from "./hash";

/** What a token is bound to. */
export interface EphemeralClaims {
  /** The socket protocol it opens (`realtime`, `live`). */
  kind: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** Minted, seconds since the epoch. */
  iat: number;
  /** The namespace key id of the key that minted it; absent: the default namespace. */
  key?: string;
  /** The scenario and session of the minting request's `/s/{scenario}[/{session}]` prefix. */
  scenario?: string;
  session?: string;
  /** The model the session was configured with, if any. */
  model?: string;
  /** Gemini: the last time a new session may start with it (seconds since the epoch). */
  newSessionExp?: number;
  /** Realtime: the session configuration the key carries (laid over the socket's defaults when it opens). */
  config?: Record<string, unknown>;
}

export type EphemeralRead = { ok: true; claims: EphemeralClaims } | { ok: false; reason: "invalid" | "expired" };

const PREFIXES = ["ek_", "auth_tokens/"] as const;
export type EphemeralPrefix = (typeof PREFIXES)[number];

/** Whether a credential is meant as an ephemeral key (it need not be valid). */
export function isEphemeralKey(value: string): boolean {
  return value.startsWith("ek_") || value.startsWith("auth_tokens/");
}

async function mac(secret: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(`mockllm-ephemeral:${secret}`), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body))));
}

/**
 * A signed token carrying `claims`.
 * @example await mintEphemeral("ek_", secret, { kind: "realtime", iat, exp: iat + 600 }) // "ek_eyJ…"
 */
export async function mintEphemeral(prefix: EphemeralPrefix, secret: string, claims: EphemeralClaims): Promise<string> {
  const body = base64url(new TextEncoder().encode(JSON.stringify(claims)));
  return `${prefix}${body}.${(await mac(secret, body)).slice(0, 32)}`;
}

/** The claims of a token this server signed, unless it is altered, malformed or past `exp` at `nowSeconds`. */
export async function readEphemeral(secret: string, token: string, nowSeconds: number): Promise<EphemeralRead> {
  const prefix = PREFIXES.find((p) => token.startsWith(p));
  if (prefix === undefined || token.length > 4096) return { ok: false, reason: "invalid" };
  const [body, sig, ...rest] = token.slice(prefix.length).split(".");
  if (body === undefined || sig === undefined || rest.length > 0) return { ok: false, reason: "invalid" };
  if (!sameHash((await mac(secret, body)).slice(0, 32), sig)) return { ok: false, reason: "invalid" };
  const bytes = fromBase64(body);
  if (bytes === undefined) return { ok: false, reason: "invalid" };
  let claims: EphemeralClaims;
  try {
    claims = JSON.parse(new TextDecoder().decode(bytes)) as EphemeralClaims;
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if (typeof claims.exp !== "number" || typeof claims.kind !== "string") return { ok: false, reason: "invalid" };
  if (nowSeconds >= claims.exp) return { ok: false, reason: "expired" };
  return { ok: true, claims };
}

/** The secret tokens are signed with: `EPHEMERAL_KEY_SECRET`, else the admin token (a server without either has no namespaces to guard). */
export function ephemeralSecret(vars: { EPHEMERAL_KEY_SECRET?: string; ADMIN_TOKEN?: string }): string {
  return vars.EPHEMERAL_KEY_SECRET || vars.ADMIN_TOKEN || "mockllm-ephemeral-keys";
}
