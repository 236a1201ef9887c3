import { describe, expect, it } from "vitest";
import { ECHO_MAX_CHARS, echoed, echoedValue } from "../../src/util/text";

describe("echoed and echoedValue: a client's value as an error message quotes it", () => {
  it("a string verbatim up to the limit, else its start and '...', never half a surrogate pair", () => {
    expect(echoed("static")).toBe("static");
    expect(echoed("x".repeat(ECHO_MAX_CHARS))).toBe("x".repeat(ECHO_MAX_CHARS));
    expect(echoed("x".repeat(ECHO_MAX_CHARS + 1))).toBe(`${"x".repeat(ECHO_MAX_CHARS)}...`);
    expect(echoed(`${"x".repeat(ECHO_MAX_CHARS - 1)}😀y`)).toBe(`${"x".repeat(ECHO_MAX_CHARS - 1)}...`);
  });

  it("anything else as its JSON, cut the same way; an object with its own toString does not throw", () => {
    expect(echoedValue("static")).toBe("static");
    expect(echoedValue({ toString: 1 })).toBe('{"toString":1}');
    expect(echoedValue([{ toString: 1 }])).toBe('[{"toString":1}]');
    expect(echoedValue(7)).toBe("7");
    expect(echoedValue(null)).toBe("null");
    expect(echoedValue(true)).toBe("true");
    expect(echoedValue(undefined)).toBe("undefined");
    expect(echoedValue({ a: "x".repeat(100) })).toBe(`${'{"a":"'}${"x".repeat(ECHO_MAX_CHARS - 6)}...`);
  });
});
