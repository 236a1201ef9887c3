/** The bundled `weather-variables` scenario, run through the engine turn by turn. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CanonicalMessage } from "../../src/canonical/request";
import { parseScenarioDocument } from "../../src/scenario/document";
import { decide, type SessionState } from "../../src/scenario/engine";
import { req } from "./fixtures";

const raw: unknown = JSON.parse(readFileSync(new URL("../../scenarios/weather-variables.json", import.meta.url), "utf8"));

describe("scenarios/weather-variables.json", () => {
  it("asks for get_weather with the variable, answers after that call's result, then a follow-up after that answer", () => {
    const parsed = parseScenarioDocument(raw, "weather-variables");
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const state: SessionState = { used: [], attempts: {} };
    const ctx = { scenario: "weather-variables", session: "run-1" };
    const ask = (messages: CanonicalMessage[]) => {
      const d = decide(parsed.scenario, state, req({ model: "gpt-4o-mini" }, messages), ctx);
      if (d.change.consume !== undefined) state.used.push(d.change.consume);
      if (d.outcome.kind !== "reply") throw new Error(d.outcome.kind === "mismatch" ? d.outcome.message : "failure");
      return { step: d.journal.step, text: d.outcome.reply.text, toolCalls: d.outcome.reply.toolCalls };
    };

    const history: CanonicalMessage[] = [{ role: "user", text: "What's the weather like?" }];
    const first = ask(history);
    expect(first).toEqual({
      step: "ask-tool",
      text: "Checking the weather in Lisbon.",
      toolCalls: [{ name: "get_weather", arguments: '{"city":"Lisbon","days":1}' }],
    });

    history.push(
      { role: "assistant", text: first.text!, toolCalls: [{ id: "call_1", name: "get_weather", arguments: first.toolCalls[0]!.arguments }], reasoning: [] },
      { role: "tool", toolCallId: "call_1", content: "24C, clear", isError: false },
    );
    const second = ask(history);
    expect(second).toEqual({ step: "answer", text: "It is sunny in Lisbon, 24 °C (gpt-4o-mini, turn 2).", toolCalls: [] });

    history.push({ role: "assistant", text: second.text!, toolCalls: [], reasoning: [] }, { role: "user", text: "and tomorrow?" });
    expect(ask(history)).toEqual({
      step: "follow-up",
      text: 'Tomorrow in Lisbon: the same. You asked "and tomorrow?" in session run-1.',
      toolCalls: [],
    });
  });

  it("the answer step needs the earlier get_weather call: a tool result alone is a mismatch naming match.toolCall", () => {
    const parsed = parseScenarioDocument(raw);
    if (!parsed.ok) throw new Error("invalid");
    const messages: CanonicalMessage[] = [
      { role: "user", text: "hi" },
      { role: "assistant", text: "", toolCalls: [{ id: "c", name: "get_time", arguments: "{}" }], reasoning: [] },
      { role: "tool", toolCallId: "c", name: "get_weather", content: "x", isError: false },
    ];
    const d = decide(parsed.scenario, { used: [0], attempts: {} }, req({}, messages), { scenario: "weather-variables", session: "s" });
    expect(d.outcome.kind).toBe("mismatch");
    expect(d.journal.reasons).toContain(
      'match.toolCall: expected an earlier tool call with name "get_weather", arguments including {"city":{"regex":"^Lis"}}, got [{"name":"get_time","arguments":{}}]',
    );
  });
});
