/** `compareNames` (scenario/names.ts): `localeCompare`'s order for names, by code unit where that is the same order. */
import { describe, expect, it } from "vitest";
import { compareNames } from "../../src/scenario/names";
import { seededRandom, stableHash } from "../../src/util/hash";

const sign = (n: number) => Math.sign(n);

/** `count` strings of up to 6 characters from `alphabet`, from a fixed seed. */
function names(alphabet: string, count: number, seed: string): string[] {
  const next = seededRandom(stableHash(seed));
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * 7) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(""));
}

describe("compareNames", () => {
  it("orders scenario and file names as localeCompare does", () => {
    const pool = names("abyz0189.-", 600, "names");
    let compared = 0;
    for (let i = 0; i + 1 < pool.length; i++) {
      for (const j of [i + 1, pool.length - 1 - i]) {
        expect([pool[i], pool[j], sign(compareNames(pool[i]!, pool[j]!))]).toEqual([pool[i], pool[j], sign(pool[i]!.localeCompare(pool[j]!))]);
        compared++;
      }
    }
    expect(compared).toBe(1198);
    expect(["b.json", "a-1.json", "a.json", "a10.json", "a9.json", "ab.json"].sort(compareNames)).toEqual(["a-1.json", "a.json", "a10.json", "a9.json", "ab.json", "b.json"]);
  });

  it("leaves other text to localeCompare (an underscore, capitals, accents)", () => {
    for (const [a, b] of [
      ["a_b", "a1"],
      ["B.json", "a.json"],
      ["é", "f"],
      ["a_b", "a-b"],
    ] as const) {
      expect(sign(compareNames(a, b))).toBe(sign(a.localeCompare(b)));
    }
    expect(sign(compareNames("a_b", "a1"))).toBe(-1); // by code unit "_" (0x5f) would come after "1" (0x31)
    expect(sign(compareNames("B.json", "a.json"))).toBe(1);
  });
});
