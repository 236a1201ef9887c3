/**
 * Chat Completions' tool-message rule (src/providers/openai/chat/tool-messages.ts) and the Responses API's unanswered
 * call (responses/parse.ts): each answer as the API gives it
 * (sources in docs/providers/fidelity.md, "OpenAI: tool messages that do not answer tool calls").
 */
import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../../src/providers/openai/chat/parse";
import { toolMessagesError } from "../../src/providers/openai/chat/tool-messages";
import { parseResponsesRequest, unansweredCallError } from "../../src/providers/openai/responses/parse";

const H = new Headers({ authorization: "Bearer sk" });
const system = { role: "system", content: "Be brief." };
const user = { role: "user", content: "weather?" };
const call = (id: string) => ({ id, type: "function", function: { name: "get_weather", arguments: "{}" } });
const calling = (...ids: string[]) => ({ role: "assistant", content: null, tool_calls: ids.map(call) });
const tool = (id: string) => ({ role: "tool", tool_call_id: id, content: "18C" });

function check(messages: unknown[]) {
  const r = parseChatRequest({ model: "gpt-4o", messages }, H);
  if (!r.ok) throw new Error(r.error.message);
  const e = toolMessagesError(r.wire);
  return e && { message: e.message, param: e.param, code: e.providerCode ?? null };
}

describe("toolMessagesError", () => {
  it("a tool message with no call before it (the captured body: param messages.[3].role, code null)", () => {
    expect(check([system, user, { role: "assistant", content: "Hi." }, tool("call_1")])).toEqual({
      message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      param: "messages.[3].role",
      code: null,
    });
  });

  it("an answer under an id the calls do not have", () => {
    expect(check([user, calling("call_a"), tool("call_b")])).toEqual({
      message: "Invalid parameter: 'tool_call_id' of 'call_b' not found in 'tool_calls' of previous message.",
      param: "messages.[2].tool_call_id",
      code: null,
    });
  });

  it("calls left unanswered when another message comes, every id listed, at that message", () => {
    expect(check([system, user, calling("call_a", "call_b", "call_c"), tool("call_b"), user])).toEqual({
      message: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_a, call_c",
      param: "messages.[4].role",
      code: null,
    });
  });

  it("answers in any order, several rounds, and calls the request ends on: taken", () => {
    expect(check([user, calling("call_a", "call_b"), tool("call_b"), tool("call_a"), { role: "assistant", content: "18C" }, user, calling("call_c"), tool("call_c")])).toBeUndefined();
    expect(check([user, calling("call_a")])).toBeUndefined();
  });
});

describe("unansweredCallError (Responses)", () => {
  const fc = (id: string) => ({ type: "function_call", call_id: id, name: "get_weather", arguments: "{}" });
  const out = (id: string) => ({ type: "function_call_output", call_id: id, output: "18C" });
  const items = (...raw: unknown[]) => {
    const r = parseResponsesRequest({ model: "gpt-5", input: raw }, H);
    if (!r.ok) throw new Error(r.error.message);
    return r.wire.items;
  };

  it("the first call no output answers, wherever the output would be (param input)", () => {
    const e = unansweredCallError([], items({ role: "user", content: "weather?" }, fc("call_a"), fc("call_b"), out("call_b"), { role: "user", content: "and?" }));
    expect(e && [e.message, e.param]).toEqual(["No tool output found for function call call_a.", "input"]);
    expect(unansweredCallError([], items(fc("call_a")))).toMatchObject({ message: "No tool output found for function call call_a." });
  });

  it("every call answered, outputs in any order: taken", () => {
    expect(unansweredCallError([], items({ role: "user", content: "weather?" }, fc("call_a"), fc("call_b"), out("call_b"), out("call_a")))).toBeUndefined();
  });
});
