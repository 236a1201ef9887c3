import { describe, expect, it } from "vitest";
import { BodyBudget, countedBytes, ISOLATE_BODY_BUDGET, LARGE_BODY_BYTES } from "../../src/http/body-budget";
import { MAX_BODY_BYTES } from "../../src/http/body";

const MiB = 1024 * 1024;

describe("BodyBudget", () => {
  it("takes bodies up to its limit, always one alone, and frees what is released", () => {
    expect(ISOLATE_BODY_BUDGET).toBe(20 * MiB);
    const budget = new BodyBudget(20 * MiB);
    expect(budget.take(50 * MiB)).toBe(true); // alone: served whatever its size
    expect(budget.take(MiB)).toBe(false);
    budget.release(50 * MiB);
    expect(budget.held).toBe(0);
    expect(budget.take(10 * MiB)).toBe(true);
    expect(budget.take(10 * MiB)).toBe(true); // exactly the limit
    expect(budget.take(1)).toBe(false);
    expect(budget.held).toBe(20 * MiB); // a refusal takes nothing
    expect(budget.refusal(3 * MiB).message).toBe(
      "mockllm: this server is answering other large request bodies (20.0 MiB of the 20.0 MiB it serves at once); yours (3.0 MiB) was not read. Retry in a second.",
    );
    expect(budget.refusal(MiB)).toMatchObject({ code: "overloaded" });
    budget.release(10 * MiB);
    expect(budget.take(10 * MiB)).toBe(true);
  });

  it("counts a declared length from LARGE_BODY_BYTES, nothing else (a body of unknown length neither)", () => {
    const post = (headers: Record<string, string>, body: BodyInit | null = "{}") => new Request("http://x/v1/chat/completions", { method: "POST", headers, body, duplex: "half" } as RequestInit);
    expect(countedBytes(post({ "content-length": String(LARGE_BODY_BYTES - 1) }))).toBe(0);
    expect(countedBytes(post({ "content-length": String(LARGE_BODY_BYTES) }))).toBe(LARGE_BODY_BYTES);
    expect(countedBytes(post({ "content-length": "nope" }))).toBe(0);
    expect(countedBytes(post({}, new ReadableStream()))).toBe(0);
    expect(countedBytes(post({ "content-length": String(MAX_BODY_BYTES) }))).toBe(MAX_BODY_BYTES);
    expect(countedBytes(new Request("http://x/v1/models"))).toBe(0);
  });
});
