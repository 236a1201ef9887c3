/**
 * Who is calling: the namespace key among the credentials a request carries, verified against the registry. The
 * registry's answer per key id (the key's record, or "unknown") is cached per isolate (process) for at most
 * KEY_CACHE_MS, so a revoked key is refused everywhere within 5 seconds, and a flood of keys costs at most one
 * registry lookup per distinct well-formed id per window (malformed keys: none). Only resolved values are cached,
 * never a pending lookup.
 */
import { headerRecord } from "../http/headers";
import type { Runtime } from "../runtime/types";
import { hashKey, isNamespaceKey, keyIdOf, NO_HASH, sameHash } from "./keys";
import type { Caller, NamespaceRecord, StoredKey } from "./types";
import { namespaceExpired } from "../session/caller";

/** Longest a registry answer (a key's record, or "no such id") is trusted without asking the registry again. */
export const KEY_CACHE_MS = 4_000;
/** Key ids whose record this isolate holds; a flood of unknown ids has its own bound and never evicts these. */
const KNOWN_LIMIT = 1_000;
/** Unknown key ids remembered (the oldest go first): N distinct random ids cost at most N lookups per window. */
export const UNKNOWN_LIMIT = 10_000;

type Found = { key: StoredKey; namespace: NamespaceRecord };
const known = new Map<string, { at: number; found: Found }>();
const unknown = new Map<string, number>();

/** Forgets every cached key (after a revocation or namespace deletion in this isolate). */
export function forgetKeys(): void {
  known.clear();
  unknown.clear();
}

function remember<V>(map: Map<string, V>, limit: number, id: string, value: V): void {
  map.delete(id);
  if (map.size >= limit) map.delete(map.keys().next().value!);
  map.set(id, value);
}

/**
 * The registry's answer for a key id, from this isolate's cache when younger than KEY_CACHE_MS. Malformed keys have
 * no id and never reach the registry.
 */
async function lookup(rt: Runtime, id: string | undefined, now: number): Promise<Found | null> {
  if (id === undefined) return null;
  const hit = known.get(id);
  if (hit && now - hit.at < KEY_CACHE_MS) return hit.found;
  const miss = unknown.get(id);
  if (miss !== undefined && now - miss < KEY_CACHE_MS) return null;
  const found = await rt.tenancy!.registry.lookupKey(id);
  if (found) {
    unknown.delete(id);
    remember(known, KNOWN_LIMIT, id, { at: Date.now(), found });
  } else {
    known.delete(id);
    remember(unknown, UNKNOWN_LIMIT, id, Date.now());
  }
  return found;
}

const WS_KEY_PROTOCOL = "openai-insecure-api-key.";

/**
 * Every credential a request carries where SDKs put API keys: `Authorization: Bearer`, `x-api-key`,
 * `x-goog-api-key`, `api-key` (Azure OpenAI's), `?key=`, and a WebSocket subprotocol `openai-insecure-api-key.{key}`.
 * Distinct values only.
 */
export function credentialValues(request: Request, query?: URLSearchParams): string[] {
  const out: string[] = [];
  const add = (v: string | null | undefined) => {
    const t = v?.trim();
    if (t && !out.includes(t)) out.push(t);
  };
  const headers = headerRecord(request.headers);
  const auth = headers.authorization;
  // "Bearer <key>" as the SDKs send it is read without the expression (`add` trims what follows the space).
  if (auth !== undefined) add(auth.startsWith("Bearer ") ? auth.slice(7) : /^Bearer\s+(.+)$/i.exec(auth.trim())?.[1]);
  add(headers["x-api-key"]);
  add(headers["x-goog-api-key"]);
  add(headers["api-key"]);
  if (query) add(query.get("key"));
  else if (request.url.includes("key=")) add(new URL(request.url).searchParams.get("key"));
  // Gemini Live's ephemeral token (`?access_token=auth_tokens/…`).
  if (request.url.includes("access_token=auth_tokens")) add((query ?? new URL(request.url).searchParams).get("access_token"));
  // Browsers cannot set headers on a WebSocket: OpenAI's Realtime clients send the key as a subprotocol.
  const protocols = headers["sec-websocket-protocol"];
  if (protocols !== undefined) {
    for (const p of protocols.split(",")) if (p.trim().startsWith(WS_KEY_PROTOCOL)) add(p.trim().slice(WS_KEY_PROTOCOL.length));
  }
  return out;
}

export type Resolution =
  /** No namespace key: the implicit `default` namespace. */
  | { kind: "default" }
  | { kind: "caller"; caller: Caller }
  /** Unknown, revoked or malformed key, or credentials that disagree. */
  | { kind: "refused"; message: string };

/**
 * The secret that last matched a key record this isolate holds, with the caller it resolved to: the same secret again
 * is compared (in constant time) instead of hashed — a SHA-256 per request was ~60 µs of a Worker's turn. Kept with the
 * record (a new registry answer is a new record, hashed again once); a key's stored hash never changes.
 */
const verified = new WeakMap<Found, { secret: string; caller: Caller }>();

async function verify(rt: Runtime, key: string): Promise<Caller | null> {
  const found = await lookup(rt, keyIdOf(key), Date.now());
  const seen = found !== null ? verified.get(found) : undefined;
  if (seen !== undefined && sameHash(seen.secret, key)) return namespaceExpired(seen.caller.namespace, Date.now()) ? null : seen.caller;
  // Unknown ids and wrong secrets take the same path: hash, compare against a stored (or dummy) hash.
  const ok = sameHash(await hashKey(key), found?.key.hash ?? NO_HASH) && found !== null;
  if (!ok || namespaceExpired(found.namespace, Date.now())) return null;
  const caller: Caller = { namespace: found.namespace, keyId: found.key.id, scope: found.key.scope };
  verified.set(found, { secret: key, caller });
  return caller;
}

/**
 * Resolves the credentials of one request. Several credentials that disagree, where one is a namespace key, are
 * refused (which namespace was meant is not guessed).
 */
export async function resolveCaller(rt: Runtime, values: string[]): Promise<Resolution> {
  const keys = values.filter(isNamespaceKey);
  if (keys.length === 0 || !rt.tenancy) return { kind: "default" };
  if (values.length > 1) return { kind: "refused", message: "conflicting credentials: the request carries different keys" };
  const caller = await verify(rt, keys[0]!);
  return caller ? { kind: "caller", caller } : { kind: "refused", message: "invalid or revoked mockllm key" };
}

/**
 * The caller a namespace key id stands for, without its secret: what an ephemeral key minted with that key carries
 * (src/tenancy/ephemeral.ts). Null when the key was revoked or its namespace deleted.
 */
export async function callerOfKeyId(rt: Runtime, id: string): Promise<Caller | null> {
  if (!rt.tenancy || !/^[0-9a-f]{12}$/.test(id)) return null;
  const found = await lookup(rt, id, Date.now());
  return found && !namespaceExpired(found.namespace, Date.now()) ? { namespace: found.namespace, keyId: found.key.id, scope: found.key.scope } : null;
}
