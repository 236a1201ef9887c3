/**
 * A forced tool choice answered by the default responder (contract section 7), through the official `openai` SDK:
 * Chat Completions, Responses and the Responses WebSocket mode, JSON and stream. The real API always calls a tool
 * then; the arguments are derived from the request and valid against the tool's schema (checked with ajv).
 */
import OpenAI from "openai";
import { ResponsesWS } from "openai/resources/responses/ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lorem, loremLength } from "../../src/default/lorem";
import { startHarness, type Harness } from "./harness";
import { MESSAGE, schemaErrors, TIME_ARGS, TOOLS, WEATHER_ARGS } from "./tool-choice-fixtures";

let h: Harness;
let client: OpenAI;

beforeAll(async () => {
  h = await startHarness({ DEFAULT_WORDS_PER_SECOND: "0" });
  client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: "sk-test", maxRetries: 0 });
});
afterAll(() => h?.stop());

const MODEL = "gpt-4.1";
const chatTools = TOOLS.map((t) => ({ type: "function" as const, function: { name: t.name, description: t.description, parameters: t.schema } }));
const responseTools = TOOLS.map((t) => ({ type: "function" as const, name: t.name, description: t.description, parameters: t.schema, strict: false }));
const messages = [{ role: "user" as const, content: MESSAGE }];
const named = { type: "function" as const, function: { name: "get_weather" } };

describe("Chat Completions: a forced tool choice is answered with a call", () => {
  it("JSON, a named function: that tool, the exact arguments, valid against its schema; finish_reason stop", async () => {
    const res = await client.chat.completions.create({ model: MODEL, messages, tools: chatTools, tool_choice: named });
    const choice = res.choices[0]!;
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([{ id: expect.stringMatching(/^call_/), type: "function", function: { name: "get_weather", arguments: JSON.stringify(WEATHER_ARGS) } }]);
    expect(schemaErrors("get_weather", JSON.parse(choice.message.tool_calls![0]!.type === "function" ? choice.message.tool_calls![0]!.function.arguments : ""))).toEqual([]);
    // The real API's finish_reason for a named tool_choice is "stop"; "required" gives "tool_calls".
    expect(choice.finish_reason).toBe("stop");
  });

  it("JSON, required: the first tool offered, finish_reason tool_calls; the same request the same arguments", async () => {
    const ask = () => client.chat.completions.create({ model: MODEL, messages, tools: chatTools, tool_choice: "required" });
    const [a, b] = [await ask(), await ask()];
    const call = a.choices[0]!.message.tool_calls![0]!;
    expect(call.type === "function" ? [call.function.name, JSON.parse(call.function.arguments)] : []).toEqual(["lookup_time", TIME_ARGS]);
    expect(a.choices[0]!.finish_reason).toBe("tool_calls");
    expect(b.choices[0]!.message.tool_calls).toEqual(a.choices[0]!.message.tool_calls);
  });

  it("JSON, allowed_tools in required mode: the first offered of the allowed", async () => {
    const res = await client.chat.completions.create({
      model: MODEL,
      messages,
      tools: chatTools,
      tool_choice: { type: "allowed_tools", allowed_tools: { mode: "required", tools: [{ type: "function", function: { name: "get_weather" } }] } },
    });
    const call = res.choices[0]!.message.tool_calls![0]!;
    expect(call.type === "function" ? [call.function.name, JSON.parse(call.function.arguments)] : []).toEqual(["get_weather", WEATHER_ARGS]);
  });

  it("stream: the call's deltas add up to the same arguments, the last chunk finishes as JSON does", async () => {
    for (const [choice, name, args, finish] of [
      [named, "get_weather", WEATHER_ARGS, "stop"],
      ["required", "lookup_time", TIME_ARGS, "tool_calls"],
    ] as const) {
      const stream = await client.chat.completions.create({ model: MODEL, messages, tools: chatTools, tool_choice: choice, stream: true });
      let calledName = "";
      let argText = "";
      const finishes: (string | null)[] = [];
      for await (const c of stream) {
        const call = c.choices[0]?.delta.tool_calls?.[0];
        calledName += call?.function?.name ?? "";
        argText += call?.function?.arguments ?? "";
        finishes.push(c.choices[0]?.finish_reason ?? null);
        expect(c.choices[0]?.delta.content ?? null).toBeNull();
      }
      expect([calledName, JSON.parse(argText), finishes.filter((f) => f !== null)]).toEqual([name, args, [finish]]);
    }
  });

  it("auto, none, or no tools: the lorem answer as before", async () => {
    const lorem1 = `${lorem(loremLength(MESSAGE))}\n\n${MESSAGE}`;
    // `required` without tools is the real API's 400 (test/compat/leniency-refusals.test.ts).
    for (const extra of [{ tools: chatTools, tool_choice: "auto" as const }, { tools: chatTools, tool_choice: "none" as const }, {}]) {
      const res = await client.chat.completions.create({ model: MODEL, messages, ...extra });
      expect([res.choices[0]!.message.content, res.choices[0]!.message.tool_calls, res.choices[0]!.finish_reason]).toEqual([lorem1, undefined, "stop"]);
    }
  });
});

describe("Responses: a forced tool choice is answered with a function_call", () => {
  it("JSON: a named function and required", async () => {
    for (const [choice, name, args] of [
      [{ type: "function" as const, name: "get_weather" }, "get_weather", WEATHER_ARGS],
      ["required" as const, "lookup_time", TIME_ARGS],
    ] as const) {
      const res = await client.responses.create({ model: MODEL, input: MESSAGE, tools: responseTools, tool_choice: choice, store: false });
      expect(res.status).toBe("completed");
      expect(res.output).toEqual([expect.objectContaining({ type: "function_call", name, arguments: JSON.stringify(args), call_id: expect.stringMatching(/^call_/), status: "completed" })]);
      expect(schemaErrors(name, JSON.parse(res.output_text === "" && res.output[0]!.type === "function_call" ? res.output[0]!.arguments : "null"))).toEqual([]);
    }
  });

  it("stream: function_call_arguments events carry the same arguments", async () => {
    const stream = await client.responses.create({ model: MODEL, input: MESSAGE, tools: responseTools, tool_choice: { type: "function", name: "get_weather" }, stream: true, store: false });
    let deltas = "";
    let done = "";
    let completed: OpenAI.Responses.Response | undefined;
    for await (const e of stream) {
      if (e.type === "response.function_call_arguments.delta") deltas += e.delta;
      if (e.type === "response.function_call_arguments.done") done = e.arguments;
      if (e.type === "response.completed") completed = e.response;
    }
    expect([JSON.parse(deltas), JSON.parse(done)]).toEqual([WEATHER_ARGS, WEATHER_ARGS]);
    expect(completed?.output.map((o) => (o.type === "function_call" ? o.name : o.type))).toEqual(["get_weather"]);
  });

  it("WebSocket mode: response.create with a forced choice answers the call", async () => {
    const ws = new ResponsesWS(client);
    await new Promise((resolve, reject) => {
      ws.socket.on("open", resolve);
      ws.socket.on("error", reject);
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    await new Promise<void>((resolve) => {
      ws.on("event", (e) => {
        if (e.type.startsWith("response.")) events.push(e as OpenAI.Responses.ResponseStreamEvent);
        if (["response.completed", "response.failed", "error"].includes(e.type)) resolve();
      });
      ws.send({ type: "response.create", model: MODEL, input: MESSAGE, tools: responseTools, tool_choice: "required", store: false } as never);
    });
    ws.close();
    const done = events.flatMap((e) => (e.type === "response.function_call_arguments.done" ? [e.arguments] : []));
    expect([events.at(-1)!.type, done.map((a) => JSON.parse(a))]).toEqual(["response.completed", [TIME_ARGS]]);
    expect(schemaErrors("lookup_time", JSON.parse(done[0]!))).toEqual([]);
  });
});
