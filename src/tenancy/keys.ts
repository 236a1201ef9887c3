/**
 * Namespace keys: `mk_{id}_{secret}`. The id (12 hex) names the key in listings, journals and the audit log; the
 * secret (48 hex) is shown once, at creation. Only SHA-256 of the whole key is stored, compared in constant time.
 */

import { hex, sameHash, sha256Hex } from "../util/hash";

export { SCOPES, type Scope } from "../session/caller";

const KEY_PATTERN = /^mk_([0-9a-f]{12})_([0-9a-f]{48})$/;

/** Whether a credential is meant as a namespace key (it need not be well formed: a malformed one is refused). */
export function isNamespaceKey(value: string): boolean {
  return value.startsWith("mk_");
}

/** The id of a well-formed key, or undefined. */
export function keyIdOf(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1];
}

function randomHex(bytes: number): string {
  return hex(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A fresh key and its id. */
export function mintKey(): { id: string; key: string } {
  const id = randomHex(6);
  return { id, key: `mk_${id}_${randomHex(24)}` };
}

/** SHA-256 of the key, hex: all that is stored of it. */
export function hashKey(key: string): Promise<string> {
  return sha256Hex(key);
}

/** Key hashes compare in constant time (src/util/hash.ts), as the admin token does. */
export { sameHash };

/** Compared against when a key's id is unknown, so an unknown id costs what a wrong secret costs. */
export const NO_HASH = "0".repeat(64);

/** A short random tag, for a namespace's storage generation (a re-created name starts empty). */
export function generation(): string {
  return randomHex(4);
}

/** The header the journal shows the key id under (set by the scoped sessions; a client's own is dropped). */
export { KEY_ID_HEADER } from "../http/body";

/** Whether a request header's value carries a namespace key (`Bearer mk_…`, or `mk_…` in any key header). */
export function carriesNamespaceKey(value: string): boolean {
  return /^(Bearer\s+)?mk_/i.test(value.trim());
}
