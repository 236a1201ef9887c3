/**
 * `restPath` (src/http/url.ts): the object routes of the Files and Batches APIs read one way — the collection, one
 * object, one of its actions — and nothing else under the base taken for one.
 */
import { describe, expect, it } from "vitest";
import { restPath } from "../../src/http/url";

const BASES = ["/v1/batches", "/batches"];
const ACTIONS = ["cancel", "results"] as const;

describe("restPath", () => {
  it("the collection, an object (percent-decoded) and its actions, under any base", () => {
    expect(restPath(BASES, ACTIONS, "/v1/batches")).toEqual({});
    expect(restPath(BASES, ACTIONS, "/batches")).toEqual({});
    expect(restPath(BASES, ACTIONS, "/v1/batches/batch_1")).toEqual({ id: "batch_1" });
    expect(restPath(BASES, ACTIONS, "/v1/batches/a%20b")).toEqual({ id: "a b" });
    expect(restPath(BASES, ACTIONS, "/v1/batches/%zz")).toEqual({ id: "%zz" });
    expect(restPath(BASES, ACTIONS, "/v1/batches/batch_1/cancel")).toEqual({ id: "batch_1", action: "cancel" });
    expect(restPath(BASES, ACTIONS, "/batches/batch_1/results")).toEqual({ id: "batch_1", action: "results" });
  });

  it("undefined for an empty id, an unknown action, deeper paths and other bases", () => {
    expect(restPath(BASES, ACTIONS, "/v1/batches/")).toBeUndefined();
    expect(restPath(BASES, ACTIONS, "/v1/batches//cancel")).toBeUndefined();
    expect(restPath(BASES, ACTIONS, "/v1/batches/batch_1/retry")).toBeUndefined();
    expect(restPath(BASES, ACTIONS, "/v1/batches/batch_1/cancel/x")).toBeUndefined();
    expect(restPath(BASES, ACTIONS, "/v1/batchesx")).toBeUndefined();
    expect(restPath(BASES, ACTIONS, "/v1/files/f")).toBeUndefined();
  });
});
