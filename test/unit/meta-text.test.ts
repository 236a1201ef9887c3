import { describe, expect, it } from "vitest";
import { decodeMetaText, encodeMetaText, META_TEXT_BUDGET } from "../../src/scenario/meta-text";

const ascii = /^[\x20-\x7e]*$/;

describe("KV metadata text", () => {
  it.each([
    ["plain", "Weather agent: one tool call, then the answer.", "Weather agent: one tool call, then the answer."],
    ["newline and tab", "line one\nline two\tend", "line one%0Aline two%09end"],
    ["percent, quote, backslash", '100% "sure" \\o/', "100%25 %22sure%22 %5Co/"],
    ["CJK", "天気エージェント", "%E5%A4%A9%E6%B0%97%E3%82%A8%E3%83%BC%E3%82%B8%E3%82%A7%E3%83%B3%E3%83%88"],
    ["emoji", "sunny ☀️ 🌦", "sunny %E2%98%80%EF%B8%8F %F0%9F%8C%A6"],
  ])("%s: encodes to printable ASCII and decodes back unchanged", (_label, text, encoded) => {
    expect(encodeMetaText(text)).toBe(encoded);
    expect(encodeMetaText(text)).toMatch(ascii);
    expect(decodeMetaText(encodeMetaText(text))).toBe(text);
  });

  it("keeps at most 200 characters, cut between characters (never half an emoji)", () => {
    const text = `${"x".repeat(199)}🌦🌦`;
    expect(decodeMetaText(encodeMetaText(text))).toBe(`${"x".repeat(199)}🌦`);
  });

  it("keeps the encoded text within the metadata budget, cut between characters", () => {
    const encoded = encodeMetaText("🌦".repeat(200));
    // 12 escaped characters per emoji: 66 fit in 800.
    expect(META_TEXT_BUDGET).toBe(800);
    expect(encoded.length).toBe(792);
    expect(decodeMetaText(encoded)).toBe("🌦".repeat(66));
  });

  it("a lone surrogate becomes U+FFFD instead of throwing", () => {
    expect(decodeMetaText(encodeMetaText("a\ud800b"))).toBe("a\ufffdb");
  });

  it("decoding leaves what is not a valid escape, and older unencoded text, as it is", () => {
    expect(decodeMetaText("50%ZZ %E2%98 ok")).toBe("50%ZZ %E2%98 ok");
    expect(decodeMetaText("Wetter ☀ (stored raw)")).toBe("Wetter ☀ (stored raw)");
  });
});
