/**
 * Anthropic's list pages (src/providers/anthropic/pages.ts), shared by the Models, Message Batches and Files lists:
 * the slice a query asks for and `has_more`, forwards (`after_id`), backwards (`before_id` alone) and between two ids.
 */
import { describe, expect, it } from "vitest";
import { idWindow } from "../../src/providers/anthropic/pages";

const IDS = ["e", "d", "c", "b", "a"]; // newest first, as the lists are

function page(query: string, limit: number): [string[], boolean] {
  const { from, to, hasMore } = idWindow(IDS, new URLSearchParams(query), limit);
  return [IDS.slice(from, to), hasMore];
}

describe("Anthropic list pages", () => {
  it("the first page, and has_more while entries remain", () => {
    expect(page("", 2)).toEqual([["e", "d"], true]);
    expect(page("", 5)).toEqual([["e", "d", "c", "b", "a"], false]);
    expect(page("", 10)).toEqual([["e", "d", "c", "b", "a"], false]);
  });

  it("after_id: the entries after it", () => {
    expect(page("after_id=d", 2)).toEqual([["c", "b"], true]);
    expect(page("after_id=b", 2)).toEqual([["a"], false]);
    expect(page("after_id=a", 2)).toEqual([[], false]);
  });

  it("before_id alone: the limit entries just before it, has_more when earlier ones remain", () => {
    expect(page("before_id=b", 2)).toEqual([["d", "c"], true]);
    expect(page("before_id=d", 2)).toEqual([["e"], false]);
    expect(page("before_id=e", 2)).toEqual([[], false]);
  });

  it("both: forwards from after_id, stopping at before_id", () => {
    expect(page("after_id=e&before_id=b", 10)).toEqual([["d", "c"], false]);
    expect(page("after_id=e&before_id=b", 1)).toEqual([["d"], true]);
  });

  it("an id the list does not hold gives an empty page", () => {
    expect(page("after_id=zzz", 2)).toEqual([[], false]);
    expect(page("before_id=zzz", 2)).toEqual([[], false]);
  });
});
