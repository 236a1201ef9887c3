import { describe, expect, it } from "vitest";
import { LOREM_WORDS, MAX_WORDS, MIN_WORDS, lorem, loremLength } from "../../src/default/lorem";
import { wordCount } from "../../src/util/text";

describe("lorem", () => {
  it("cuts the fixed word list in order", () => {
    expect(lorem(0)).toBe("");
    expect(lorem(1)).toBe("lorem");
    expect(lorem(5)).toBe("lorem ipsum dolor sit amet");
  });

  it("cycles the list for long answers and has exactly the asked number of words", () => {
    const n = LOREM_WORDS.length;
    const words = lorem(n + 2).split(" ");
    expect(words).toHaveLength(n + 2);
    expect(words.slice(n)).toEqual(["lorem", "ipsum"]);
    expect(wordCount(lorem(500))).toBe(500);
  });
});

describe("loremLength = 5 + |stableHash(message)| % 496", () => {
  it.each([
    // FNV-1a("hello") = 0x4f9f2cab = 1335831723; 1335831723 % 496 = 59
    { message: "hello", words: 64 },
    // FNV-1a("") = offset basis 0x811c9dc5, signed -2128831035; 2128831035 % 496 = 27
    { message: "", words: 32 },
    { message: "Hello there", words: 44 },
    { message: "ping", words: 430 },
  ])("$message → $words words", ({ message, words }) => {
    expect(loremLength(message)).toBe(words);
  });

  it("stays within 5…500 for many messages", () => {
    for (let i = 0; i < 2000; i++) {
      const n = loremLength(`message ${i}`);
      expect(n).toBeGreaterThanOrEqual(MIN_WORDS);
      expect(n).toBeLessThanOrEqual(MAX_WORDS);
    }
  });
});
