import { describe, expect, it } from "vitest";
import { isoAt } from "../../src/session/core";

describe("isoAt (the journal's `at`)", () => {
  it("reads as new Date(ms).toISOString() for every millisecond of a second, across seconds and years", () => {
    const cases = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, -1, -999, -1000, 1.5, 999.9, 1_764_670_000_123, 1_764_670_000_005, 1_764_670_001_050, 253_402_300_799_999, 253_402_300_800_000];
    for (let ms = 1_764_670_000_000; ms < 1_764_670_001_000; ms++) cases.push(ms);
    for (const ms of cases) expect([ms, isoAt(ms)]).toEqual([ms, new Date(ms).toISOString()]);
    // Asked again in another order: the remembered second and millisecond never leak into a different one.
    for (const ms of [...cases].reverse()) expect([ms, isoAt(ms)]).toEqual([ms, new Date(ms).toISOString()]);
  });

  it("throws as toISOString does for a time that is not one", () => {
    expect(() => isoAt(Number.NaN)).toThrow(RangeError);
    expect(() => isoAt(8.64e15 + 1)).toThrow(RangeError);
  });
});
