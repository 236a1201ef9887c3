import { describe, expect, it } from "vitest";
import { BodyBudget, type BodyTicket, countedBytes, ISOLATE_BODY_BUDGET, LARGE_BODY_BYTES, undeclaredBody } from "../../src/http/body-budget";
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

  it("counts a body of unknown length as it is read, a step at a time past LARGE_BODY_BYTES, and breaks it where others leave no room", async () => {
    const budget = new BodyBudget(20 * MiB);
    const read = async (ticket: BodyTicket, sizes: number[]) => {
      const source = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const n of sizes) controller.enqueue(new Uint8Array(n));
          controller.close();
        },
      });
      const got: number[] = [];
      try {
        for await (const chunk of source.pipeThrough(budget.counter(ticket))) got.push(chunk.byteLength);
      } catch (e) {
        got.push(-1);
        expect((e as Error).message).toBe("mockllm: other large request bodies fill the budget");
      }
      return got;
    };
    const KiB600 = 600 * 1024;
    // Alone: read whole, holding its size rounded up to whole steps once past the first.
    const alone: BodyTicket = { held: 0, seen: 0, refused: false };
    expect(await read(alone, [KiB600, KiB600, KiB600])).toEqual([KiB600, KiB600, KiB600]);
    expect([alone.seen, alone.held, alone.refused, budget.held]).toEqual([3 * KiB600, 2 * MiB, false, 2 * MiB]);
    budget.release(alone.held);
    // 19 MiB held by others: the first part passes (under a step), the second would take 2 MiB more.
    expect(budget.take(19 * MiB)).toBe(true);
    const squeezed: BodyTicket = { held: 0, seen: 0, refused: false };
    expect(await read(squeezed, [KiB600, KiB600, KiB600])).toEqual([KiB600, -1]);
    expect([squeezed.seen, squeezed.held, squeezed.refused, budget.held]).toEqual([2 * KiB600, 0, true, 19 * MiB]);
    expect(budget.refusal(squeezed.seen, squeezed).message).toBe(
      "mockllm: this server is answering other large request bodies (19.0 MiB of the 20.0 MiB it serves at once); yours (its length not declared) was read to 1.2 MiB and no further. Retry in a second.",
    );
  });

  it("counts a declared length from LARGE_BODY_BYTES, nothing else (a body of unknown length neither)", () => {
    const post = (headers: Record<string, string>, body: BodyInit | null = "{}") => new Request("http://x/v1/chat/completions", { method: "POST", headers, body, duplex: "half" } as RequestInit);
    expect(countedBytes(post({ "content-length": String(LARGE_BODY_BYTES - 1) }))).toBe(0);
    expect(countedBytes(post({ "content-length": String(LARGE_BODY_BYTES) }))).toBe(LARGE_BODY_BYTES);
    expect(countedBytes(post({ "content-length": "nope" }))).toBe(0);
    expect(countedBytes(post({}, new ReadableStream()))).toBe(0);
    expect(countedBytes(post({ "content-length": String(MAX_BODY_BYTES) }))).toBe(MAX_BODY_BYTES);
    expect(countedBytes(new Request("http://x/v1/models"))).toBe(0);
    expect(undeclaredBody(post({}, new ReadableStream()))).toBe(true);
    expect(undeclaredBody(post({ "content-length": "2" }))).toBe(false);
    expect(undeclaredBody(new Request("http://x/v1/models"))).toBe(false);
  });
});
