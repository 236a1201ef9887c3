/**
 * Ids come from a 64-bit hash (issue 51 point 10): a 32-bit one gives any id at most 2^32 values, so among n seeds
 * about n²/2³³ pairs share an id (≈ 7 among 250,000, ≈ 116 among a million). Widening changed the ids' values, never their format.
 */
import { describe, expect, it } from "vitest";
import { anthropicRequestId, makeId, makeRequestId, obfuscation, obfuscationAfter, obfuscationSeed, ollamaToolCallId } from "../../src/http/ids";
import { noSurrogates } from "../../src/util/text";
import { toolUseId } from "../../src/providers/anthropic/tool-use-ids";
import { thinkingSignature } from "../../src/providers/anthropic/thinking";
import { thoughtSignatureFor } from "../../src/providers/gemini/signatures";
import { seededRandom, stableHash, stableHash64, stableHex, stableToken, tokenAfter } from "../../src/util/hash";

const SEEDS = 250_000;

/** The seeds a busy suite makes: `{scenario}/{session}/{step}/{attempt}`, sessions named at random (as by uuids). */
function seeds(n: number): string[] {
  const next = seededRandom(51);
  const word = () => Math.floor(next() * 2 ** 32).toString(36);
  return Array.from({ length: n }, () => `weather/${word()}${word()}/0/0`);
}

/** A few thousand seeds differing in a few characters, for the format checks. */
function seed(i: number): string {
  return `weather/run-${i % 1000}/${Math.floor(i / 1000)}/0`;
}

describe("ids from a 64-bit hash", () => {
  it(`${SEEDS.toLocaleString("en")} distinct seeds give as many distinct 24-character call ids, where a 32-bit hash collides`, () => {
    const all = seeds(SEEDS);
    expect(new Set(all).size).toBe(SEEDS);
    const ids = new Set<string>();
    const hashes = new Set<number>();
    for (const s of all) {
      ids.add(makeId("call_", s));
      hashes.add(stableHash(`call_|${s}`));
    }
    expect(ids.size).toBe(SEEDS);
    // The same seeds through the 32-bit hash the ids came from before (one id per hash): ≈ 7 pairs expected
    // (n²/2³³), and 14 ids would be shared.
    expect(SEEDS - hashes.size).toBe(14);
  });

  it("is 64-bit FNV-1a (the published test vectors), continued over a prefix as over the whole", () => {
    const hex = (h: { hi: number; lo: number }) => h.hi.toString(16).padStart(8, "0") + h.lo.toString(16).padStart(8, "0");
    expect(hex(stableHash64(""))).toBe("cbf29ce484222325");
    expect(hex(stableHash64("a"))).toBe("af63dc4c8601ec8c");
    expect(hex(stableHash64("foobar"))).toBe("85944171f73967e8");
    for (const [a, b] of [
      ["", "abc"],
      ["abc", ""],
      ["obf|", "é🙂x"],
      ["x".repeat(300), "#12"],
    ] as const) {
      expect(tokenAfter(stableHash64(a), b, 24)).toBe(stableToken(a + b, 24));
    }
  });

  it("every character depends on both halves of the hash: seeds differing in one character share no prefix run", () => {
    // A 24-character token drawn from 64 bits: two near seeds agree in about 24/62 positions, never in most.
    for (let i = 0; i < 1000; i++) {
      const a = stableToken(`s${i}`, 24);
      const b = stableToken(`s${i + 1}`, 24);
      const same = [...a].filter((c, k) => c === b[k]).length;
      expect(same).toBeLessThan(6);
    }
  });
});

describe("id formats are unchanged per provider (prefix, length, alphabet)", () => {
  const BASE62 = "[0-9A-Za-z]";
  const cases: [string, (s: string) => string, RegExp][] = [
    ["OpenAI chat completion", (s) => makeId("chatcmpl-", s, 29), new RegExp(`^chatcmpl-${BASE62}{29}$`)],
    ["OpenAI tool call", (s) => makeId("call_", `${s}#tool0`), new RegExp(`^call_${BASE62}{24}$`)],
    ["OpenAI request id", (s) => makeRequestId(s), /^req_[0-9a-f]{32}$/],
    ["OpenAI Responses id root", (s) => `resp_${stableHex(`resp|${s}`, 50)}`, /^resp_[0-9a-f]{50}$/],
    ["OpenAI moderation", (s) => `modr-${stableHex(`modr|${s}`, 32)}`, /^modr-[0-9a-f]{32}$/],
    ["Anthropic message", (s) => makeId("msg_01", s, 22), new RegExp(`^msg_01${BASE62}{22}$`)],
    ["Anthropic tool use", (s) => toolUseId(s, false), new RegExp(`^toolu_01${BASE62}{22}$`)],
    ["Anthropic request id", (s) => anthropicRequestId(s), /^req_011C[1-9A-HJ-NP-Za-km-z]{20}$/],
    ["Anthropic thinking signature", (s) => thinkingSignature(s), new RegExp(`^EqMB${BASE62}{80}$`)],
    ["Bedrock tool use", (s) => makeId("tooluse_", `${s}#tool0`, 22), new RegExp(`^tooluse_${BASE62}{22}$`)],
    ["Gemini response id", (s) => makeId("", `gemini|${s}`, 22), new RegExp(`^${BASE62}{22}$`)],
    ["Gemini thought signature", (s) => thoughtSignatureFor(s), new RegExp(`^CkI${BASE62}{89}$`)],
    ["Ollama tool call", (s) => ollamaToolCallId(s), /^call_[a-z0-9]{8}$/],
  ];
  it.each(cases)("%s", (_name, make, format) => {
    const ids = Array.from({ length: 2000 }, (_, i) => make(seed(i)));
    for (const id of ids) expect(id).toMatch(format);
    expect(new Set(ids).size).toBe(ids.length);
    expect(make(seed(7))).toBe(ids[7]);
  });

  it("the characters cover the whole alphabet, evenly (no bias from the wider state)", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 5000; i++) for (const c of stableToken(seed(i), 24)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 120,000 draws over 62 characters: ≈ 1,935 each; a fair draw stays within ±15%.
    for (const n of counts.values()) expect(Math.abs(n - 120_000 / 62)).toBeLessThan((120_000 / 62) * 0.15);
  });

  it("obfuscation padding: length from the bucket, the Chat/Responses alphabet, the same after a shared prefix", () => {
    expect(obfuscation("s", "Holiday", 10)).toMatch(/^[A-Za-z0-9]{3}$/);
    expect(obfuscation("s", ",", 16)).toMatch(/^[A-Za-z0-9]{15}$/);
    expect(obfuscationAfter(obfuscationSeed("chatcmpl-x#"), "3", "Holiday", 10)).toBe(obfuscation("chatcmpl-x#3", "Holiday", 10));
    // A count given by the caller is the one used: "👋 hi" is 4 code points in 5 UTF-16 units.
    expect(obfuscationAfter(obfuscationSeed("x#"), "1", "👋 hi", 10)).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(obfuscationAfter(obfuscationSeed("x#"), "1", "👋 hi", 10, 5)).toMatch(/^[A-Za-z0-9]{5}$/);
    expect([noSurrogates("héllo wörld"), noSurrogates("a 👋"), noSurrogates("lone \udc00")]).toEqual([true, false, false]);
  });
});
