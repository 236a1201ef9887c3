/**
 * The Agents API harness's pure parts (src/providers/openai/module/agents/loop.ts): a session's items as Responses
 * input (function results and their errors, MCP calls), the turn error a failed model request maps to, and the
 * stream's pacing of a reply's events (its latency, then a word per delta at the script's rate).
 */
import { describe, expect, it } from "vitest";
import { failureOf, responsesInput, SessionLog, type Item } from "../../src/providers/openai/module/agents/loop";
import type { StoredSession } from "../../src/providers/openai/module/agents/objects";

const item = (fields: Record<string, unknown>): Item => ({ id: "x", turn_id: "t", type: "message", ...fields }) as Item;

describe("responsesInput", () => {
  it("gives the model messages, calls, results (an error as its text) and MCP calls; reasoning is its own", () => {
    const input = responsesInput([
      item({ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }),
      item({ type: "reasoning", summary: [] }),
      item({ type: "function_call", call_id: "c1", name: "f", arguments: { a: 1 } }),
      item({ type: "function_call_output", call_id: "c1", output: null, error: "down" }),
      item({
        type: "function_call_output",
        call_id: "c2",
        output: [
          { type: "input_text", text: "a" },
          { type: "input_image", image_url: "u" },
          { type: "input_text", text: "b" },
        ],
        error: null,
      }),
      item({ id: "mcp_1", type: "mcp_call", server_label: "wx", name: "get", arguments: { q: 1 }, output: "18C", error: null }),
    ]);
    expect(input).toStrictEqual([
      { role: "user", content: [{ type: "input_text", text: "hi" }] },
      { type: "function_call", call_id: "c1", name: "f", arguments: '{"a":1}' },
      { type: "function_call_output", call_id: "c1", output: "Error: down" },
      { type: "function_call_output", call_id: "c2", output: "ab" },
      { type: "mcp_call", id: "mcp_1", server_label: "wx", name: "get", arguments: '{"q":1}', output: "18C" },
    ]);
  });
});

describe("failureOf", () => {
  it("maps a model request's status to the turn's error code, and whether it is tried again", () => {
    const of = (status: number, body: unknown = { error: { message: "m" } }) => failureOf({ status, requestId: "", body });
    expect([of(429), of(503), of(529), of(500), of(408)].map((f) => [f.code, f.retry])).toStrictEqual([
      ["rate_limit_exceeded", true],
      ["server_overloaded", true],
      ["server_overloaded", true],
      ["server_error", true],
      ["request_timeout", true],
    ]);
    expect([of(400), of(401), of(404)].map((f) => [f.code, f.retry])).toStrictEqual([
      ["invalid_request", false],
      ["authentication_error", false],
      ["resource_not_found", false],
    ]);
    expect(of(500, "plain text").message).toBe("plain text");
    expect(of(502, "").message).toBe("The model request failed with status 502.");
  });
});

describe("SessionLog.pace", () => {
  const pacing = { ttftMs: 0, tokensPerSecond: 20, chunkDelayMs: 0, chunkWords: 1, jitterMs: 0, seed: 0 };
  it("puts a reply's events after its latency, each delta a word later at the rate, and the clock at the last", () => {
    const log = new SessionLog({ id: "s" } as StoredSession);
    log.clock = 1_000;
    log.emit("agent.session.turn.created");
    const from = log.events.length;
    log.emit("agent.session.turn.item.added");
    for (const w of ["a ", "b ", "c"]) log.emit("agent.session.turn.output_text.delta", { delta: w });
    log.emit("agent.session.turn.item.done");
    log.pace(from, { latencyMs: 150, pacing });
    expect(log.due).toStrictEqual([1_000, 1_150, 1_200, 1_250, 1_300, 1_300]);
    expect(log.clock).toBe(1_300);
    log.emit("agent.session.idle");
    expect(log.due.at(-1)).toBe(1_300);
  });

  it("without pacing (a reply that carried none) the events are due at once", () => {
    const log = new SessionLog({ id: "s" } as StoredSession);
    log.clock = 5;
    log.emit("x", { delta: "a" });
    log.pace(0, undefined);
    expect(log.due).toStrictEqual([5]);
  });
});
