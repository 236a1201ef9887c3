import { describe, expect, it } from "vitest";
import { firstCompleted, together } from "../../src/util/first-occurrence";

/** The reference: one indexOf per string, the occurrence complete first (ties: the earlier start). */
function reference(text: string, strings: readonly string[]): { at: number; text: string } | undefined {
  let best: { at: number; text: string } | undefined;
  for (const s of strings) {
    if (s === "") continue;
    const at = text.indexOf(s);
    if (at < 0) continue;
    if (best === undefined || at + s.length < best.at + best.text.length || (at + s.length === best.at + best.text.length && at < best.at)) best = { at, text: s };
  }
  return best;
}

describe("firstCompleted", () => {
  it("finds the string complete first, the longer of two completing together, none for empty or absent strings", () => {
    expect(firstCompleted("abcd", ["bcd", "c"])).toEqual({ at: 2, text: "c" });
    expect(firstCompleted("abcd", ["cd", "bcd"])).toEqual({ at: 1, text: "bcd" });
    expect(firstCompleted("abcd", ["x", "", "abcde"])).toBeUndefined();
    expect(together("abcd", ["bcd", "c"])).toEqual({ at: 2, text: "c" });
    expect(together("abcd", ["cd", "bcd", "d"])).toEqual({ at: 1, text: "bcd" });
    expect(together("xxabab", ["aba", "bab", "b"])).toEqual({ at: 3, text: "b" });
    expect(together("she sells", ["he", "she", "hers", "s"])).toEqual({ at: 0, text: "s" });
    expect(together("👋 hi", ["\udc4b", "hi"])).toEqual({ at: 1, text: "\udc4b" });
  });

  it("the automata give the reference's answer on random texts and strings, in one group and in many", () => {
    let seed = 11;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const alphabet = ["a", "b", "c", "\ud83d", "\udc4b", "\u00e9"];
    for (let round = 0; round < 1500; round++) {
      const letters = 1 + rnd(alphabet.length);
      let text = "";
      for (let i = rnd(60); i > 0; i--) text += alphabet[rnd(letters)];
      const strings = new Set<string>();
      for (let j = 1 + rnd(12); j > 0; j--) {
        let s = "";
        for (let i = 1 + rnd(6); i > 0; i--) s += alphabet[rnd(letters)];
        strings.add(s);
      }
      const want = reference(text, [...strings]);
      expect(together(text, [...strings])).toEqual(want);
      expect(together(text, [...strings], 1 + rnd(8))).toEqual(want); // groups of a few characters
      expect(firstCompleted(text, [...strings, ""])).toEqual(want);
    }
  });

  it("searches thousands of strings against a long text together: the same answer as the reference", () => {
    const text = "word ".repeat(20_000);
    const absent = Array.from({ length: 2_000 }, (_, i) => `word word ${i}`);
    expect(firstCompleted(text, absent)).toBeUndefined();
    expect(firstCompleted(text, [...absent, "word word word"])).toEqual({ at: 0, text: "word word word" });
    expect(firstCompleted(`${text}end`, [...absent, "wend", "d end"])).toEqual(reference(`${text}end`, ["wend", "d end"]));
  });
});
