import { describe, expect, it } from "vitest";
import { own } from "../../src/util/own";

describe("own", () => {
  it("reads a table's own entries and nothing its prototype holds", () => {
    const table = { wav: "audio/wav", mp3: "audio/mpeg" };
    expect(own(table, "wav")).toBe("audio/wav");
    for (const key of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf", ""]) expect(own(table, key)).toBeUndefined();
    // A key a client's JSON made its own is read like any other.
    expect(own(JSON.parse('{"__proto__":5,"toString":6}') as Record<string, number>, "__proto__")).toBe(5);
    expect(own(Object.create(null) as Record<string, number>, "x")).toBeUndefined();
  });
});
