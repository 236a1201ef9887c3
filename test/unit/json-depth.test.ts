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
