/**
 * The bounds on what sessions store (src/session/bound.ts) and the SQLite parts long text is kept in on Workers
 * (src/hosts/workers/sql-chunks.ts).
 */
import { describe, expect, it } from "vitest";
import { chunks } from "../../src/hosts/workers/sql-chunks";
import { boundEntry, boundJson, joinApart, JOURNAL_ENTRY_BYTES, keptApart, withBodyText } from "../../src/session/bound";
import type { JournalDraft } from "../../src/session/core";

function entry(body: unknown, canonical?: JournalDraft["canonical"]): JournalDraft {
  return {
    at: "2026-11-26T00:00:00.000Z",
    provider: "openai",
    endpoint: "chat.completions",
    stream: false,
    turn: 1,
    step: null,
    outcome: "response",
    reasons: [],
    request: { method: "POST", path: "/v1/chat/completions", headers: { "content-type": "application/json" }, body },
    status: 200,
    ...(canonical ? { canonical } : {}),
  };
}

describe("chunks", () => {
  it("cuts text in parts of the size given, joined back to the same text", () => {
    expect(chunks("abcde", 2)).toEqual(["ab", "cd", "e"]);
    expect(chunks("", 2)).toEqual([""]);
  });

  it("never splits a surrogate pair (SQLite would keep each half as U+FFFD)", () => {
    const text = "a😀😀b";
    const parts = chunks(text, 2);
    expect(parts).toEqual(["a", "😀", "😀", "b"]);
    expect(parts.join("")).toBe(text);
  });
});

describe("boundEntry", () => {
  it("keeps an entry that fits as it is (the same object)", () => {
    const small = entry({ model: "m", messages: [{ role: "user", content: "x".repeat(60_000) }] });
    expect(boundEntry(small)).toBe(small);
  });

  it("cuts what does not fit under JOURNAL_ENTRY_BYTES, and says so", () => {
    const canonical = { tools: Array.from({ length: 50_000 }, (_, i) => `t${i}`), toolResults: [], lastUserMessage: null, answered: null, model: "m", stream: false, usage: null };
    const big = entry({ blob: "\u0000".repeat(2_000_000) }, canonical);
    const out = boundEntry(big);
    expect(new TextEncoder().encode(JSON.stringify(out)).length).toBeLessThan(JOURNAL_ENTRY_BYTES);
    expect(out.request.body).toEqual({ blob: `${"\u0000".repeat(4000)}…[mockllm: truncated 1996000 characters]` });
    expect(out.canonical?.tools).toHaveLength(100);
    expect(out.reasons).toEqual([expect.stringMatching(/^mockllm: this entry \(\d+ bytes\) was cut to fit the journal$/)]);
  });

  it("replaces a body still too large once shrunk by a marker", () => {
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`k${j}`, "y".repeat(4000)]))]));
    const out = boundEntry(entry(wide));
    expect(out.request.body).toMatch(/^\[mockllm: a \d+-byte body, not journaled\]$/);
  });
});

describe("boundJson", () => {
  it("is boundEntry's entry serialised: the same text for an entry that fits and for one cut", () => {
    const small = entry({ model: "m", messages: [{ role: "user", content: "é".repeat(60_000) }] });
    expect(boundJson(small)).toBe(JSON.stringify(small));
    // Under a third of the budget in UTF-16 units but over it in UTF-8 bytes (3 bytes a unit) fits too: no walk.
    const nearThird = entry({ text: "€".repeat(Math.floor(JOURNAL_ENTRY_BYTES / 3) - 400) });
    expect(boundJson(nearThird)).toBe(JSON.stringify(nearThird));
    // Over a third in units, under the budget in bytes: kept whole (boundEntry measures it).
    const ascii = entry({ text: "a".repeat(JOURNAL_ENTRY_BYTES / 2) });
    expect(boundJson(ascii)).toBe(JSON.stringify(ascii));
    const big = entry({ blob: "\u0000".repeat(2_000_000) });
    expect(boundJson(big)).toBe(JSON.stringify(boundEntry(big)));
    expect(JSON.parse(boundJson(big)).reasons).toEqual([expect.stringMatching(/was cut to fit the journal$/)]);
  });
});

describe("boundJson with the body as text (Workers: NextInput.wireText)", () => {
  /** An entry's fields in order, each value as JSON: what "the same entry" is compared by. */
  const fields = (json: string) => Object.entries(JSON.parse(json) as Record<string, unknown>).map(([k, v]) => [k, JSON.stringify(v)]);
  const texts = [
    '{"model":"m","messages":[{"role":"user","content":"hi"}]}',
    ' {\n  "model" : "m",\n  "messages" : [ { "role" : "user", "content" : "caf\u00e9 \\"quoted\\" \\\\ \ud83d\ude00 é" } ]\n} \n',
    '{"__proto__":{"x":1},"model":"m","n":1.50,"big":1e400,"neg":-0,"deep":[[[{"a":null}]]]}',
    '{"request":"\\u0000mockllm:request\\u0000","model":"m"}',
    '{"body":"\\u0000mockllm:body\\u0000","model":"m"}',
  ];

  it("reads back as the entry serialised with the body parsed, fields and their order the same", () => {
    for (const text of texts) {
      const withBody = entry(JSON.parse(text), {
        tools: [],
        toolResults: [],
        lastUserMessage: "\u0000mockllm:request\u0000",
        answered: { text: "x", toolCalls: [] },
        model: "m",
        stream: false,
      } as never);
      const { body: _b, ...bare } = withBody.request;
      const withoutBody = { ...withBody, request: { ...bare, body: undefined } };
      const spliced = boundJson(withoutBody, text);
      expect(fields(spliced)).toEqual(fields(JSON.stringify(withBody)));
      expect(Object.keys(JSON.parse(spliced).request)).toEqual(["method", "path", "headers", "body"]);
      expect(spliced).toBe(withBodyText(withoutBody, text));
    }
  });

  it("cuts an entry too large as the object path does", () => {
    const text = JSON.stringify({ blob: "\u0000".repeat(2_000_000) });
    const big = entry(JSON.parse(text));
    const bare = { ...big, request: { ...big.request, body: undefined } };
    expect(boundJson(bare, text)).toBe(JSON.stringify(boundEntry(big)));
  });

  it("kept apart (Node's memory), reads back as the spliced text parses: the same values, keys in the same order", () => {
    for (const text of texts) {
      const withBody = entry(JSON.parse(text));
      const bare = { ...withBody, request: { ...withBody.request, body: undefined } };
      const kept = keptApart(bare, text);
      if (typeof kept === "string") throw new Error("an entry this small is kept apart");
      expect(kept.body).toBe(text); // the request's own string, not a copy
      const read = joinApart(kept);
      expect(read).toStrictEqual(JSON.parse(boundJson(bare, text)));
      expect(JSON.stringify(read)).toBe(JSON.stringify(JSON.parse(boundJson(bare, text))));
      expect(Object.keys(read.request)).toEqual(["method", "path", "headers", "body"]);
    }
  });

  it("kept apart up to the bound boundJson keeps, and past it as boundJson's one text", () => {
    const bare = (body: unknown) => {
      const e = entry(body);
      return { ...e, request: { ...e.request, body: undefined } };
    };
    // The spliced text's length exactly at a third of the budget, then one unit over it.
    const third = Math.floor(JOURNAL_ENTRY_BYTES / 3);
    const probe = boundJson(bare({ t: "" }), '{"t":""}').length;
    const at = JSON.stringify({ t: "a".repeat(third - probe) });
    expect(boundJson(bare(JSON.parse(at)), at).length).toBe(third);
    expect(typeof keptApart(bare(JSON.parse(at)), at)).toBe("object");
    const over = JSON.stringify({ t: "a".repeat(third - probe + 1) });
    expect(keptApart(bare(JSON.parse(over)), over)).toBe(boundJson(bare(JSON.parse(over)), over));
    const huge = JSON.stringify({ blob: "\u0000".repeat(2_000_000) });
    expect(keptApart(bare(JSON.parse(huge)), huge)).toBe(JSON.stringify(boundEntry(entry(JSON.parse(huge)))));
  });
});
