/** Vector store search (src/providers/openai/module/vector-stores/search.ts): chunking, BM25 ranking, attribute filters. */
import { describe, expect, it } from "vitest";
import { AUTO_CHUNKING, checkFilter, chunkText, passes, rank } from "../../src/providers/openai/module/vector-stores/search";

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
const strategy = (size: number, overlap: number) => ({ type: "static" as const, static: { max_chunk_size_tokens: size, chunk_overlap_tokens: overlap } });

describe("chunkText", () => {
  it("splits into chunks of the strategy's size, each starting size − overlap words after the last", () => {
    expect(chunkText(words(250), strategy(100, 0)).map((c) => c.split(" ").length)).toEqual([100, 100, 50]);
    const overlapping = chunkText(words(250), strategy(100, 50));
    expect(overlapping.map((c) => c.split(" ")[0])).toEqual(["w0", "w50", "w100", "w150"]);
    expect(overlapping.at(-1)?.split(" ").at(-1)).toBe("w249");
  });
  it("keeps a short text whole and answers nothing for an empty one", () => {
    expect(chunkText("  a  b\nc ", AUTO_CHUNKING)).toEqual(["a b c"]);
    expect(chunkText(" \n ", AUTO_CHUNKING)).toEqual([]);
  });
});

describe("rank", () => {
  const chunk = (fileId: string, text: string) => ({ fileId, filename: `${fileId}.txt`, attributes: {}, text });
  it("ranks by BM25, best first, scores in (0, 1], chunks without a query word left out", () => {
    const hits = rank([chunk("a", "the cat sat"), chunk("b", "cat cat cat and a cat"), chunk("c", "a dog")], ["Cat"]);
    expect(hits.map((h) => h.fileId)).toEqual(["b", "a"]);
    for (const h of hits) expect(h.score > 0 && h.score <= 1).toBe(true);
    expect(rank([chunk("a", "x")], ["y"])).toEqual([]);
    expect(rank([chunk("a", "x")], ["  "])).toEqual([]);
  });
  it("breaks ties by file id and is the same every time", () => {
    const chunks = [chunk("z", "same words"), chunk("m", "same words")];
    expect(rank(chunks, ["same"]).map((h) => h.fileId)).toEqual(["m", "z"]);
    expect(rank(chunks, ["same"])).toEqual(rank(chunks, ["same"]));
  });
});

describe("filters", () => {
  const attrs = { kind: "cat", legs: 4, wild: false };
  it("compares like the real API", () => {
    expect(passes({ type: "eq", key: "kind", value: "cat" }, attrs)).toBe(true);
    expect(passes({ type: "ne", key: "kind", value: "cat" }, attrs)).toBe(false);
    expect(passes({ type: "gt", key: "legs", value: 2 }, attrs)).toBe(true);
    expect(passes({ type: "lte", key: "legs", value: 3 }, attrs)).toBe(false);
    expect(passes({ type: "gte", key: "legs", value: "4" }, attrs)).toBe(false);
    expect(passes({ type: "in", key: "kind", value: ["dog", "cat"] }, attrs)).toBe(true);
    expect(passes({ type: "nin", key: "kind", value: ["cat"] }, attrs)).toBe(false);
    expect(passes({ type: "eq", key: "wild", value: false }, attrs)).toBe(true);
    expect(passes({ type: "lt", key: "missing", value: 1 }, attrs)).toBe(false);
  });
  it("combines with and / or", () => {
    const and = {
      type: "and",
      filters: [
        { type: "eq", key: "kind", value: "cat" },
        { type: "gt", key: "legs", value: 4 },
      ],
    };
    expect(passes(and, attrs)).toBe(false);
    expect(passes({ ...and, type: "or" }, attrs)).toBe(true);
  });
  it("names what is wrong with a malformed filter", () => {
    expect(checkFilter({ type: "eq", key: "k", value: 1 }, "filters")).toBeUndefined();
    expect(checkFilter({ type: "like", key: "k", value: 1 }, "filters")).toMatch(/^Invalid value: 'like'/);
    expect(checkFilter({ type: "and", filters: [{ type: "eq", value: 1 }] }, "filters")).toBe("Missing required parameter: 'filters.filters[0].key'.");
    expect(checkFilter("x", "filters")).toBe("Invalid type for 'filters': expected an object.");
  });
});
