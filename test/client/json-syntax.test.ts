import { describe, expect, it } from "vitest";
import { findJsonSyntaxError } from "../../src/client/cli/json-syntax";

describe("findJsonSyntaxError", () => {
  it.each([
    { text: '{"a": 1, "b": [true, null, -1.5e3, "x\\n\\u00e9"]}', want: undefined },
    { text: "  []  ", want: undefined },
    { text: '{"a": }', want: { line: 1, column: 7, message: 'expected a value, found "}"' } },
    { text: '{\n  "name": "x",\n  "steps": [\n}', want: { line: 4, column: 1, message: 'expected a value, found "}"' } },
    { text: '{"a": 1,}', want: { line: 1, column: 9, message: 'expected a string, found "}"' } },
    { text: '{"a" 1}', want: { line: 1, column: 6, message: 'expected ":", found "1"' } },
    { text: "[1 2]", want: { line: 1, column: 4, message: 'expected "," or "]", found "2"' } },
    { text: '{"a": 1', want: { line: 1, column: 8, message: 'expected "," or "}", found end of file' } },
    { text: '"abc', want: { line: 1, column: 5, message: "unterminated string" } },
    { text: '"a\\qb"', want: { line: 1, column: 4, message: "invalid escape in string" } },
    { text: '"a\tb"', want: { line: 1, column: 3, message: "control character in string (use an escape such as \\n)" } },
    { text: "{} x", want: { line: 1, column: 4, message: 'unexpected "x" after the JSON value' } },
    { text: "{'a': 1}", want: { line: 1, column: 2, message: 'expected a string, found "\'"' } },
    { text: "", want: { line: 1, column: 1, message: "expected a value, found end of file" } },
  ])("$text", ({ text, want }) => {
    expect(findJsonSyntaxError(text)).toStrictEqual(want);
    // It agrees with JSON.parse on what is valid.
    expect(want === undefined).toBe(
      (() => {
        try {
          JSON.parse(text);
          return true;
        } catch {
          return false;
        }
      })(),
    );
  });
});
