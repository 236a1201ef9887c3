/**
 * OpenAI's Agents API through the official `openai` SDK (`client.beta.agents`, `.sessions`, `.sessions.events`,
 * `.items`, `.turns`), on both runtimes: agents with every setting resolved, sessions whose agent the script plays —
 * the SDK's own helpers (`sessions.create({ stream: true, toolHandlers })`, `sessions.stream()`, `finalResult()`,
 * `zodAgentTextFormat`) running a function tool and a typed output unchanged — the event order of a turn, required
 * actions answered by hand, cancel, idempotent sends, scripted model failures retried then failing the turn, and
 * the API's refusals.
 */
import OpenAI, { toFile } from "openai";
import { zodAgentTextFormat } from "openai/helpers/beta/agents/zod";
import { zodResponsesFunction } from "openai/helpers/zod";
import { functionTool } from "openai/lib/beta/agents/function-tool";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const WEATHER = {
  name: "oa-weather",
  steps: [
    {
      id: "call",
      match: { turn: 1 },
      respond: { reasoning: [{ text: "Look it up." }], toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }], usage: { inputTokens: 30, outputTokens: 10 } },
    },
    { id: "answer", match: { toolResult: { name: "get_weather" } }, respond: { text: "It is sunny in Paris.", usage: { inputTokens: 50, outputTokens: 7 } } },
    { id: "again", match: { lastUserMessage: { contains: "thanks" } }, respond: { text: "You are welcome." } },
  ],
};
const FLAKY = {
  name: "oa-flaky",
  steps: [
    { id: "busy", match: { lastUserMessage: { contains: "retry" } }, failures: [{ kind: "rate_limit" }, { kind: "overloaded" }], respond: { text: "Made it after two retries." } },
    {
      id: "down",
      match: { lastUserMessage: { contains: "give up" } },
      failures: [{ kind: "overloaded" }, { kind: "overloaded" }, { kind: "overloaded" }, { kind: "overloaded" }],
      respond: { text: "never" },
    },
  ],
};
const PACED = { name: "oa-paced", steps: [{ id: "slow", respond: { text: "one two three four five six", latencyMs: 150, stream: { tokensPerSecond: 20 } } }] };
const MCP = {
  name: "oa-mcp",
  mcp: {
    tools: [{ name: "get_weather", description: "Weather", inputSchema: { type: "object" } }],
    calls: [{ id: "wx", match: { tool: "get_weather", arguments: { city: "Paris" } }, result: { content: [{ type: "text", text: "18C" }] } }],
  },
  steps: [
    { id: "look", match: { turn: 1 }, respond: { serverTools: [{ type: "mcp", server: "wx", tool: "get_weather", arguments: { city: "Paris" } }], text: "It is 18C in Paris." } },
    { id: "recall", respond: { text: "Still 18C." } },
  ],
};
const STRAY = { name: "oa-stray", steps: [{ id: "stray", respond: { toolCalls: [{ name: "delete_everything", arguments: {} }] } }] };

const client = (prefix = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${prefix}/v1`, maxRetries: 0 });

const WEATHER_TOOL = {
  type: "function" as const,
  name: "get_weather",
  description: "Weather of a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
};

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: InstanceType<typeof OpenAI.APIError>) => [e.status, e.type, e.message.replace(/^\d+ /, "")],
  );

/** Reads an open event stream until the session's idle after a turn ended (included). */
async function untilTurnIdle(events: AsyncIterator<{ type: string }>): Promise<any[]> {
  const seen: any[] = [];
  let ended = false;
  for (let next = await events.next(); !next.done; next = await events.next()) {
    seen.push(next.value);
    if (/^agent\.session\.turn\.(completed|failed|cancelled)$/.test(next.value.type)) ended = true;
    if (ended && next.value.type === "agent.session.idle") break;
  }
  return seen;
}

/** The event types of a text reply of `words` words, from the turn's creation to the session's idle. */
const textTurn = (words: number) => [
  "agent.session.turn.created",
  "agent.session.turn.item.added",
  "agent.session.in_progress",
  "agent.session.turn.in_progress",
  "agent.session.turn.item.added",
  "agent.session.turn.content_part.added",
  ...Array<string>(words).fill("agent.session.turn.output_text.delta"),
  "agent.session.turn.output_text.done",
  "agent.session.turn.content_part.done",
  "agent.session.turn.item.done",
  "agent.session.turn.completed",
  "agent.session.idle",
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(WEATHER, FLAKY, STRAY, PACED, MCP);
}, 120_000);
afterAll(() => h?.stop());

describe("openai agents: the objects", () => {
  it("an agent comes back with every setting resolved; update, list and delete", async () => {
    const c = client();
    const agent = await c.beta.agents.create({ model: "gpt-5.5", name: "Helper", instructions: "Be brief.", tools: [WEATHER_TOOL], metadata: { team: "core" } });
    expect(agent.id).toMatch(/^agent_[0-9a-f]{32}$/);
    const { id, created_at, updated_at, ...rest } = agent;
    expect(created_at).toBe(updated_at);
    expect(rest).toStrictEqual({
      object: "agent",
      name: "Helper",
      metadata: { team: "core" },
      instructions: "Be brief.",
      model: "gpt-5.5",
      multi_agent: { enabled: false, max_concurrent_subagents: null },
      reasoning: { effort: null, summary: null },
      service_tier: "auto",
      text: { format: { type: "text" }, verbosity: "medium" },
      tools: [{ ...WEATHER_TOOL, defer_loading: false }],
      compaction: { async: false },
      experimental: { time_awareness: false },
    });
    const updated = await c.beta.agents.update(id, { reasoning: { effort: "high" }, tools: null, metadata: null });
    expect([updated.reasoning, updated.tools, updated.metadata, updated.instructions, updated.name]).toStrictEqual([{ effort: "high", summary: null }, [], {}, "Be brief.", "Helper"]);
    expect((await c.beta.agents.retrieve(id)).reasoning.effort).toBe("high");

    const second = await c.beta.agents.create({ model: "gpt-5.5" });
    const page = await c.beta.agents.list({ limit: 1 });
    expect(page.data.map((a) => a.id)).toStrictEqual([second.id]);
    expect(page.has_more).toBe(true);
    const all: string[] = [];
    for await (const a of c.beta.agents.list({ limit: 1 })) all.push(a.id);
    expect(all).toStrictEqual([second.id, id]);
    expect(await c.beta.agents.delete(second.id)).toStrictEqual({ id: second.id, deleted: true, object: "agent.deleted" });
    expect(await refusal(c.beta.agents.retrieve(second.id))).toStrictEqual([404, "invalid_request_error", `No agent found with id '${second.id}'.`]);
  });

  it("refuses what the API refuses, in the platform's words", async () => {
    const c = client();
    expect(await refusal(c.beta.agents.create({} as never))).toStrictEqual([400, "invalid_request_error", "Missing required parameter: 'model'."]);
    expect(await refusal(c.beta.agents.create({ model: "m", colour: "red" } as never))).toStrictEqual([400, "invalid_request_error", "Unrecognized request argument supplied: colour"]);
    // Nested fields are checked too: nothing a client sends is silently dropped.
    expect(await refusal(c.beta.agents.create({ model: "m", reasoning: { effort: "high", colour: "red" } } as never))).toStrictEqual([
      400,
      "invalid_request_error",
      "Unknown parameter: 'reasoning.colour'.",
    ]);
    expect(await refusal(c.beta.agents.create({ model: "m", tools: [{ ...WEATHER_TOOL, strict: true }] } as never))).toStrictEqual([
      400,
      "invalid_request_error",
      "Unknown parameter: 'tools[0].strict'.",
    ]);
    expect(await refusal(c.beta.agents.create({ model: "m", tools: [{ type: "web_search" }] } as never))).toStrictEqual([
      400,
      "invalid_request_error",
      "mockllm plays an agent's function and MCP tools; 'web_search' tools are not served (docs/guide/openai-agents.md).",
    ]);
    expect(await refusal(c.beta.agents.create({ model: "m", tools: [WEATHER_TOOL, WEATHER_TOOL] }))).toStrictEqual([
      400,
      "invalid_request_error",
      "Invalid 'tools[1].name': duplicate tool name 'get_weather'.",
    ]);
    expect(await refusal(c.beta.agents.sessions.create({ environment: { type: "none" }, input: "hi" }))).toStrictEqual([
      400,
      "invalid_request_error",
      "Missing required parameter: 'agent.model' (a session without 'agent_id' names its model).",
    ]);
    expect(await refusal(c.beta.agents.sessions.create({ environment: { type: "none" }, agent: { model: "gpt-5.5" } }))).toStrictEqual([
      400,
      "invalid_request_error",
      "Missing required parameter: 'input' (a session without an environment starts with its input).",
    ]);
    expect(await refusal(c.beta.agents.sessions.retrieve("sess_nope"))).toStrictEqual([404, "invalid_request_error", "No session found with id 'sess_nope'."]);
    // A session named `agents` stays a session: `/s/{scenario}/agents/v1/responses` is a Responses turn, not this API.
    const turn = await client("/s/oa-weather/agents").responses.create({ model: "gpt-5.5", input: "Paris?", tools: [{ ...WEATHER_TOOL, strict: false }] });
    expect(turn.output.map((o) => o.type)).toStrictEqual(["reasoning", "function_call"]);
    expect((await h.journal("oa-weather", "agents")).map((e) => e.step)).toStrictEqual(["call"]);
    // The beta header is the API's requirement: a client that sends none is told which.
    const res = await fetch(`${h.url}/v1/agents`, { headers: { authorization: "Bearer sk-test" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toBe("You must provide the 'OpenAI-Beta' header to access the Agents API. Please try again by setting the header 'OpenAI-Beta: agents=v1'.");
  });
});

describe("openai agents: sessions played by the script", () => {
  it("the SDK's create stream runs a function tool with its handler and collects the final answer", async () => {
    const c = client("/s/oa-weather/run-1");
    const calls: unknown[] = [];
    const stream = await c.beta.agents.sessions.create({
      agent: { model: "gpt-5.5", instructions: "Use the tool.", tools: [WEATHER_TOOL] },
      environment: { type: "none" },
      input: "Weather in Paris?",
      stream: true,
      toolHandlers: {
        get_weather: async (args) => {
          calls.push(args);
          return { temp: 21 };
        },
      },
    });
    const result = await stream.finalResult();
    expect(calls).toStrictEqual([{ city: "Paris" }]);
    expect(result.output_text).toBe("It is sunny in Paris.");
    expect(result.turn).toMatchObject({ status: "completed", subagent_id: null, error: null, object: "agent.session.turn" });
    expect(result.turn.usage).toStrictEqual({ input_tokens: 80, input_tokens_details: { cached_tokens: 0 }, output_tokens: 17, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 97 });

    const session = await c.beta.agents.sessions.retrieve(result.session_id);
    expect([session.status, session.required_actions, session.usage?.total_tokens, session.environment]).toStrictEqual(["idle", [], 97, { type: "none" }]);
    const items: any[] = [];
    for await (const i of c.beta.agents.sessions.items.list(session.id, { order: "asc" })) items.push(i);
    expect(items.map((i) => [i.type, i.role ?? i.name ?? null, i.status])).toStrictEqual([
      ["message", "user", "completed"],
      ["reasoning", null, "completed"],
      ["function_call", "get_weather", "completed"],
      ["function_call_output", null, "completed"],
      ["message", "assistant", "completed"],
    ]);
    expect(items[1].summary).toStrictEqual([{ type: "summary_text", text: "Look it up." }]);
    expect(items[2].arguments).toStrictEqual({ city: "Paris" });
    expect([items[3].call_id, items[3].output, items[3].error]).toStrictEqual([items[2].call_id, '{"temp":21}', null]);
    expect(items[4].phase).toBe("final_answer");
    expect(new Set(items.map((i) => i.turn_id))).toStrictEqual(new Set([result.turn_id]));

    // The model saw the function's output: the second request's input ends with it, as Responses input.
    const journal = await h.journal("oa-weather", "run-1");
    expect(journal.map((e) => [e.request.path, e.step])).toStrictEqual([
      ["/v1/responses", "call"],
      ["/v1/responses", "answer"],
    ]);
    const input = journal[1]!.request.body.input;
    expect(input.at(-1)).toStrictEqual({ type: "function_call_output", call_id: items[2].call_id, output: '{"temp":21}' });
    expect(journal[1]!.request.body.instructions).toBe("Use the tool.");

    // A follow-up turn with sessions.stream(): the event order of a text turn, then the turns listed.
    const events: string[] = [];
    const follow = c.beta.agents.sessions.stream(session.id, { input: "thanks" });
    for await (const e of follow) events.push(e.type);
    expect(events).toStrictEqual(textTurn(3));
    const turns = await c.beta.agents.sessions.turns.list(session.id);
    expect(turns.data.map((t) => t.status)).toStrictEqual(["completed", "completed"]);
    expect(turns.data[1]!.id).toBe(result.turn_id);
    const turnItems = await c.beta.agents.sessions.turns.items.list(turns.data[0]!.id, { session_id: session.id, order: "asc" });
    expect(turnItems.data.map((i: any) => [i.role, i.content[0].text])).toStrictEqual([
      ["user", "thanks"],
      ["assistant", "You are welcome."],
    ]);
  });

  it("a required action answered by hand: the stream's events, the session waiting, unknown calls refused, idempotent sends", async () => {
    const c = client("/s/oa-weather/run-2");
    const session = await c.beta.agents.sessions.create({ agent: { model: "gpt-5.5", tools: [WEATHER_TOOL] }, environment: { type: "self_hosted", workspace_directory: "/work" } });
    expect(session.status).toBe("idle");
    expect(session.environment).toMatchObject({ type: "self_hosted", workspace_directory: "/work", capability_directories: [] });
    const live = (await c.beta.agents.sessions.events.stream(session.id))[Symbol.asyncIterator]();
    await c.beta.agents.sessions.events.create(session.id, { events: [{ type: "agent.session.input.message", input: [{ role: "user", content: [{ type: "input_text", text: "Paris?" }] }] }] });
    const first: any[] = [];
    for (let next = await live.next(); !next.done; next = await live.next()) {
      first.push(next.value);
      if (next.value.type === "agent.session.requires_action") break;
    }
    expect(first.map((e) => e.type)).toStrictEqual([
      "agent.session.turn.created",
      "agent.session.turn.item.added",
      "agent.session.in_progress",
      "agent.session.turn.in_progress",
      "agent.session.turn.item.added",
      "agent.session.turn.reasoning_summary_part.added",
      "agent.session.turn.reasoning_summary_text.delta",
      "agent.session.turn.reasoning_summary_text.delta",
      "agent.session.turn.reasoning_summary_text.delta",
      "agent.session.turn.reasoning_summary_text.done",
      "agent.session.turn.reasoning_summary_part.done",
      "agent.session.turn.item.done",
      "agent.session.turn.item.added",
      "agent.session.turn.item.done",
      "agent.session.requires_action",
    ]);
    expect(first.every((e) => typeof e.obfuscation === "string" && /^[A-Za-z0-9]*$/.test(e.obfuscation))).toBe(true);
    const turnId = first[0].turn_id;
    const action = first.at(-1).session.required_actions[0];
    expect(action).toStrictEqual({ type: "function_call", arguments: { city: "Paris" }, call_id: action.call_id, name: "get_weather", turn_id: turnId });
    expect((await c.beta.agents.sessions.retrieve(session.id)).status).toBe("requires_action");
    expect((await c.beta.agents.sessions.turns.retrieve(turnId, { session_id: session.id })).status).toBe("waiting");

    expect(
      await refusal(c.beta.agents.sessions.events.create(session.id, { events: [{ type: "agent.session.input.tool_result", turn_id: turnId, call_id: "call_nope", success: true, output: "x" }] })),
    ).toStrictEqual([400, "invalid_request_error", "Unknown pending tool call: call_nope"]);
    const result = { type: "agent.session.input.tool_result" as const, turn_id: turnId, call_id: action.call_id, success: true, output: "21 C" };
    // A cancel ends the turn: a result after it in the same send has no pending call (and nothing of the send applies).
    expect(await refusal(c.beta.agents.sessions.events.create(session.id, { events: [{ type: "agent.session.input.cancel" }, result] }))).toStrictEqual([
      400,
      "invalid_request_error",
      `Unknown pending tool call: ${action.call_id}`,
    ]);
    await c.beta.agents.sessions.events.create(session.id, { events: [result], "Idempotency-Key": "k-1" });
    // The same key again (a retry of a send that was applied) is answered without applying it twice.
    await c.beta.agents.sessions.events.create(session.id, { events: [result], "Idempotency-Key": "k-1" });
    const rest = await untilTurnIdle(live);
    expect(rest.map((e) => e.type).slice(0, 3)).toStrictEqual(["agent.session.turn.item.added", "agent.session.in_progress", "agent.session.turn.in_progress"]);
    expect(rest[0].item).toMatchObject({ type: "function_call_output", call_id: action.call_id, output: "21 C", error: null, status: "completed" });
    expect(rest.at(-2)).toMatchObject({ type: "agent.session.turn.completed", turn_id: turnId, turn: { status: "completed" } });
    expect(
      rest
        .filter((e) => e.type === "agent.session.turn.output_text.delta")
        .map((e) => e.delta)
        .join(""),
    ).toBe("It is sunny in Paris.");
    expect((await c.beta.agents.sessions.items.list(session.id)).data.filter((i) => i.type === "function_call_output")).toHaveLength(1);
    expect(await c.beta.agents.sessions.delete(session.id)).toStrictEqual({ id: session.id, deleted: true, object: "agent.session.deleted" });
    expect((await live.next()).done).toBe(true);
  });

  it("cancel ends a waiting turn; a stray function call fails the turn", async () => {
    const c = client("/s/oa-weather/run-3");
    const session = await c.beta.agents.sessions.create({ agent: { model: "gpt-5.5", tools: [WEATHER_TOOL] }, environment: { type: "none" }, input: "Paris?" });
    expect(session.status).toBe("requires_action");
    const live = (await c.beta.agents.sessions.events.stream(session.id, { include_obfuscation: false }, {}))[Symbol.asyncIterator]();
    await c.beta.agents.sessions.events.create(session.id, { events: [{ type: "agent.session.input.cancel" }] });
    const events = await untilTurnIdle(live);
    expect(events.map((e) => e.type)).toStrictEqual(["agent.session.turn.cancelled", "agent.session.idle"]);
    expect("obfuscation" in events[0]).toBe(false);
    expect(events[1].session).toMatchObject({ status: "idle", required_actions: [] });

    const stray = client("/s/oa-stray/run-1");
    const failed = await stray.beta.agents.sessions.create({ agent: { model: "gpt-5.5", tools: [WEATHER_TOOL] }, environment: { type: "none" }, input: "go", stream: true });
    const error = await failed.finalResult().then(
      () => undefined,
      (e) => [e.name, e.reason, e.turn?.status, e.turn?.error],
    );
    expect(error).toStrictEqual([
      "AgentTurnResultError",
      "failed",
      "failed",
      { code: "invalid_request", message: "mockllm: the scripted function call 'delete_everything' names no function of this agent (its functions: 'get_weather')." },
    ]);
  });

  it("scripted model failures are retried; four in a row fail the turn with the API's code", async () => {
    const c = client("/s/oa-flaky/run-1");
    const ok = await (await c.beta.agents.sessions.create({ agent: { model: "gpt-5.5" }, environment: { type: "none" }, input: "please retry", stream: true })).finalResult();
    expect(ok.output_text).toBe("Made it after two retries.");
    const session = await c.beta.agents.sessions.retrieve(ok.session_id);
    const error = await c.beta.agents.sessions
      .stream(session.id, { input: "give up" })
      .finalResult()
      .then(
        () => undefined,
        (e) => [e.reason, e.turn?.error?.code],
      );
    expect(error).toStrictEqual(["failed", "server_overloaded"]);
    expect((await h.journal("oa-flaky", "run-1")).map((e) => e.status)).toStrictEqual([429, 503, 200, 503, 503, 503, 503]);
  });

  it("the stream plays the script's latency and pacing: the reply's deltas arrive over time", async () => {
    const c = client("/s/oa-paced/run-1");
    const sent = performance.now();
    const stream = await c.beta.agents.sessions.create({ agent: { model: "gpt-5.5" }, environment: { type: "none" }, input: "go", stream: true });
    const seen: [string, number][] = [];
    for await (const e of stream) seen.push([e.type, performance.now() - sent]);
    const deltas = seen.filter(([t]) => t === "agent.session.turn.output_text.delta").map(([, ms]) => ms);
    expect(deltas).toHaveLength(6);
    // 150 ms of latency before the reply's first event, then a word every 50 ms: delta k is due 150 + 50k ms after
    // the session was made, which is after the request was sent. Bounds from below only (a loaded machine may
    // deliver later, never sooner); a few ms spared for timer rounding.
    expect(deltas[0]!).toBeGreaterThanOrEqual(140);
    expect(deltas[5]!).toBeGreaterThanOrEqual(390);
    expect(seen.at(-1)![0]).toBe("agent.session.idle");
  });

  it("an MCP server of the agent answers its calls: the session's scripted server, in the same journal", async () => {
    const c = client("/s/oa-mcp/run-1");
    const mcpTool = { type: "mcp" as const, server_label: "wx", transport: { type: "http" as const, server_url: `${h.url}/s/oa-mcp/run-1/mcp`, headers: { "x-team": "core" } } };
    const agent = await c.beta.agents.create({ model: "gpt-5.5", tools: [mcpTool] });
    expect(agent.tools).toStrictEqual([
      {
        type: "mcp",
        server_label: "wx",
        transport: { type: "http", server_url: mcpTool.transport.server_url, headers: { "x-team": "core" } },
        allowed_tools: null,
        connection_origin: "service",
        credential_id: null,
        request_metadata: {},
        required: false,
      },
    ]);
    const stream = await c.beta.agents.sessions.create({ agent_id: agent.id, environment: { type: "none" }, input: "Weather in Paris?", stream: true });
    const result = await stream.finalResult();
    expect(result.output_text).toBe("It is 18C in Paris.");
    const session = await c.beta.agents.sessions.retrieve(result.session_id);
    // A session's MCP transport answers its URL alone, as the API's session object does.
    expect((session.agent.tools[0] as { transport: unknown }).transport).toStrictEqual({ server_url: mcpTool.transport.server_url, type: "http" });
    const items = await c.beta.agents.sessions.items.list(session.id, { order: "asc" });
    expect(items.data.map((i) => i.type)).toStrictEqual(["message", "mcp_call", "message"]);
    expect(items.data[1]).toMatchObject({ type: "mcp_call", server_label: "wx", name: "get_weather", arguments: { city: "Paris" }, output: "18C", error: null, status: "completed" });
    const journal = await h.journal("oa-mcp", "run-1");
    expect(journal.map((e) => [e.endpoint, e.step])).toStrictEqual([
      ["responses", "look"],
      ["tools/call", "wx"],
    ]);
    // The next turn's model request carries the call as Responses input.
    await c.beta.agents.sessions.stream(session.id, { input: "And now?" }).finalResult();
    const next = (await h.journal("oa-mcp", "run-1")).at(-1)!;
    expect(next.request.body.input[1]).toMatchObject({ type: "mcp_call", server_label: "wx", name: "get_weather", arguments: '{"city":"Paris"}', output: "18C" });
    expect(await refusal(c.beta.agents.create({ model: "m", tools: [{ ...mcpTool, transport: { ...mcpTool.transport, authorization: "secret" } }] } as never))).toStrictEqual([
      400,
      "invalid_request_error",
      "Unknown parameter: 'tools[0].transport.authorization'.",
    ]);
    expect(await refusal(c.beta.agents.create({ model: "m", tools: [{ type: "mcp", server_label: "x", transport: { type: "stdio", command: "srv" } }] } as never))).toStrictEqual([
      400,
      "invalid_request_error",
      "mockllm starts no MCP server process: 'tools[0].transport' must be an 'http' transport (docs/guide/openai-agents.md).",
    ]);
  });

  it("a typed output without a script: the default responder's JSON parses with zodAgentTextFormat", async () => {
    const c = client();
    const Weather = z.object({ city: z.string(), celsius: z.number() });
    const stream = await c.beta.agents.sessions.create({
      agent: { model: "gpt-5.5", text: { format: zodAgentTextFormat(Weather) } },
      environment: { type: "none" },
      input: "Paris weather as JSON",
      stream: true,
    });
    const result = await stream.finalResult();
    expect(Weather.safeParse(result.output_parsed).success).toBe(true);
    expect(Object.keys(result.output_parsed).sort()).toStrictEqual(["celsius", "city"]);
  });

  it("functionTool adapts a zodResponsesFunction for the session's handlers", async () => {
    const c = client("/s/oa-weather/run-4");
    const tool = functionTool(zodResponsesFunction({ name: "get_weather", description: "Weather of a city", parameters: z.object({ city: z.string() }), function: ({ city }) => `${city}: 19 C` }));
    const session = await c.beta.agents.sessions.create({ agent: { model: "gpt-5.5", tools: [tool.definition] }, environment: { type: "self_hosted", workspace_directory: "/w" } });
    const result = await c.beta.agents.sessions.stream(session.id, { input: "Paris?", toolHandlers: { [tool.name]: tool.handler } }).finalResult();
    expect(result.output_text).toBe("It is sunny in Paris.");
    const items = await c.beta.agents.sessions.items.list(session.id, { order: "asc" });
    expect(items.data.find((i) => i.type === "function_call_output")).toMatchObject({ output: "Paris: 19 C" });
  });
  it("a message steers a waiting turn; a failed result reaches the model as an error; updates and filtered lists", async () => {
    const c = client("/s/oa-weather/run-5");
    const agent = await c.beta.agents.create({ model: "gpt-5.5", tools: [WEATHER_TOOL] });
    const session = await c.beta.agents.sessions.create({ agent_id: agent.id, agent: { instructions: "Answer in French." }, environment: { type: "none" }, input: "Paris?", metadata: { run: "5" } });
    expect([session.status, session.agent.id, session.agent.instructions, session.agent.tools.map((t) => (t as { name?: string }).name)]).toStrictEqual([
      "requires_action",
      agent.id,
      "Answer in French.",
      ["get_weather"],
    ]);
    const [action] = session.required_actions as any[];
    // The turn waits for the call's result: a message joins it instead of starting another turn.
    await c.beta.agents.sessions.events.create(session.id, {
      events: [{ type: "agent.session.input.message", input: [{ role: "user", content: [{ type: "input_text", text: "in Celsius please" }] }] }],
    });
    expect((await c.beta.agents.sessions.retrieve(session.id)).status).toBe("requires_action");
    await c.beta.agents.sessions.events.create(session.id, {
      events: [{ type: "agent.session.input.tool_result", turn_id: action.turn_id, call_id: action.call_id, success: false, error: "weather service down" }],
    });
    const journal = await h.journal("oa-weather", "run-5");
    expect(journal.map((e) => e.step)).toStrictEqual(["call", "answer"]);
    expect(journal[1]!.request.body.input.slice(-2)).toStrictEqual([
      { role: "user", content: [{ type: "input_text", text: "in Celsius please" }] },
      { type: "function_call_output", call_id: action.call_id, output: "Error: weather service down" },
    ]);
    expect(journal[1]!.request.body.instructions).toBe("Answer in French.");
    const turns = await c.beta.agents.sessions.turns.list(session.id);
    expect(turns.data.map((t) => t.status)).toStrictEqual(["completed"]);
    const items = await c.beta.agents.sessions.turns.items.list(turns.data[0]!.id, { session_id: session.id, order: "asc" });
    expect(items.data.map((i: any) => [i.type, i.role ?? i.status])).toStrictEqual([
      ["message", "user"],
      ["reasoning", "completed"],
      ["function_call", "completed"],
      ["message", "user"],
      ["function_call_output", "failed"],
      ["message", "assistant"],
    ]);
    // A cancel on an idle session is accepted and changes nothing.
    await c.beta.agents.sessions.events.create(session.id, { events: [{ type: "agent.session.input.cancel" }] });
    expect((await c.beta.agents.sessions.turns.list(session.id)).data.map((t) => t.status)).toStrictEqual(["completed"]);

    const updated = await c.beta.agents.sessions.update(session.id, { agent: { model: "gpt-5.5-mini", reasoning: { effort: "low" } }, metadata: { run: "5b" } });
    expect([updated.agent.model, updated.agent.reasoning, updated.agent.instructions, updated.metadata]).toStrictEqual([
      "gpt-5.5-mini",
      { effort: "low", summary: null },
      "Answer in French.",
      { run: "5b" },
    ]);
    expect((await c.beta.agents.sessions.list({ agent_id: agent.id })).data.map((s) => s.id)).toStrictEqual([session.id]);
    expect((await c.beta.agents.sessions.list({ metadata: { run: "5b" } } as never)).data.map((s) => s.id)).toStrictEqual([session.id]);
    expect((await c.beta.agents.sessions.list({ metadata: { run: "5" } } as never)).data).toStrictEqual([]);
    expect((await c.beta.agents.sessions.subagents.list(session.id)).data).toStrictEqual([]);
    expect((await c.beta.agents.sessions.artifacts.list(session.id)).data).toStrictEqual([]);
    expect(await refusal(c.beta.agents.sessions.turns.retrieve("turn_nope", { session_id: session.id }))).toStrictEqual([
      404,
      "invalid_request_error",
      "No turn found with id 'turn_nope' in this session.",
    ]);
    expect(await refusal(c.beta.agents.sessions.events.create("sess_nope", { events: [{ type: "agent.session.input.cancel" }] }))).toStrictEqual([
      404,
      "invalid_request_error",
      "No session found with id 'sess_nope'.",
    ]);
    expect(await refusal(c.beta.agents.sessions.events.create(session.id, { events: [] }))).toStrictEqual([
      400,
      "invalid_request_error",
      "Invalid 'events': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    ]);
  });
});

describe("openai agents: automations", () => {
  it("an automation is saved with its target resolved; an invocation opens the target's session, played by the script", async () => {
    const c = client("/s/oa-weather/auto-1");
    const auto = await c.beta.agents.automations.create({
      type: "periodic",
      name: "morning weather",
      expression: "0 7 * * 1-5",
      timezone: "Europe/Paris",
      target: {
        type: "new_session",
        agent: { model: "gpt-5.5", tools: [WEATHER_TOOL] },
        environment: { type: "none" },
        input: [{ role: "user", content: [{ type: "input_text", text: "Paris?" }] }],
        metadata: { kind: "daily" },
      },
    });
    expect(auto.id).toMatch(/^auto_[0-9a-f]{32}$/);
    expect(auto).toMatchObject({
      object: "agent.automation",
      type: "periodic",
      status: "active",
      expression: "0 7 * * 1-5",
      timezone: "Europe/Paris",
      created_by: { type: "developer" },
      pause_reason: null,
    });
    expect(auto.target).toMatchObject({
      type: "new_session",
      agent_id: null,
      environment: { type: "none" },
      input: [{ role: "user", type: "message", content: [{ type: "input_text", text: "Paris?" }] }],
      metadata: { kind: "daily" },
      vault_ids: [],
      agent: { model: "gpt-5.5", service_tier: "auto", tools: [{ ...WEATHER_TOOL, defer_loading: false }] },
    });

    const run = await c.beta.agents.automations.invocations.create(auto.id);
    expect(run).toMatchObject({ object: "agent.automation.invocation", automation_id: auto.id, status: "completed", error: null, source: { type: "manual" }, scheduled_at: null, skip_reason: null });
    const session = await c.beta.agents.sessions.retrieve(run.session_id!);
    expect([session.status, session.metadata, (session.required_actions[0] as { name: string }).name]).toStrictEqual(["requires_action", { kind: "daily" }, "get_weather"]);
    expect((await h.journal("oa-weather", "auto-1")).map((e) => e.step)).toStrictEqual(["call"]);
    expect(await c.beta.agents.automations.invocations.retrieve(run.id, { automation_id: auto.id })).toStrictEqual(run);
    expect((await c.beta.agents.automations.invocations.list(auto.id)).data.map((i) => i.id)).toStrictEqual([run.id]);

    // An automation that messages an existing session: the instructions start its next turn (the journal's next step).
    const idle = await c.beta.agents.sessions.create({ agent: { model: "gpt-5.5" }, environment: { type: "self_hosted", workspace_directory: "/w" } });
    const nudge = await c.beta.agents.automations.create({ type: "once", name: "nudge", run_at: 1_900_000_000, target: { type: "existing_session", session_id: idle.id, instructions: "thanks" } });
    expect(nudge.target).toStrictEqual({ instructions: "thanks", session_id: idle.id, type: "existing_session" });
    const nudged = await c.beta.agents.automations.invocations.create(nudge.id);
    expect([nudged.status, nudged.session_id]).toStrictEqual(["completed", idle.id]);
    const items = await c.beta.agents.sessions.items.list(idle.id, { order: "asc" });
    expect(items.data.map((i: any) => i.content?.[0]?.text)).toStrictEqual(["thanks", "You are welcome."]);
    expect((await c.beta.agents.automations.list({ session_id: idle.id } as never)).data.map((x) => x.id)).toStrictEqual([nudge.id]);

    const paused = await c.beta.agents.automations.pause(auto.id);
    expect(paused.status).toBe("paused");
    expect((await c.beta.agents.automations.resume(auto.id)).status).toBe("active");
    const renamed = (await c.beta.agents.automations.update(auto.id, { name: "weather", expression: "30 6 * * *" })) as OpenAI.Beta.Agents.Automations.PeriodicAutomation;
    expect([renamed.name, renamed.expression, renamed.timezone]).toStrictEqual(["weather", "30 6 * * *", "Europe/Paris"]);

    // The session it messages is gone: the invocation records why it failed.
    await c.beta.agents.sessions.delete(idle.id);
    const failed = await c.beta.agents.automations.invocations.create(nudge.id);
    expect([failed.status, failed.error]).toStrictEqual(["failed", { code: "not_found", message: `No session found with id '${idle.id}'.` }]);

    expect(
      await refusal(
        c.beta.agents.automations.create({ type: "periodic", name: "x", expression: "every day", timezone: "UTC", target: { type: "existing_session", session_id: session.id, instructions: "x" } }),
      ),
    ).toStrictEqual([400, "invalid_request_error", "Invalid 'expression': 'every day' is not a cron expression of five fields (minute hour day-of-month month day-of-week)."]);
    expect(
      await refusal(
        c.beta.agents.automations.create({
          type: "periodic",
          name: "x",
          expression: "* * * * *",
          timezone: "Mars/Olympus",
          target: { type: "existing_session", session_id: session.id, instructions: "x" },
        }),
      ),
    ).toStrictEqual([400, "invalid_request_error", "Invalid 'timezone': 'Mars/Olympus' is not an IANA time zone."]);
    expect(await refusal(c.beta.agents.automations.create({ type: "once", name: "x", run_at: 1, target: { type: "existing_session", session_id: "sess_nope", instructions: "x" } }))).toStrictEqual([
      404,
      "invalid_request_error",
      "No session found with id 'sess_nope'.",
    ]);
    expect(await c.beta.agents.automations.delete(auto.id)).toStrictEqual({ id: auto.id, deleted: true, object: "agent.automation.deleted" });
    expect(await refusal(c.beta.agents.automations.retrieve(auto.id))).toStrictEqual([404, "invalid_request_error", `No automation found with id '${auto.id}'.`]);
  });
});

describe("openai agents: vaults and credentials", () => {
  it("a credential's secret is kept, never answered; a session's MCP server gets the vault's bearer token", async () => {
    const c = client("/s/oa-mcp/vault-1");
    const vault = await c.beta.agents.vaults.create({ name: "prod", metadata: { team: "core" } });
    expect(vault).toStrictEqual({ id: vault.id, created_at: vault.created_at, metadata: { team: "core" }, name: "prod", object: "vault" });
    expect(vault.id).toMatch(/^vault_[0-9a-f]{32}$/);
    const serverUrl = `${h.url}/s/oa-mcp/vault-1/mcp`;
    const cred = await c.beta.agents.vaults.credentials.create(vault.id, { name: "wx", auth: { type: "static_bearer", token: "tok-123", mcp_server_url: serverUrl } });
    expect(cred).toStrictEqual({
      id: cred.id,
      auth: { mcp_server_url: serverUrl, type: "static_bearer" },
      created_at: cred.created_at,
      metadata: {},
      name: "wx",
      object: "vault.credential",
      updated_at: cred.updated_at,
      vault_id: vault.id,
    });
    expect(JSON.stringify(await c.beta.agents.vaults.credentials.retrieve(cred.id, { vault_id: vault.id }))).not.toContain("tok-123");
    const env = await c.beta.agents.vaults.credentials.create(vault.id, {
      name: "db",
      auth: { type: "environment_variable", secret_name: "DB_URL", secret_value: "postgres://x", networking: { type: "limited", allowed_hosts: ["db.internal"] } },
    });
    expect(env.auth).toStrictEqual({ networking: { type: "limited", allowed_hosts: ["db.internal"] }, secret_name: "DB_URL", type: "environment_variable" });
    const rotated = await c.beta.agents.vaults.credentials.update(cred.id, { vault_id: vault.id, auth: { type: "static_bearer", token: "tok-456" }, metadata: { rotated: "yes" } });
    expect([rotated.metadata, rotated.auth]).toStrictEqual([{ rotated: "yes" }, { mcp_server_url: serverUrl, type: "static_bearer" }]);
    expect((await c.beta.agents.vaults.credentials.list(vault.id)).data.map((x) => x.name)).toStrictEqual(["db", "wx"]);
    expect((await c.beta.agents.vaults.list({ metadata: { team: "core" } } as never)).data.map((v) => v.id)).toStrictEqual([vault.id]);

    const mcpTool = { type: "mcp" as const, server_label: "wx", transport: { type: "http" as const, server_url: serverUrl } };
    const result = await (
      await c.beta.agents.sessions.create({ agent: { model: "gpt-5.5", tools: [mcpTool] }, environment: { type: "none" }, vault_ids: [vault.id], input: "Weather?", stream: true })
    ).finalResult();
    expect(result.output_text).toBe("It is 18C in Paris.");
    const session = await c.beta.agents.sessions.retrieve(result.session_id);
    expect(session.vault_ids).toStrictEqual([vault.id]);
    expect(JSON.stringify(session)).not.toContain("tok-456");
    // The MCP server was called with the credential as a bearer token (the journal shows the header, redacted).
    const call = (await h.journal("oa-mcp", "vault-1")).find((e) => e.endpoint === "tools/call")!;
    expect(call.request.headers.authorization).toBe("[redacted]");

    expect(await refusal(c.beta.agents.sessions.create({ agent: { model: "gpt-5.5" }, environment: { type: "none" }, vault_ids: ["vault_nope"], input: "hi" }))).toStrictEqual([
      404,
      "invalid_request_error",
      "No vault found with id 'vault_nope'.",
    ]);
    expect(await refusal(c.beta.agents.vaults.credentials.update(cred.id, { vault_id: vault.id, auth: { type: "environment_variable", secret_value: "x" } }))).toStrictEqual([
      400,
      "invalid_request_error",
      `Invalid 'auth.type': credential ${cred.id} is 'static_bearer'; a rotation keeps its type.`,
    ]);
    expect(await c.beta.agents.vaults.delete(vault.id)).toStrictEqual({ id: vault.id, deleted: true, object: "vault.deleted" });
    expect(await refusal(c.beta.agents.vaults.credentials.list(vault.id))).toStrictEqual([404, "invalid_request_error", `No vault found with id '${vault.id}'.`]);
  });

  it("without a credential the MCP server is called without one", async () => {
    const c = client("/s/oa-mcp/vault-2");
    const mcpTool = { type: "mcp" as const, server_label: "wx", transport: { type: "http" as const, server_url: `${h.url}/s/oa-mcp/vault-2/mcp` } };
    await (await c.beta.agents.sessions.create({ agent: { model: "gpt-5.5", tools: [mcpTool] }, environment: { type: "none" }, input: "Weather?", stream: true })).finalResult();
    const call = (await h.journal("oa-mcp", "vault-2")).find((e) => e.endpoint === "tools/call")!;
    expect(call.request.headers.authorization).toBeUndefined();
  });
});

describe("openai agents: hosted environments and templates", () => {
  it("files: the SDK's upload and prepare helpers, inline bytes, an environment's files listed by directory", async () => {
    const c = client("/s/oa-weather/files-1");
    const env = await c.beta.agents.environments.create({
      environment: { type: "openai_hosted", files: [{ type: "inline", path: "/workspace/README.md", data: Buffer.from("hello").toString("base64") }] },
    });
    expect(env.files).toStrictEqual([{ id: env.files[0]!.id, path: "/workspace/README.md", size_bytes: 5, type: "inline" }]);
    const { uploadedFile, environmentFile } = await c.beta.agents.environments.files.upload(env.id, { file: await toFile(Buffer.from("a,b\n1,2\n"), "data.csv"), path: "/workspace/data/data.csv" });
    expect(uploadedFile).toMatchObject({ object: "file", purpose: "user_data", bytes: 8 });
    expect(environmentFile).toStrictEqual({ environment_id: env.id, object: "agent.environment.file", path: "/workspace/data/data.csv", size_bytes: 8 });
    await c.beta.agents.environments.files.create(env.id, { type: "inline", path: "/workspace/data/more.txt", data: Buffer.from("more").toString("base64") });
    const inData = await c.beta.agents.environments.files.list(env.id, { path: "/workspace/data" });
    expect(inData.data.map((f) => [f.path, f.size_bytes])).toStrictEqual([
      ["/workspace/data/data.csv", 8],
      ["/workspace/data/more.txt", 4],
    ]);
    const all: string[] = [];
    for await (const f of c.beta.agents.environments.files.list(env.id, { limit: 1 })) all.push(f.path);
    expect(all).toStrictEqual(["/workspace/README.md", "/workspace/data/data.csv", "/workspace/data/more.txt"]);

    // prepare() uploads through the Files API; a session's inline environment takes the references.
    const prepared = await c.beta.agents.environments.files.prepare({ "/workspace/notes.txt": await toFile(Buffer.from("notes"), "notes.txt") });
    const session = await c.beta.agents.sessions.create({ agent: { model: "gpt-5.5" }, environment: { type: "openai_hosted", files: prepared.files }, input: "thanks" });
    expect((session.environment as { files: unknown[] }).files).toStrictEqual([
      { id: expect.stringMatching(/^envfile_/), file_id: prepared.uploadedFiles[0]!.id, path: "/workspace/notes.txt", size_bytes: 5, type: "file_id" },
    ]);
    expect(await refusal(c.beta.agents.environments.files.create(env.id, { type: "file_id", file_id: "file-nope", path: "/workspace/x" }))).toStrictEqual([
      404,
      "invalid_request_error",
      "No such File object: file-nope",
    ]);
    expect(await refusal(c.beta.agents.environments.files.create(env.id, { type: "inline", data: "not base64!", path: "/workspace/x" }))).toStrictEqual([
      400,
      "invalid_request_error",
      "Invalid 'data': expected standard base64.",
    ]);
    expect(await refusal(c.beta.agents.environments.files.create(env.id, { type: "inline", data: "", path: "relative.txt" }))).toStrictEqual([
      400,
      "invalid_request_error",
      "Invalid 'path': expected an absolute path, but got 'relative.txt' instead.",
    ]);
  });

  it("a template, an environment made from it, and a session that names the environment", async () => {
    const c = client("/s/oa-weather/env-1");
    const template = await c.beta.agents.environments.templates.create({
      name: "py",
      packages: { python: ["pandas"] },
      network: { access: "restricted", allowed_domains: ["pypi.org"], blocked_domains: ["example.com"] },
      env: { TOKEN: "secret" },
    });
    expect(template.id).toMatch(/^envtpl_[0-9a-f]{32}$/);
    const { id: tid, created_at, updated_at, ...rest } = template;
    expect(created_at).toBe(updated_at);
    expect(rest).toStrictEqual({
      capability_directories: [],
      files: [],
      network: { access: "restricted", allowed_domains: ["pypi.org"] },
      packages: { npm: [], python: ["pandas"], system: [] },
      plugins: [],
      skills: [],
      name: "py",
      object: "agent.environment.template",
    });
    const renamed = await c.beta.agents.environments.templates.update(tid, { name: "py-2", packages: { npm: ["zod"] } });
    expect([renamed.name, renamed.packages, renamed.network.access]).toStrictEqual(["py-2", { npm: ["zod"], python: ["pandas"], system: [] }, "restricted"]);
    expect((await c.beta.agents.environments.templates.list()).data.map((t) => t.id)).toContain(tid);

    const env = await c.beta.agents.environments.create({ environment: { type: "openai_hosted", environment_template_id: tid, capability_directories: ["/skills"] } });
    expect(env).toStrictEqual({ id: env.id, files: [], object: "agent.environment", plugins: [], skills: [], status: "ready", type: "openai_hosted" });
    expect(await c.beta.agents.environments.retrieve(env.id)).toStrictEqual(env);
    expect((await c.beta.agents.environments.list({ type: "openai_hosted" })).data.map((e) => e.id)).toContain(env.id);

    const session = await c.beta.agents.sessions.create({
      agent: { model: "gpt-5.5", tools: [WEATHER_TOOL] },
      environment: { type: "openai_hosted", environment_id: env.id } as never,
      input: "Paris?",
    });
    expect(session.environment).toStrictEqual({
      id: env.id,
      capability_directories: ["/skills"],
      files: [],
      network: { access: "restricted", allowed_domains: ["pypi.org"] },
      packages: { npm: ["zod"], python: ["pandas"], system: [] },
      plugins: [],
      skills: [],
      type: "openai_hosted",
      container_size: null,
    });
    expect(session.status).toBe("requires_action");

    expect(await refusal(c.beta.agents.environments.retrieve("env_nope"))).toStrictEqual([404, "invalid_request_error", "No environment found with id 'env_nope'."]);
    expect(await refusal(c.beta.agents.environments.create({ environment: { type: "openai_hosted", skills: [{ type: "skill_reference", skill_id: "s" }] } } as never))).toStrictEqual([
      400,
      "invalid_request_error",
      "mockllm provisions no hosted environment: 'environment.skills' is not served (docs/guide/openai-agents.md).",
    ]);
    expect(
      await refusal(c.beta.agents.sessions.create({ agent: { model: "gpt-5.5" }, environment: { type: "openai_hosted", environment_id: env.id, packages: { npm: ["x"] } } as never, input: "hi" })),
    ).toStrictEqual([400, "invalid_request_error", "Invalid 'environment.packages': an existing environment ('environment_id') takes no configuration."]);
    expect(await c.beta.agents.environments.templates.delete(tid)).toStrictEqual({ id: tid, deleted: true, object: "agent.environment.template.deleted" });
    expect(await refusal(c.beta.agents.environments.templates.retrieve(tid))).toStrictEqual([404, "invalid_request_error", `No environment template found with id '${tid}'.`]);
  });
});

describe("openai agents: bad input", () => {
  it("every route answers malformed bodies and odd paths with a 4xx in OpenAI's shape, never a 5xx", async () => {
    const c = client("/s/oa-weather/bad-1");
    const agent = await c.beta.agents.create({ model: "gpt-5.5" });
    const session = await c.beta.agents.sessions.create({ agent_id: agent.id, environment: { type: "self_hosted", workspace_directory: "/w" } });
    const vault = await c.beta.agents.vaults.create({ name: "v" });
    const paths = [
      "/v1/agents",
      `/v1/agents/${agent.id}`,
      "/v1/agents/sessions",
      `/v1/agents/sessions/${session.id}`,
      `/v1/agents/sessions/${session.id}/events`,
      "/v1/agents/environments",
      "/v1/agents/environments/templates",
      "/v1/agents/automations",
      "/v1/vaults",
      `/v1/vaults/${vault.id}`,
      `/v1/vaults/${vault.id}/credentials`,
    ];
    const bodies = [
      "{",
      "[]",
      "42",
      '"text"',
      "null",
      JSON.stringify({ model: 1, environment: "x", events: "y", name: [], target: 3, auth: {}, type: {} }),
      JSON.stringify({ events: [null, 1, { type: 5 }] }),
    ];
    const statuses = new Set<number>();
    for (const p of paths) {
      for (const body of bodies) {
        const res = await fetch(`${h.url}/s/oa-weather/bad-1${p}`, {
          method: "POST",
          headers: { authorization: "Bearer sk-test", "openai-beta": "agents=v1", "content-type": "application/json" },
          body,
        });
        const json = (await res.json()) as { error?: { type: string; message: string } };
        expect(res.status, `${p} ${body}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${p} ${body}`).toBeLessThan(500);
        expect(json.error?.type, `${p} ${body}`).toBe("invalid_request_error");
        statuses.add(res.status);
      }
    }
    for (const odd of [
      "/v1/agents/sessions/x/y/z/w",
      `/v1/agents/sessions/${session.id}/turns/t/nope`,
      "/v1/agents/environments/e/files/x",
      "/v1/vaults/v/credentials/c/x",
      "/v1/agents/automations/a/b/c/d",
    ]) {
      const res = await fetch(`${h.url}${odd}`, { headers: { authorization: "Bearer sk-test", "openai-beta": "agents=v1" } });
      expect(res.status, odd).toBeGreaterThanOrEqual(400);
      expect(res.status, odd).toBeLessThan(500);
    }
    expect([...statuses].sort()).toStrictEqual([400]);
  });
});
