/**
 * The platform's stored objects on Node's memory storage (the Durable Object's SQLite storage is proven by the compat
 * suites under wrangler): kinds kept apart and in order, a replace keeps its place, the bound drops the oldest with
 * their children, a delete drops the children, and the `--persist` form round-trips.
 */
import { describe, expect, it } from "vitest";
import { MemoryResponsesStorage } from "../../src/hosts/node/memory";
import { MAX_KIND_CHARS } from "../../src/session/responses";

const o = (id: string, json = `{"id":"${id}"}`) => ({ id, json });

describe("stored objects (memory)", () => {
  it("keeps each kind in order; a replace keeps its place", () => {
    const s = new MemoryResponsesStorage({ responses: [], pointers: [] });
    s.putObjects("conversation", [o("a"), o("b")], 0, 10);
    s.putObjects("other", [o("a", "other")], 0, 10);
    s.putObjects("conversation", [o("a", "new")], 1, 10);
    expect(s.listObjects("conversation")).toEqual([o("a", "new"), o("b")]);
    expect(s.getObject("other", "a")).toBe("other");
    expect(s.getObject("other", "b")).toBeNull();
  });

  it("drops the oldest beyond the bound, and a deleted object's children with it", () => {
    const s = new MemoryResponsesStorage({ responses: [], pointers: [] });
    s.putObjects("conversation", [o("a"), o("b")], 0, 2);
    s.putObjects("conversation/a", [o("i1"), o("i2")], 0, 10);
    s.putObjects("conversation/b", [o("j1")], 0, 10);
    s.putObjects("conversation", [o("c")], 0, 2);
    expect(s.listObjects("conversation").map((x) => x.id)).toEqual(["b", "c"]);
    expect(s.listObjects("conversation/a")).toEqual([]);
    expect(s.deleteObject("conversation", "b")).toBe(true);
    expect(s.listObjects("conversation/b")).toEqual([]);
    expect(s.deleteObject("conversation", "b")).toBe(false);
  });

  it("drops the oldest past the kind's text bound, never the newest", () => {
    const s = new MemoryResponsesStorage({ responses: [], pointers: [] });
    const big = "x".repeat(MAX_KIND_CHARS / 2 + 1);
    s.putObjects("conversation/c", [o("a", big)], 0, 10);
    s.putObjects("conversation/c", [o("b", big)], 0, 10);
    expect(s.listObjects("conversation/c").map((x) => x.id)).toEqual(["b"]);
    s.putObjects("conversation/c", [o("c", `${big}${big}`)], 0, 10);
    expect(s.listObjects("conversation/c").map((x) => x.id)).toEqual(["c"]);
  });

  it("round-trips through its --persist form", () => {
    const s = new MemoryResponsesStorage({ responses: [], pointers: [] });
    s.putObjects("chat.completion", [o("x"), o("y")], 5, 10);
    const restored = new MemoryResponsesStorage(JSON.parse(JSON.stringify(s.dump())));
    expect(restored.listObjects("chat.completion")).toEqual([o("x"), o("y")]);
  });
});
