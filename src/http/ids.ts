/**
 * Deterministic ids: the same (scenario, session, step, attempt) always yields the same ids.
 */
import { stableHex, stableToken } from "./hash";

/** `prefix` + `length` base62 characters derived from `seed`. */
export function makeId(prefix: string, seed: string, length = 24): string {
  return `${prefix}${stableToken(`${prefix}|${seed}`, length)}`;
}

/** A request id such as `req_3f…` (hex, like the real APIs). */
export function makeRequestId(seed: string): string {
  return `req_${stableHex(`req|${seed}`, 32)}`;
}

/** Id of the `index`-th tool call of a reply, unless scripted. */
export function toolCallId(prefix: string, idSeed: string, index: number, scripted?: string): string {
  return scripted ?? makeId(prefix, `${idSeed}#tool${index}`);
}
