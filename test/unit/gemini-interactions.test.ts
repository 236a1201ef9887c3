import { describe, expect, it } from "vitest";
import type { Reply } from "../../src/canonical/outcome";
import { parseInteraction, stepMessages } from "../../src/providers/gemini/interactions/parse";
import { renderInteractionEvents, renderInteractionJson, renderInteractionStreamError } from "../../src/providers/gemini/interactions/render";
import { inputSteps, type InteractionsWire } from "../../src/providers/gemini/interactions/wire";
import type { RenderContext } from "../../src/providers/types";
import { resolveReply } from "../../src/scenario/engine";
import type { ScenarioResponse } from "../../src/scenario/schema";

const headers = new Headers({ "x-goog-api-key": "k" });

function parsed(body: unknown) {
  const r = parseInteraction(body, headers);
  if (!r.ok) throw new Error(r.error.message);
  return r;
}

function ctxOf(body: Record<string, unknown>): RenderContext<InteractionsWire> {
  const r = parsed({ model: "gemini-2.5-flash", input: "hi", ...body });
  return { wire: r.wire, request: r.request, requestId: "req_1", created: 1_780_000_000 };
}

function reply(respond: ScenarioResponse, ctx = ctxOf({})): Reply {
  return resolveReply(undefined, { respond }, ctx.request, "s/default/step-1/1");
}

describe("Interactions input", () => {
  it("takes a string, one content block, content blocks and steps, as steps", () => {
    expect(inputSteps("Hi")).toEqual([{ type: "user_input", content: [{ type: "text", text: "Hi" }] }]);
    expect(inputSteps({ type: "text", text: "Hi" })).toEqual([{ type: "user_input", content: [{ type: "text", text: "Hi" }] }]);
    expect(
      inputSteps([
        { type: "text", text: "a" },
        { type: "image", uri: "gs://x" },
        { type: "function_result", call_id: "c1", result: "r" },
        { type: "text", text: "b" },
      ]),
    ).toEqual([
      {
        type: "user_input",
        content: [
          { type: "text", text: "a" },
          { type: "image", uri: "gs://x" },
        ],
      },
      { type: "function_result", call_id: "c1", result: "r" },
      { type: "user_input", content: [{ type: "text", text: "b" }] },
    ]);
  });

  it("maps steps to messages: one assistant turn per run of model steps, results by call_id", () => {
    expect(
      stepMessages([
        {
          type: "user_input",
          content: [
            { type: "text", text: "Weather?" },
            { type: "text", text: "In Rome." },
          ],
        },
        { type: "thought", signature: "sig", summary: [{ type: "text", text: "Need a tool." }] },
        { type: "model_output", content: [{ type: "text", text: "Checking." }] },
        { type: "function_call", id: "c1", name: "get_weather", arguments: { city: "Rome" } },
        { type: "function_result", call_id: "c1", name: "get_weather", result: [{ type: "text", text: "sunny" }] },
        { type: "function_result", call_id: "c2", result: { temp: 21 }, is_error: true },
        { type: "google_search_call", id: "g1", arguments: { queries: ["x"] } },
      ]),
    ).toEqual([
      { role: "user", text: "Weather?\nIn Rome." },
      { role: "assistant", text: "Checking.", reasoning: [{ text: "Need a tool.", signature: "sig" }], toolCalls: [{ id: "c1", name: "get_weather", arguments: '{"city":"Rome"}' }] },
      { role: "tool", toolCallId: "c1", name: "get_weather", content: "sunny", isError: false },
      { role: "tool", toolCallId: "c2", content: '{"temp":21}', isError: true },
    ]);
  });

  it("reads the generation config, the tool choice and both forms of a JSON response format", () => {
    const r = parsed({
      model: "gemini-3-flash-preview",
      input: "x",
      system_instruction: "Be brief.",
      tools: [{ type: "function", name: "f", parameters: { type: "object" } }, { type: "google_search" }],
      generation_config: {
        temperature: 0.2,
        top_p: 0.9,
        max_output_tokens: 64,
        stop_sequences: ["END"],
        thinking_summaries: "auto",
        tool_choice: { allowed_tools: { mode: "validated", tools: ["f"] } },
      },
      response_format: [{ type: "text", mime_type: "application/json", schema: { type: "object" } }],
    }).request;
    expect(r).toMatchObject({
      endpoint: "interactions",
      system: "Be brief.",
      tools: ["f"],
      temperature: 0.2,
      topP: 0.9,
      maxTokens: 64,
      stopSequences: ["END"],
      reasoning: "enabled",
      toolChoice: { kind: "required", allowed: ["f"] },
      toolSchemas: [{ name: "f", schema: { type: "object" } }],
      outputSchema: { kind: "json_schema", schema: { type: "object" }, strict: true },
    });
    expect(parsed({ model: "m", input: "x", response_mime_type: "application/json", response_format: { type: "object" } }).request.outputSchema).toEqual({
      kind: "json_schema",
      schema: { type: "object" },
      strict: true,
    });
    expect(parsed({ model: "m", input: "x", response_format: { type: "text", mime_type: "application/json" } }).request.outputSchema).toEqual({ kind: "json_object" });
    expect(parsed({ model: "m", input: "x", generation_config: { tool_choice: "none" } }).request.toolChoice).toEqual({ kind: "none" });
  });

  it("refuses what the API refuses, naming the field; an agent is answered by its name", () => {
    const error = (body: unknown) => {
      const r = parseInteraction(body, headers);
      return r.ok ? undefined : r.error;
    };
    expect(error({ input: "x" })).toMatchObject({ code: "invalid_request", message: "Missing required field: 'model'.", param: "model" });
    expect(error({ model: "m" })).toMatchObject({ code: "invalid_request", param: "input" });
    expect(error({ model: "m", input: "x", generation_config: { temperature: "hot" } })).toMatchObject({ code: "invalid_request", param: "generation_config.temperature" });
    expect(
      error({
        model: "m",
        input: [
          { type: "text", text: "a" },
          { type: "function_call", name: "f" },
        ],
      }),
    ).toMatchObject({
      message: 'Invalid value at \'input[1]\': expected a content block or a step of a known shape, got {"type":"function_call","name":"f"}.',
      param: "input[1]",
    });
    expect(error({ model: "m", input: 7 })?.message).toBe("Invalid value at 'input': expected a string, a content block, or a list of content blocks and steps, got 7.");
    expect(error({ model: 5, input: "x" })?.message).toBe("Invalid value at 'model': expected a value of type string, got 5.");
    expect(error({ model: "m", input: [] })).toMatchObject({ message: "Missing required field: 'input'." });
    expect(error({ model: "m", input: "x", tools: [{ type: "google_search" }, { type: "function" }] })).toMatchObject({ message: "Missing required field: 'tools[1].name'.", param: "tools[1].name" });
    expect(error({ model: "m", agent: "deep-research-pro-preview-12-2025", input: "x" })).toMatchObject({
      code: "invalid_request",
      message: "Only one of 'model' or 'agent' may be set.",
      param: "agent",
    });
    // An agent in `model`'s place is answered as a model is, scripted by its name.
    const agent = parseInteraction({ agent: "deep-research-pro-preview-12-2025", input: "x", background: true }, headers);
    expect(agent.ok && agent.request.model).toBe("deep-research-pro-preview-12-2025");
  });
});

describe("Interactions answers", () => {
  it("JSON: requires_action after calls, the call's derived id, the previous id echoed", () => {
    const ctx = ctxOf({ previous_interaction_id: "v1_prev" });
    const body = renderInteractionJson(reply({ toolCalls: [{ name: "get_weather", arguments: { city: "Rome" } }] }, ctx), ctx);
    expect(body).toEqual({
      id: expect.stringMatching(/^v1_[0-9A-Za-z]{40}$/),
      status: "requires_action",
      object: "interaction",
      model: "gemini-2.5-flash",
      created: "2026-05-28T20:26:40Z",
      updated: "2026-05-28T20:26:40Z",
      previous_interaction_id: "v1_prev",
      steps: [{ type: "function_call", id: expect.stringMatching(/^[0-9A-Za-z]{8}$/), name: "get_weather", arguments: { city: "Rome" } }],
      usage: expect.objectContaining({ total_tokens: expect.any(Number) }),
    });
    expect(renderInteractionJson(reply({ text: "cut", finishReason: "length" }), ctxOf({})).status).toBe("incomplete");
  });

  it("stream: a call is a step.start with its id and name, one arguments_delta, then step.stop; [DONE] last", () => {
    const ctx = ctxOf({ stream: true });
    const events = renderInteractionEvents(reply({ toolCalls: [{ id: "call-1", name: "f", arguments: { a: 1 } }] }, ctx), ctx);
    expect(events.map((e) => [e.event, e.data === "[DONE]" ? "[DONE]" : JSON.parse(e.data)])).toEqual([
      ["interaction.created", { interaction: { id: expect.any(String), status: "in_progress", object: "interaction", model: "gemini-2.5-flash" }, event_type: "interaction.created" }],
      ["interaction.status_update", { interaction_id: expect.any(String), status: "in_progress", event_type: "interaction.status_update" }],
      ["step.start", { index: 0, step: { type: "function_call", id: "call-1", name: "f", arguments: {} }, event_type: "step.start" }],
      ["step.delta", { index: 0, delta: { arguments: '{"a":1}', type: "arguments_delta" }, event_type: "step.delta" }],
      ["step.stop", { index: 0, event_type: "step.stop" }],
      ["interaction.status_update", { interaction_id: expect.any(String), status: "requires_action", event_type: "interaction.status_update" }],
      ["interaction.completed", { interaction: expect.objectContaining({ status: "requires_action", usage: expect.any(Object) }), event_type: "interaction.completed" }],
      ["done", "[DONE]"],
    ]);
    expect(JSON.parse(renderInteractionStreamError({ kind: "stream_error", afterChunks: 1, errorType: "INTERNAL", message: "boom" }).data)).toEqual({
      error: { code: "INTERNAL", message: "boom" },
      event_type: "error",
    });
  });
});
