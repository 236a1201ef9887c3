import { describe, expect, it } from "vitest";
import { jsonDepthExceeded, MAX_JSON_DEPTH, parseJsonBounded, tooDeepMessage } from "../../src/http/json-depth";

const nested = (n: number) => "[".repeat(n) + "]".repeat(n);

describe("jsonDepthExceeded", () => {
  it.each([
    ["{}", 1, -1],
    ['{"a":[1,{"b":2}]}', 3, -1],
    ['{"a":[1,{"b":2}]}', 2, 8],
    ["[[1]]", 1, 1],
    ['{"s":"[[[[{{{{"}', 1, -1],
    ['{"s":"\\"[[[["}', 1, -1],
    ['{"s":"\\\\"}', 1, -1],
    ['{"s":"\\\\",[[', 2, 11],
    ['["\\u005b[",[]]', 1, 11],
    ["not json [ at all", 0, 9],
  ])("%s with limit %i → %i", (text, limit, at) => {
    expect(jsonDepthExceeded(text, limit)).toBe(at);
  });

  it("agrees with a character-by-character scan on 3,000 seeded texts (escapes, backslash runs, brackets in strings, unterminated strings)", () => {
    // The scan before strings were passed over with indexOf: every character, a backslash skipping the next one.
    const reference = (text: string, limit: number): number => {
      let depth = 0;
      let inString = false;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (inString) {
          if (c === 0x5c) i++;
          else if (c === 0x22) inString = false;
        } else if (c === 0x22) inString = true;
        else if (c === 0x7b || c === 0x5b) {
          if (++depth > limit) return i;
        } else if (c === 0x7d || c === 0x5d) depth--;
      }
      return -1;
    };
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = ['"', "\\", "\\", "[", "]", "{", "}", "a", ":", ",", '\\"', "\\\\", " "];
    let deep = 0;
    for (let n = 0; n < 3000; n++) {
      const length = 1 + Math.floor(next() * 400);
      let text = "";
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      const limit = Math.floor(next() * 6);
      const want = reference(text, limit);
      if (want >= 0) deep++;
      expect([text, jsonDepthExceeded(text, limit)]).toEqual([text, want]);
    }
    expect(deep).toBeGreaterThan(300); // both outcomes are exercised
  });

  it("scans 10,000 levels, and 10 MB, without recursion", () => {
    expect(jsonDepthExceeded(nested(10_000))).toBe(MAX_JSON_DEPTH);
    expect(jsonDepthExceeded(nested(MAX_JSON_DEPTH))).toBe(-1);
    expect(jsonDepthExceeded(nested(MAX_JSON_DEPTH + 1))).toBe(MAX_JSON_DEPTH);
    expect(jsonDepthExceeded(`{"a":"${"x".repeat(10_000_000)}"}`)).toBe(-1);
  });

  it("parseJsonBounded parses within the limit and throws a SyntaxError naming it beyond", () => {
    expect(parseJsonBounded('{"a":[1]}')).toEqual({ a: [1] });
    expect(() => parseJsonBounded(nested(200))).toThrow(new SyntaxError(tooDeepMessage("The JSON text", 128)));
    expect(() => parseJsonBounded("{")).toThrow(SyntaxError);
    expect(tooDeepMessage("The request body", 130)).toBe("The request body nests objects and arrays deeper than 128 levels (at character 130); mockllm accepts at most 128 levels of nesting.");
  });
});
