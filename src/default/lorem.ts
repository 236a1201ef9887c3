/**
 * Deterministic lorem text for the default responder (contract section 7): a fixed word list, cycled.
 */
import { stableHash } from "../util/hash";

/** The fixed word list every lorem answer is cut from, in order. */
export const LOREM_WORDS: readonly string[] = (
  "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore " +
  "magna aliqua ut enim ad minim veniam quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo " +
  "consequat duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla " +
  "pariatur excepteur sint occaecat cupidatat non proident sunt in culpa qui officia deserunt mollit anim id est laborum"
).split(" ");

/** Smallest and largest lorem answer, in words. */
export const MIN_WORDS = 5;
export const MAX_WORDS = 500;

/**
 * `count` words of the list from word `start`, cycling, joined by single spaces.
 * @example lorem(3) // "lorem ipsum dolor"; lorem(2, 1) // "ipsum dolor"
 */
export function lorem(count: number, start = 0): string {
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(LOREM_WORDS[(start + i) % LOREM_WORDS.length]!);
  return words.join(" ");
}

/**
 * Words in the lorem answer to `message`: `5 + |stableHash(message)| % 496`, so always 5…500.
 * @example loremLength("hello") // the same number on every call
 */
export function loremLength(message: string): number {
  return MIN_WORDS + (Math.abs(stableHash(message)) % (MAX_WORDS - MIN_WORDS + 1));
}
