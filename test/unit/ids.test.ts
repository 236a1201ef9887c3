/**
 * Deterministic ids in the formats the real APIs use.
 */
import { describe, expect, it } from "vitest";
import { anthropicRequestId, makeRequestId, obfuscation, obfuscationAfter, obfuscationSeed, ollamaToolCallId } from "../../src/http/ids";
import { hashOn, stableHash } from "../../src/util/hash";

describe("provider id formats", () => {
  it("Anthropic request ids: req_011C + 20 base58 characters, stable per seed", () => {
    const id = anthropicRequestId("weather/run-1/0");
    expect(id).toMatch(/^req_011C[1-9A-HJ-NP-Za-km-z]{20}$/);
    expect(anthropicRequestId("weather/run-1/0")).toBe(id);
    expect(anthropicRequestId("weather/run-1/1")).not.toBe(id);
  });

  it("OpenAI request ids stay req_ + 32 hex", () => {
    expect(makeRequestId("x")).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it("Ollama tool-call ids: call_ + 8 of [a-z0-9]", () => {
    const ids = Array.from({ length: 50 }, (_, i) => ollamaToolCallId(`seed#tool${i}`));
    for (const id of ids) expect(id).toMatch(/^call_[a-z0-9]{8}$/);
    expect(new Set(ids).size).toBe(50);
    expect(ollamaToolCallId("seed#tool0")).toBe(ids[0]);
  });

  it("obfuscation: padding length from the bucket, characters from the seed", () => {
    expect(obfuscation("s", "Holiday", 10)).toHaveLength(3);
    expect(obfuscation("s", " dedicated", 10)).toBe("");
    expect(obfuscation("s", ",", 16)).toHaveLength(15);
    expect(obfuscation("s", "###", 16)).toBe(obfuscation("s", "abc", 16));
    expect(obfuscation("s", "###", 16)).not.toBe(obfuscation("t", "###", 16));
  });

  it("obfuscation after a shared prefix is the same padding as from the whole seed (values from the 64-bit hash)", () => {
    expect(obfuscation("chatcmpl-x#3", "Holiday", 10)).toBe("4Bx");
    expect(obfuscationAfter(obfuscationSeed("chatcmpl-x#"), "3", "Holiday", 10)).toBe("4Bx");
    expect(obfuscationAfter(obfuscationSeed("resp_1#"), "0", ",", 16)).toBe("zILr5hn0muHAfeD");
    expect(obfuscationAfter(obfuscationSeed(""), "resp_1#0", ",", 16)).toBe("zILr5hn0muHAfeD");
  });
});

describe("stableHash continued with hashOn", () => {
  it("hashes a prefix once and goes on: hashOn(stableHash(a), b) is stableHash(a + b)", () => {
    expect(stableHash("obf|chatcmpl-x#3")).toBe(360111107);
    expect(stableHash("")).toBe(-2128831035);
    expect(hashOn(stableHash("obf|chatcmpl-x#"), "3")).toBe(360111107);
    for (const [a, b] of [
      ["", ""],
      ["", "abc"],
      ["abc", ""],
      ["obf|", "é🙂x"],
      ["x".repeat(300), "#12"],
    ] as const) {
      expect(hashOn(stableHash(a), b)).toBe(stableHash(a + b));
    }
  });
});
