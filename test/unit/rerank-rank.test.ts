/**
 * The rerank ordering rules (src/providers/cohere/render.ts `rank`) and the default overlap score
 * (src/providers/cohere/score.ts), as tables.
 */
import { describe, expect, it } from "vitest";
import { rank, rerankId } from "../../src/providers/cohere/render";
import { overlapScores, terms } from "../../src/providers/cohere/score";

const DEFAULTS = [0.2, 0.6, 0.4, 0.1];

describe("rank", () => {
  it.each([
    {
      name: "default scores, best first",
      scripted: undefined,
      want: [
        [1, 0.6],
        [2, 0.4],
        [0, 0.2],
        [3, 0.1],
      ],
    },
    {
      name: "scores replace defaults by index",
      scripted: { scores: [0.9, 0.05] },
      want: [
        [0, 0.9],
        [2, 0.4],
        [3, 0.1],
        [1, 0.05],
      ],
    },
    {
      name: "equal scores keep index order",
      scripted: { scores: [0.5, 0.5, 0.5, 0.5] },
      want: [
        [0, 0.5],
        [1, 0.5],
        [2, 0.5],
        [3, 0.5],
      ],
    },
    {
      name: "order leads 0.99 → 0.5, the rest scaled below",
      scripted: { order: [3, 0] },
      want: [
        [3, 0.99],
        [0, 0.5],
        [1, 0.294],
        [2, 0.196],
      ],
    },
    {
      name: "one index in order",
      scripted: { order: [2] },
      want: [
        [2, 0.99],
        [1, 0.294],
        [0, 0.098],
        [3, 0.049],
      ],
    },
    {
      name: "out-of-range and repeated indexes are dropped",
      scripted: { order: [9, 2, 2, 1] },
      want: [
        [2, 0.99],
        [1, 0.5],
        [0, 0.098],
        [3, 0.049],
      ],
    },
    {
      name: "order with scripted scores",
      scripted: { order: [3, 0], scores: [0.7, undefined, 0.3, 0.8] as number[] },
      want: [
        [3, 0.8],
        [0, 0.7],
        [2, 0.3],
        [1, 0.294],
      ],
    },
  ])("$name", ({ scripted, want }) => {
    expect(rank(scripted, DEFAULTS).map((r) => [r.index, r.score])).toEqual(want);
  });
});

describe("overlapScores", () => {
  it("words and adjacent pairs, lower-cased, any script", () => {
    expect([...terms("Grüße, Welt! 2 Welt")]).toEqual(["grüße", "welt", "2", "grüße welt", "welt 2", "2 welt"]);
  });

  it("ranks the document sharing the query's words first; scores in (0, 1), stable", () => {
    const scores = overlapScores("red apple", ["green pear", "red apple pie", "fruit", ""]);
    expect(scores).toEqual([0.00015715, 0.77452361, 0.00011211, 0.00010799]);
    for (const s of scores) expect(s > 0 && s < 1).toBe(true);
    expect(overlapScores("", ["a"])[0]).toBeLessThan(0.001);
  });
});

it("rerankId is a v4-layout UUID, stable per seed", () => {
  expect(rerankId("s/1/step/1")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(rerankId("s/1/step/1")).toBe(rerankId("s/1/step/1"));
  expect(rerankId("s/1/step/2")).not.toBe(rerankId("s/1/step/1"));
});
