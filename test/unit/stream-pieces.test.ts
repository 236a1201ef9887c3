import { describe, expect, it } from "vitest";
import { chunkChars, MAX_PIECES, streamFragments, wordPieces } from "../../src/util/text";

describe("a long streamed text stays within MAX_PIECES pieces", () => {
  it("wordPieces: 5-word pieces up to 20,480 words; past them larger pieces, the same text and words", () => {
    const short = "w ".repeat(5 * MAX_PIECES).trimEnd(); // 20,480 words: 4,096 pieces of 5
    expect(wordPieces(short, 5).map((p) => p.words)).toEqual(Array.from({ length: MAX_PIECES }, () => 5));
    const text = "word ".repeat(1_000_000); // what the default answer echoes of a 5 MB message
    const pieces = wordPieces(text, 5);
    expect(pieces.length).toBe(Math.ceil(1_000_000 / 245)); // 245 words a piece: ceil(1,000,000 / 4,096)
    expect(pieces.length).toBeLessThanOrEqual(MAX_PIECES);
    expect(pieces.map((p) => p.text).join("")).toBe(text);
    expect(pieces.reduce((n, p) => n + p.words, 0)).toBe(1_000_000); // pacing schedules the same words
    expect(pieces[0]!.text).toBe("word ".repeat(245).trimEnd());
  });

  it("streamFragments: 16-unit fragments, or as many units as keep a long string within the bound", () => {
    expect(streamFragments('{"city":"Paris"}', 5)).toEqual(chunkChars('{"city":"Paris"}', 5));
    const args = JSON.stringify({ text: "x".repeat(1_000_000) });
    const fragments = streamFragments(args, 16);
    expect(fragments[0]!.length).toBe(245); // ceil(1,000,013 / 4,096) units
    expect(fragments.length).toBe(4082); // ceil(1,000,013 / 245)
    expect(fragments.join("")).toBe(args);
  });
});
