import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { randomAdminToken } from "../../src/client/testing/admin-token";

describe("randomAdminToken", () => {
  // One base64url token in 64 begins with "-": over 3,000 draws the old token would have begun with one ~47 times.
  const tokens = Array.from({ length: 3000 }, () => randomAdminToken());

  it("is 24 base64url characters, the first never a dash", () => {
    const shape = /^[A-Za-z0-9_][A-Za-z0-9_-]{23}$/;
    expect(tokens.filter((t) => !shape.test(t))).toStrictEqual([]);
    expect(new Set(tokens).size).toBe(3000);
    // The dash stays in the alphabet after the first character (the bits are base64url's, not a narrower set's).
    expect(tokens.some((t) => t.includes("-"))).toBe(true);
  });

  it("reads as an option's value on a command line (`mockllm push --token TOKEN`)", () => {
    const read = tokens.map((token) => parseArgs({ args: ["--token", token], options: { token: { type: "string" } } }).values.token);
    expect(read).toStrictEqual(tokens);
  });
});
