import { describe, expect, it } from "vitest";
import { env, runInDurableObject } from "cloudflare:test";
import { JOURNAL_LIMIT, type NeedsDocument, type NextInput, type NextResult } from "../../src/session/core";
import type { SessionObject } from "../../src/runtime/workers/session-object";
import { ScenarioSchema } from "../../src/scenario/schema";
import { admin, call, upload } from "./helpers";

const scenario = ScenarioSchema.parse({ name: "direct", steps: [{ consume: false, respond: { text: "x" } }] });

function input(i: number): NextInput {
  return {
    scenario: "direct",
    session: "s",
    version: "v1",
    document: scenario,
    request: {
      provider: "openai",
      endpoint: "chat.completions",
      model: "m",
      stream: false,
      system: "",
      messages: [{ role: "user", text: `message ${i}` }],
      tools: [],
      reasoning: "disabled",
      headers: {},
    },
    wire: { method: "POST", path: "/v1/chat/completions", headers: {}, body: { i } },
    statuses: { mismatch: 400 },
  };
}

/** A `next` result that decided something (the document was at hand). */
function decided(r: NextResult | NeedsDocument): NextResult {
  if ("needsDocument" in r) throw new Error("expected a decision");
  return r;
}

describe("SessionObject", () => {
  it("keeps at most 1,000 journal entries, dropping the oldest", async () => {
    const stub = env.SESSIONS.getByName("direct/s");
    await runInDurableObject(stub, (instance: SessionObject) => {
      for (let i = 1; i <= JOURNAL_LIMIT + 5; i++) instance.next(input(i));
      const journal = instance.requests();
      expect(journal).toHaveLength(JOURNAL_LIMIT);
      expect(journal[0]!.seq).toBe(6);
      expect(journal[0]!.request.body).toEqual({ i: 6 });
      expect(journal.at(-1)!.seq).toBe(JOURNAL_LIMIT + 5);
      expect(instance.state().requests).toBe(JOURNAL_LIMIT);
      expect(instance.state().steps[0]!.attempts).toBe(JOURNAL_LIMIT + 5);
    });
  });

  it("asks for the document only while it has no snapshot; a running session gets the version alone", async () => {
    const stub = env.SESSIONS.getByName("direct/lazy");
    await runInDurableObject(stub, (instance: SessionObject) => {
      const { document: _, ...bare } = input(1);
      expect(instance.next(bare)).toStrictEqual({ needsDocument: true });
      expect(instance.requests()).toStrictEqual([]);
      expect(decided(instance.next(input(1))).seq).toBe(1);
      const second = decided(instance.next({ ...bare, wire: { ...bare.wire, body: { i: 2 } } }));
      expect([second.seq, second.version, second.outcome.kind]).toStrictEqual([2, "v1", "reply"]);
    });
  });

  it("keeps the first scenario version it saw until reset", async () => {
    const stub = env.SESSIONS.getByName("direct/versions");
    await runInDurableObject(stub, (instance: SessionObject) => {
      expect(decided(instance.next(input(1))).version).toBe("v1");
      const newer = { ...input(2), version: "v2", document: ScenarioSchema.parse({ name: "direct", steps: [] }) };
      const r = decided(instance.next(newer));
      expect(r.version).toBe("v1");
      expect(r.outcome.kind).toBe("reply");
      instance.reset();
      const after = decided(instance.next(newer));
      expect(after.version).toBe("v2");
      expect(after.outcome.kind).toBe("mismatch");
      expect(instance.requests().map((j) => j.seq)).toEqual([1]);
    });
  });

  it("journals request bodies over 64 KiB truncated with a marker, and redacts keys", async () => {
    await upload({ name: "big", steps: [{ consume: false, respond: { text: "ok" } }] });
    const content = "y".repeat(70 * 1024);
    const res = await call("/s/big/v1/chat/completions", {
      method: "POST",
      headers: { authorization: "Bearer sk-secret", "x-api-key": "also-secret", "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content }] }),
    });
    expect(res.status).toBe(200);
    const journal = (await (await admin("/sessions/big/default/requests")).json()) as any[];
    const body = journal[0].request.body as string;
    expect(typeof body).toBe("string");
    expect(body.length).toBeLessThan(66 * 1024);
    expect(body).toMatch(/…\[mockllm: truncated \d+ of \d+ characters\]$/);
    expect(journal[0].request.headers.authorization).toBe("[redacted]");
    expect(journal[0].request.headers["x-api-key"]).toBe("[redacted]");
  });
});
