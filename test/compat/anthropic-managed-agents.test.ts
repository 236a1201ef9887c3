/**
 * Claude Managed Agents through the official `@anthropic-ai/sdk` (`client.beta.agents`, `.environments`, `.sessions`),
 * on both runtimes: the objects (an agent's resolved model and tools, its versions and the 409 of a stale version,
 * environments, sessions listed both ways), and a session whose agent the script plays — the event stream (opened
 * before the send, no replay, `event:` names the SDK needs), a custom tool's `requires_action` and result, the SDK's
 * own `sessions.events.toolRunner` running the tool, a built-in tool under `always_ask` confirmed and denied, scripted
 * model failures retried then exhausted, `event_deltas` folded by the SDK's accumulator, and the API's refusals.
 */
import Anthropic, { toFile } from "@anthropic-ai/sdk";
import { betaTool } from "@anthropic-ai/sdk/helpers/beta/json-schema";
import { accumulateManagedAgentsEvent } from "@anthropic-ai/sdk/lib/sessions/accumulate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey, rootAdmin } from "../support/namespaces";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const WEATHER = {
  name: "ma-weather",
  steps: [
    {
      id: "call",
      match: { turn: 1 },
      respond: { reasoning: [{ text: "Look it up.", signature: "sig-1" }], toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }], usage: { inputTokens: 30, outputTokens: 10 } },
    },
    { id: "answer", match: { toolResult: { name: "get_weather" } }, respond: { text: "It is sunny in Paris.", usage: { inputTokens: 50, outputTokens: 7 } } },
  ],
};
const TWO = {
  name: "ma-two",
  steps: [
    {
      id: "both",
      match: { turn: 1 },
      respond: {
        toolCalls: [
          { name: "get_weather", arguments: { city: "Paris" } },
          { name: "get_weather", arguments: { city: "Oslo" } },
        ],
      },
    },
    { id: "sum", match: { toolResult: { name: "get_weather" } }, respond: { text: "Paris is warm, Oslo is cold." } },
  ],
};
const BUDGET = {
  name: "ma-budget",
  steps: [
    { id: "one", match: { lastUserMessage: { contains: "one" } }, respond: { text: "One.", usage: { inputTokens: 1_000_000, outputTokens: 0 } } },
    { id: "two", match: { lastUserMessage: { contains: "two" } }, respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Rome" } }], usage: { inputTokens: 1_000_000, outputTokens: 0 } } },
    { id: "three", match: { lastUserMessage: { contains: "three" } }, respond: { text: "Three." } },
  ],
};
const BASH = {
  name: "ma-bash",
  steps: [
    { id: "ls", match: { turn: 1 }, respond: { toolCalls: [{ name: "bash", arguments: { command: "ls" } }] } },
    { id: "after", match: { toolResult: { name: "bash" } }, respond: { text: "Done with bash." } },
    { id: "again", respond: { text: "Next turn." } },
  ],
};
const FLAKY = {
  name: "ma-flaky",
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
const MCP = {
  name: "ma-mcp",
  steps: [
    { id: "look", match: { turn: 1 }, respond: { toolCalls: [{ name: "lookup", arguments: { q: "answer" } }] } },
    { id: "found", match: { toolResult: { name: "lookup" } }, respond: { text: "The answer is 42." } },
  ],
  mcp: {
    tools: [{ name: "lookup", description: "Looks a thing up", inputSchema: { type: "object" } }],
    calls: [{ id: "q", match: { tool: "lookup", arguments: { q: "answer" } }, result: { content: [{ type: "text", text: "42" }] } }],
  },
};
const PACED = { name: "ma-paced", steps: [{ respond: { text: "one two three four five six", latencyMs: 150, stream: { tokensPerSecond: 20 } } }] };
const CHATTY = { name: "ma-chatty", steps: [{ consume: false, respond: { reasoning: [{ text: "hm", signature: "s" }], text: "Three little words" } }] };

/** The events of a turn whose one model request answers text. */
const TEXT_TURN = ["session.status_running", "span.model_request_start", "agent.message", "span.model_request_end", "session.status_idle"];

const client = (prefix = "", apiKey = "sk-ant-test") => new Anthropic({ apiKey, baseURL: `${h.url}${prefix}`, maxRetries: 0 });
const text = (t: string) => ({ type: "user.message" as const, content: [{ type: "text" as const, text: t }] });

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: InstanceType<typeof Anthropic.APIError>) => [e.status, (e.error as { error: { type: string } }).error.type, (e.error as { error: { message: string } }).error.message],
  );

/** An agent with `tools` in a fresh environment, and a session of it under `prefix`. */
async function sessionOf(c: Anthropic, tools: Anthropic.Beta.Agents.AgentCreateParams["tools"], config?: { type: "self_hosted" }) {
  const agent = await c.beta.agents.create({ name: "Agent", model: "claude-sonnet-4-6", system: "Be brief.", tools });
  const env = await c.beta.environments.create({ name: `env-${Math.random().toString(36).slice(2)}`, ...(config ? { config } : {}) });
  const session = await c.beta.sessions.create({ agent: agent.id, environment_id: env.id });
  return { agent, env, session };
}

/** Reads an open stream until a `session.status_idle` (included), leaving it open for the next turn. */
async function untilIdle(events: AsyncIterator<{ type: string }>): Promise<any[]> {
  const seen: any[] = [];
  for (let next = await events.next(); !next.done; next = await events.next()) {
    seen.push(next.value);
    if (next.value.type === "session.status_idle") break;
  }
  return seen;
}

const WEATHER_TOOL = {
  type: "custom" as const,
  name: "get_weather",
  description: "Weather of a city",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};

beforeAll(async () => {
  h = await startHarness();
  await h.upload(WEATHER, BASH, FLAKY, CHATTY, MCP, TWO, BUDGET, PACED);
}, 120_000);
afterAll(() => h?.stop());

describe("managed agents: the objects", () => {
  it("an agent's model and tools come back resolved; an update makes a version, a stale one is a 409", async () => {
    const c = client();
    const agent = await c.beta.agents.create({
      name: "Coder",
      model: "claude-sonnet-4-6",
      system: "You write code.",
      tools: [
        {
          type: "agent_toolset_20260401",
          configs: [
            { name: "bash", permission_policy: { type: "always_ask" } },
            { name: "web_search", enabled: false },
          ],
        },
        WEATHER_TOOL,
      ],
      metadata: { team: "core" },
    });
    expect(agent.id).toMatch(/^agent_011C[0-9A-Za-z]{20}$/);
    expect(agent).toMatchObject({ type: "agent", name: "Coder", description: null, system: "You write code.", model: { id: "claude-sonnet-4-6", effort: { type: "high" }, speed: "standard" } });
    expect(agent).toMatchObject({ mcp_servers: [], skills: [], metadata: { team: "core" }, version: 1, archived_at: null, multiagent: null });
    expect(agent.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const toolset = agent.tools[0] as any;
    expect(toolset.default_config).toStrictEqual({ enabled: true, permission_policy: { type: "always_allow" } });
    expect(toolset.configs.map((t: any) => [t.name, t.enabled, t.permission_policy.type])).toStrictEqual([
      ["bash", true, "always_ask"],
      ["edit", true, "always_allow"],
      ["read", true, "always_allow"],
      ["write", true, "always_allow"],
      ["glob", true, "always_allow"],
      ["grep", true, "always_allow"],
      ["web_fetch", true, "always_allow"],
      ["web_search", false, "always_allow"],
    ]);
    expect(agent.tools[1]).toStrictEqual(WEATHER_TOOL);

    const v2 = await c.beta.agents.update(agent.id, { version: 1, system: "You review code.", metadata: { team: null, owner: "ana" } } as never);
    expect([v2.version, v2.system, v2.metadata, v2.name]).toStrictEqual([2, "You review code.", { owner: "ana" }, "Coder"]);
    expect(await refusal(c.beta.agents.update(agent.id, { version: 1, name: "Late" }))).toStrictEqual([
      409,
      "invalid_request_error",
      `Agent ${agent.id} is at version 2, not 1: fetch it again and retry the update.`,
    ]);
    expect((await c.beta.agents.update(agent.id, { system: "You review code." })).version).toBe(2);
    expect((await c.beta.agents.retrieve(agent.id, { version: 1 })).system).toBe("You write code.");
    const versions = await c.beta.agents.versions.list(agent.id);
    expect(versions.data.map((v) => [v.id, v.version, v.system])).toStrictEqual([
      [agent.id, 2, "You review code."],
      [agent.id, 1, "You write code."],
    ]);
    const archived = await c.beta.agents.archive(agent.id);
    expect(archived.archived_at).not.toBeNull();
    expect((await c.beta.agents.list()).data.map((a) => a.id)).not.toContain(agent.id);
    expect((await c.beta.agents.list({ include_archived: true })).data.map((a) => a.id)).toContain(agent.id);
    expect(await refusal(c.beta.agents.update(agent.id, { name: "x" }))).toStrictEqual([400, "invalid_request_error", `Agent ${agent.id} is archived and cannot be modified.`]);
  });

  it("refuses what the API refuses, field by field", async () => {
    const c = client();
    expect(await refusal(c.beta.agents.create({ model: "claude-sonnet-4-6" } as never))).toStrictEqual([400, "invalid_request_error", "name: Field required"]);
    expect(await refusal(c.beta.agents.create({ name: "x" } as never))).toStrictEqual([400, "invalid_request_error", "model: Field required"]);
    expect(await refusal(c.beta.agents.create({ name: "x", model: "m", tools: [{ type: "custom", name: "bash", input_schema: { type: "object" } }] } as never))).toStrictEqual([
      400,
      "invalid_request_error",
      "tools.0.name: tool names must be unique: 'bash'",
    ]);
    expect(await refusal(c.beta.agents.retrieve("agent_nope"))).toStrictEqual([404, "not_found_error", "Agent not found: agent_nope"]);
    // A custom skill must be one of the caller's (client.beta.skills); Anthropic's own are taken as named.
    expect(await refusal(c.beta.agents.create({ name: "x", model: "m", skills: [{ type: "custom", skill_id: "skill_nope" }] }))).toStrictEqual([404, "not_found_error", "Skill not found: skill_nope"]);
    expect((await c.beta.agents.create({ name: "x", model: "m", skills: [{ type: "anthropic", skill_id: "xlsx" }] })).skills).toStrictEqual([
      { type: "anthropic", skill_id: "xlsx", version: "latest" },
    ]);
    expect(await refusal(c.beta.sessions.create({ agent: "agent_nope", environment_id: "env_x" }))).toStrictEqual([404, "not_found_error", "Agent not found: agent_nope"]);
    // Without the beta header the routes do not exist, as on the API.
    const res = await fetch(`${h.url}/v1/agents`, { headers: { "x-api-key": "k", "anthropic-version": "2023-06-01" } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe("not_found_error");
  });

  it("environments: made, named once, updated, archived, deleted", async () => {
    const c = client();
    const env = await c.beta.environments.create({ name: "data-env", config: { type: "cloud", networking: { type: "limited", allowed_hosts: ["pypi.org"] }, packages: { pip: ["pandas"] } } as never });
    expect(env.id).toMatch(/^env_011C[0-9A-Za-z]{20}$/);
    expect(env).toMatchObject({
      type: "environment",
      name: "data-env",
      description: null,
      scope: "organization",
      config: {
        type: "cloud",
        networking: { type: "limited", allowed_hosts: ["pypi.org"], allow_mcp_servers: false, allow_package_managers: false },
        packages: { type: "packages", apt: [], pip: ["pandas"] },
      },
    });
    expect(await refusal(c.beta.environments.create({ name: "data-env" }))).toStrictEqual([409, "invalid_request_error", "An environment named 'data-env' already exists."]);
    expect((await c.beta.environments.update(env.id, { description: "for data" })).description).toBe("for data");
    expect(await refusal(c.beta.environments.update(env.id, { config: { type: "self_hosted" } } as never))).toStrictEqual([400, "invalid_request_error", "config.type cannot be changed"]);
    await c.beta.environments.archive(env.id);
    expect(await refusal(c.beta.environments.update(env.id, { name: "y" }))).toStrictEqual([400, "invalid_request_error", `Environment ${env.id} is archived and cannot be modified.`]);
    expect(await c.beta.environments.delete(env.id)).toStrictEqual({ id: env.id, type: "environment_deleted" });
    expect(await refusal(c.beta.environments.retrieve(env.id))).toStrictEqual([404, "not_found_error", `Environment not found: ${env.id}`]);
  });

  it("sessions: a snapshot of their agent, listed newest first with pages both ways, archived, deleted; per namespace", async () => {
    const c = client();
    const { agent, env, session } = await sessionOf(c, [WEATHER_TOOL]);
    expect(session.id).toMatch(/^sesn_011C[0-9A-Za-z]{20}$/);
    expect(session).toMatchObject({ type: "session", status: "idle", title: null, environment_id: env.id, resources: [], vault_ids: [], archived_at: null });
    expect(session.agent).toMatchObject({ id: agent.id, version: 1, name: "Agent", system: "Be brief.", tools: [WEATHER_TOOL] });
    expect(Object.keys(session.agent)).not.toContain("metadata");
    const more = [
      await c.beta.sessions.create({ agent: agent.id, environment_id: env.id, title: "two" }),
      await c.beta.sessions.create({ agent: { type: "agent", id: agent.id, version: 1 }, environment_id: env.id, title: "three" }),
    ];
    const first = await c.beta.sessions.list({ agent_id: agent.id, limit: 2 });
    expect(first.data.map((s) => s.id)).toStrictEqual([more[1]!.id, more[0]!.id]);
    const all: string[] = [];
    for await (const s of c.beta.sessions.list({ agent_id: agent.id, limit: 2 })) all.push(s.id);
    expect(all).toStrictEqual([more[1]!.id, more[0]!.id, session.id]);
    const updated = await c.beta.sessions.update(session.id, { title: "renamed", metadata: { k: "v" } });
    expect([updated.title, updated.metadata]).toStrictEqual(["renamed", { k: "v" }]);
    expect((await c.beta.sessions.events.list(session.id)).data.map((e) => [e.type, (e as any).title])).toStrictEqual([["session.updated", "renamed"]]);

    const later = new Date(Date.parse(session.created_at) + 3_600_000).toISOString();
    expect((await c.beta.sessions.list({ agent_id: agent.id, "created_at[gt]": later })).data).toStrictEqual([]);
    expect((await c.beta.sessions.list({ agent_id: agent.id, deployment_id: "dep_1" } as never)).data).toStrictEqual([]);
    expect(await refusal(c.beta.sessions.list({ "created_at[gte]": "soon" }))).toStrictEqual([400, "invalid_request_error", "created_at[gte]: Input should be a valid datetime, not 'soon'"]);

    await c.beta.sessions.archive(more[0]!.id);
    expect(await refusal(c.beta.sessions.events.send(more[0]!.id, { events: [text("hi")] }))).toStrictEqual([
      409,
      "invalid_request_error",
      `Session ${more[0]!.id} is archived and accepts no events.`,
    ]);
    expect((await c.beta.sessions.list({ agent_id: agent.id })).data.map((s) => s.id)).not.toContain(more[0]!.id);
    expect(await c.beta.sessions.delete(more[1]!.id)).toStrictEqual({ id: more[1]!.id, type: "session_deleted" });
    expect(await refusal(c.beta.sessions.retrieve(more[1]!.id))).toStrictEqual([404, "not_found_error", `Session not found: ${more[1]!.id}`]);

    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const other = client("", await namespaceKey(admin, "ma-other"));
    expect(await refusal(other.beta.agents.retrieve(agent.id))).toStrictEqual([404, "not_found_error", `Agent not found: ${agent.id}`]);
  });

  it("session resources: the caller's files mounted, listed, added, removed; what is not served says so", async () => {
    const c = client();
    const file = await c.beta.files.upload({ file: await toFile(new TextEncoder().encode("a,b\n1,2\n"), "data.csv", { type: "text/csv" }) });
    const agent = await c.beta.agents.create({ name: "Analyst", model: "claude-sonnet-4-6" });
    const env = await c.beta.environments.create({ name: "res-env" });
    const session = await c.beta.sessions.create({ agent: agent.id, environment_id: env.id, resources: [{ type: "file", file_id: file.id }] });
    const [mounted] = session.resources as any[];
    expect(mounted).toMatchObject({ type: "file", file_id: file.id, mount_path: `/mnt/session/uploads/${file.id}` });
    expect(mounted.id).toMatch(/^sesrsc_011C[0-9A-Za-z]{20}$/);
    const added = await c.beta.sessions.resources.add(session.id, { type: "file", file_id: file.id, mount_path: "/data/input.csv" });
    expect((await c.beta.sessions.resources.list(session.id)).data.map((r: any) => r.mount_path)).toStrictEqual([`/mnt/session/uploads/${file.id}`, "/data/input.csv"]);
    expect(await c.beta.sessions.resources.retrieve(added.id, { session_id: session.id })).toStrictEqual(added);
    expect(await refusal(c.beta.sessions.resources.add(session.id, { type: "file", file_id: file.id, mount_path: "/data/input.csv" }))).toStrictEqual([
      400,
      "invalid_request_error",
      `mount_path: '/data/input.csv' is already the mount path of ${added.id}`,
    ]);
    expect(await c.beta.sessions.resources.delete(added.id, { session_id: session.id })).toStrictEqual({ id: added.id, type: "session_resource_deleted" });
    expect((await c.beta.sessions.retrieve(session.id)).resources.map((r: any) => r.id)).toStrictEqual([mounted.id]);
    expect(await refusal(c.beta.sessions.create({ agent: agent.id, environment_id: env.id, resources: [{ type: "file", file_id: "file_nope" }] }))).toStrictEqual([
      404,
      "not_found_error",
      "File not found: file_nope",
    ]);
    expect(await refusal(c.beta.sessions.create({ agent: agent.id, environment_id: env.id, resources: [{ type: "github_repository", url: "https://github.com/a/b" }] as never }))).toStrictEqual([
      400,
      "invalid_request_error",
      "resources.0.type: mockllm does not mount 'github_repository' resources yet; mount files (type 'file').",
    ]);
  });
});

describe("managed agents: a session the script plays", () => {
  it("the stream plays the script's latency and pacing: the message comes when its words would have", async () => {
    const c = client("/s/ma-paced/run-1");
    const { session } = await sessionOf(c, []);
    const events = (await c.beta.sessions.events.stream(session.id))[Symbol.asyncIterator]();
    const sent = performance.now();
    await c.beta.sessions.events.send(session.id, { events: [text("go")] });
    const seen: [string, number][] = [];
    for (let e = await events.next(); !e.done; e = await events.next()) {
      seen.push([e.value.type, performance.now() - sent]);
      if (e.value.type === "session.status_idle") break;
    }
    expect(seen.map(([t]) => t)).toStrictEqual(["user.message", ...TEXT_TURN]);
    const at = Object.fromEntries(seen);
    // 150 ms of latency, then six words at 20 a second: the message at about 450 ms (bounded from below only).
    expect(at["agent.message"]).toBeGreaterThanOrEqual(400);
    expect(at["session.status_running"]).toBeLessThan(at["agent.message"]!);
  });

  it("a custom tool: the stream shows the turn, the session waits, the result runs the next model request", async () => {
    const c = client("/s/ma-weather/custom");
    const { session } = await sessionOf(c, [WEATHER_TOOL]);
    const stream = (await c.beta.sessions.events.stream(session.id))[Symbol.asyncIterator]();
    const sent = await c.beta.sessions.events.send(session.id, { events: [text("Weather in Paris?")] });
    expect(sent.data!.map((e) => [e.type, (e as any).content])).toStrictEqual([["user.message", [{ type: "text", text: "Weather in Paris?" }]]]);
    const first = await untilIdle(stream);
    expect(first.map((e) => e.type)).toStrictEqual([
      "user.message",
      "session.status_running",
      "span.model_request_start",
      "agent.thinking",
      "agent.custom_tool_use",
      "span.model_request_end",
      "session.status_idle",
    ]);
    const use = first[4];
    expect(use).toMatchObject({ name: "get_weather", input: { city: "Paris" } });
    expect(use.id).toMatch(/^sevt_011C/);
    expect(first[5]).toMatchObject({ model_request_start_id: first[2].id, is_error: false, model_usage: { input_tokens: 30, output_tokens: 10 } });
    expect(first[6]).toMatchObject({ stop_reason: { type: "requires_action", event_ids: [use.id] }, stop_details: null });
    expect((await c.beta.sessions.retrieve(session.id)).status).toBe("idle");

    expect(await refusal(c.beta.sessions.events.send(session.id, { events: [text("and now?")] }))).toStrictEqual([
      400,
      "invalid_request_error",
      `events.0: the session is waiting for the results of ${use.id}; send them (or a user.interrupt) first.`,
    ]);
    expect(await refusal(c.beta.sessions.events.send(session.id, { events: [{ type: "user.custom_tool_result", custom_tool_use_id: "sevt_nope" }] }))).toStrictEqual([
      400,
      "invalid_request_error",
      "events.0.custom_tool_use_id: no agent.custom_tool_use event sevt_nope in this session",
    ]);
    await c.beta.sessions.events.send(session.id, { events: [{ type: "user.custom_tool_result", custom_tool_use_id: use.id, content: [{ type: "text", text: "Sunny, 24°C" }] }] });
    const second = await untilIdle(stream);
    expect(second.map((e) => e.type)).toStrictEqual(["user.custom_tool_result", ...TEXT_TURN]);
    expect(second[3].content).toStrictEqual([{ type: "text", text: "It is sunny in Paris." }]);
    expect(second[5].stop_reason).toStrictEqual({ type: "end_turn" });
    expect(await refusal(c.beta.sessions.events.send(session.id, { events: [{ type: "user.custom_tool_result", custom_tool_use_id: use.id }] }))).toStrictEqual([
      400,
      "invalid_request_error",
      `events.0.custom_tool_use_id: tool use ${use.id} is not waiting for a result`,
    ]);

    // The history is what the stream showed, in order; the usage adds up; each model request is a journaled turn.
    const listed = await c.beta.sessions.events.list(session.id);
    expect(listed.data.map((e) => e.id)).toStrictEqual([...first, ...second].map((e) => e.id));
    expect(listed.next_page).toBeNull();
    expect((await c.beta.sessions.events.list(session.id, { order: "desc", types: ["agent.message", "agent.custom_tool_use"] })).data.map((e) => e.type)).toStrictEqual([
      "agent.message",
      "agent.custom_tool_use",
    ]);
    expect((await c.beta.sessions.retrieve(session.id)).usage).toMatchObject({ input_tokens: 80, output_tokens: 17 });
    const journal = await h.journal("ma-weather", "custom");
    expect(journal.map((e) => [e.endpoint, e.step, e.request.path])).toStrictEqual([
      ["messages", "call", "/v1/messages"],
      ["messages", "answer", "/v1/messages"],
    ]);
    expect(journal[1]!.request.body.messages.map((m: any) => [m.role, m.content.map((b: any) => b.type)])).toStrictEqual([
      ["user", ["text"]],
      ["assistant", ["tool_use"]],
      ["user", ["tool_result"]],
    ]);
    expect(journal[1]!.request.body.messages[2].content[0]).toStrictEqual({ type: "tool_result", tool_use_id: use.id, content: [{ type: "text", text: "Sunny, 24°C" }] });
  });

  it("an interrupt ends a waiting turn; the model is told the call was interrupted", async () => {
    const c = client("/s/ma-weather/interrupt");
    const { session } = await sessionOf(c, [WEATHER_TOOL]);
    await c.beta.sessions.events.send(session.id, { events: [text("Weather in Paris?")] });
    const use = (await c.beta.sessions.events.list(session.id, { types: ["agent.custom_tool_use"] })).data[0]!;
    const sent = await c.beta.sessions.events.send(session.id, { events: [{ type: "user.interrupt" }, text("Never mind, just guess.")] });
    expect(sent.data!.map((e) => e.type)).toStrictEqual(["user.interrupt", "user.message"]);
    const events = (await c.beta.sessions.events.list(session.id)).data as any[];
    const after = events.slice(events.findIndex((e) => e.type === "user.interrupt"));
    expect(after.map((e) => e.type)).toStrictEqual(["user.interrupt", "session.status_idle", "user.message", ...TEXT_TURN]);
    expect([after[1].stop_reason, after.at(-1).stop_reason]).toStrictEqual([{ type: "end_turn" }, { type: "end_turn" }]);
    const journal = await h.journal("ma-weather", "interrupt");
    expect(journal[1]!.request.body.messages[2].content).toStrictEqual([
      { type: "tool_result", tool_use_id: use.id, content: [{ type: "text", text: "The user interrupted this tool call." }], is_error: true },
      { type: "text", text: "Never mind, just guess." },
    ]);
    // On an idle session an interrupt changes nothing.
    await c.beta.sessions.events.send(session.id, { events: [{ type: "user.interrupt" }] });
    expect(((await c.beta.sessions.events.list(session.id, { order: "desc", limit: 1 })).data[0] as any).type).toBe("user.interrupt");
  });

  it("two tool results sent at once: each settled once, the next model request made once, with both", async () => {
    const c = client("/s/ma-two/parallel");
    const { session } = await sessionOf(c, [WEATHER_TOOL]);
    await c.beta.sessions.events.send(session.id, { events: [text("Paris and Oslo?")] });
    const uses = (await c.beta.sessions.events.list(session.id, { types: ["agent.custom_tool_use"] })).data;
    expect(uses.map((u: any) => u.input.city)).toStrictEqual(["Paris", "Oslo"]);
    await Promise.all(
      uses.map((u, i) =>
        c.beta.sessions.events.send(session.id, { events: [{ type: "user.custom_tool_result", custom_tool_use_id: u.id, content: [{ type: "text", text: i === 0 ? "25°C" : "-3°C" }] }] }),
      ),
    );
    const events = (await c.beta.sessions.events.list(session.id)).data as any[];
    const after = events.slice(events.findIndex((e) => e.type === "user.custom_tool_result"));
    expect(after.map((e) => e.type)).toStrictEqual(["user.custom_tool_result", "session.status_idle", "user.custom_tool_result", ...TEXT_TURN]);
    expect([after[1].stop_reason.type, after.at(-1).stop_reason.type]).toStrictEqual(["requires_action", "end_turn"]);
    const journal = await h.journal("ma-two", "parallel");
    expect(journal.map((e) => e.step)).toStrictEqual(["both", "sum"]);
    expect(journal[1]!.request.body.messages[2].content.map((b: any) => b.tool_use_id).sort()).toStrictEqual(uses.map((u) => u.id).sort());
  });

  it("the SDK's own tool runner runs the tool and posts its result", async () => {
    const c = client("/s/ma-weather/runner");
    const agent = await c.beta.agents.create({ name: "W", model: "claude-sonnet-4-6", tools: [WEATHER_TOOL] });
    const env = await c.beta.environments.create({ name: "runner-env" });
    const session = await c.beta.sessions.create({ agent: agent.id, environment_id: env.id, initial_events: [text("Weather in Paris?")] });
    expect(session.status).toBe("idle");
    const ran: string[] = [];
    const tool = betaTool({
      name: "get_weather",
      description: "Weather of a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      run: async ({ city }) => {
        ran.push(city);
        return `Sunny in ${city}`;
      },
    });
    const calls = [];
    for await (const call of c.beta.sessions.events.toolRunner(session.id, { tools: [tool], maxIdleMs: 200 })) calls.push([call.name, call.posted, call.isError]);
    expect([calls, ran]).toStrictEqual([[["get_weather", true, false]], ["Paris"]]);
    const events = (await c.beta.sessions.events.list(session.id)).data;
    expect(events.at(-3)).toMatchObject({ type: "agent.message", content: [{ type: "text", text: "It is sunny in Paris." }] });
    expect(events.find((e) => e.type === "user.custom_tool_result")).toMatchObject({ content: [{ type: "text", text: "Sunny in Paris" }], is_error: false });
  });

  it("a built-in tool: allowed, mockllm answers its result empty; under always_ask, a confirmation or a denial", async () => {
    const allowed = client("/s/ma-bash/allowed");
    const a = await sessionOf(allowed, [{ type: "agent_toolset_20260401" }]);
    await allowed.beta.sessions.events.send(a.session.id, { events: [text("list files")] });
    const ev = (await allowed.beta.sessions.events.list(a.session.id)).data as any[];
    expect(ev.map((e) => e.type)).toStrictEqual([
      "user.message",
      "session.status_running",
      "span.model_request_start",
      "agent.tool_use",
      "span.model_request_end",
      "agent.tool_result",
      "span.model_request_start",
      "agent.message",
      "span.model_request_end",
      "session.status_idle",
    ]);
    expect(ev[3]).toMatchObject({ name: "bash", input: { command: "ls" }, evaluated_permission: "allow", evaluation: { type: "always_allow" } });
    expect(ev[5]).toMatchObject({ tool_use_id: ev[3].id, content: [], is_error: false });

    const asked = client("/s/ma-bash/asked");
    const b = await sessionOf(asked, [{ type: "agent_toolset_20260401", default_config: { permission_policy: { type: "always_ask" } } }]);
    await asked.beta.sessions.events.send(b.session.id, { events: [text("list files")] });
    let got = (await asked.beta.sessions.events.list(b.session.id)).data as any[];
    const use = got.find((e) => e.type === "agent.tool_use");
    expect([use.evaluated_permission, got.at(-1).stop_reason]).toStrictEqual(["ask", { type: "requires_action", event_ids: [use.id] }]);
    await asked.beta.sessions.events.send(b.session.id, { events: [{ type: "user.tool_confirmation", tool_use_id: use.id, result: "deny", deny_message: "Not in prod." }] });
    got = (await asked.beta.sessions.events.list(b.session.id)).data as any[];
    const after = got.slice(got.findIndex((e) => e.type === "user.tool_confirmation"));
    expect(after.map((e) => e.type)).toStrictEqual(["user.tool_confirmation", "agent.tool_result", ...TEXT_TURN]);
    expect(after[1]).toMatchObject({ tool_use_id: use.id, is_error: true, content: [{ type: "text", text: "Not in prod." }] });
    const journal = await h.journal("ma-bash", "asked");
    expect(journal[1]!.request.body.messages[2].content).toStrictEqual([{ type: "tool_result", tool_use_id: use.id, content: [{ type: "text", text: "Not in prod." }], is_error: true }]);
  });

  it("a self-hosted environment's built-in call waits for the client's user.tool_result", async () => {
    const c = client("/s/ma-bash/self");
    const { session } = await sessionOf(c, [{ type: "agent_toolset_20260401" }], { type: "self_hosted" });
    await c.beta.sessions.events.send(session.id, { events: [text("list files")] });
    const got = (await c.beta.sessions.events.list(session.id)).data as any[];
    const use = got.find((e) => e.type === "agent.tool_use");
    expect(got.at(-1).stop_reason).toStrictEqual({ type: "requires_action", event_ids: [use.id] });
    await c.beta.sessions.events.send(session.id, { events: [{ type: "user.tool_result", tool_use_id: use.id, content: [{ type: "text", text: "a.txt\nb.txt" }] }] });
    const journal = await h.journal("ma-bash", "self");
    expect(journal[1]!.request.body.messages[2].content).toStrictEqual([{ type: "tool_result", tool_use_id: use.id, content: [{ type: "text", text: "a.txt\nb.txt" }] }]);
    expect(((await c.beta.sessions.events.list(session.id)).data.at(-1) as any).stop_reason).toStrictEqual({ type: "end_turn" });
  });

  it("an MCP toolset's call goes to the agent's MCP server — here the session's scripted one — after its confirmation", async () => {
    const c = client("/s/ma-mcp/run");
    const agent = await c.beta.agents.create({
      name: "Docs",
      model: "claude-sonnet-4-6",
      mcp_servers: [{ type: "url", name: "docs", url: `${h.url}/s/ma-mcp/run/mcp` }],
      tools: [{ type: "mcp_toolset", mcp_server_name: "docs" }],
    });
    expect(agent.tools[0]).toStrictEqual({ type: "mcp_toolset", mcp_server_name: "docs", default_config: { enabled: true, permission_policy: { type: "always_ask" } }, configs: [] });
    const env = await c.beta.environments.create({ name: "mcp-env" });
    const session = await c.beta.sessions.create({ agent: agent.id, environment_id: env.id, initial_events: [text("What is the answer?")] });
    let events = (await c.beta.sessions.events.list(session.id)).data as any[];
    const use = events.find((e) => e.type === "agent.mcp_tool_use");
    expect(use).toMatchObject({ mcp_server_name: "docs", name: "lookup", input: { q: "answer" }, evaluated_permission: "ask" });
    expect(events.at(-1).stop_reason).toStrictEqual({ type: "requires_action", event_ids: [use.id] });
    await c.beta.sessions.events.send(session.id, { events: [{ type: "user.tool_confirmation", tool_use_id: use.id, result: "allow" }] });
    events = (await c.beta.sessions.events.list(session.id)).data as any[];
    const after = events.slice(events.findIndex((e) => e.type === "user.tool_confirmation"));
    expect(after.map((e) => e.type)).toStrictEqual(["user.tool_confirmation", "agent.mcp_tool_result", ...TEXT_TURN]);
    expect(after[1]).toMatchObject({ mcp_tool_use_id: use.id, content: [{ type: "text", text: "42" }], is_error: false });
    expect(after[4].content).toStrictEqual([{ type: "text", text: "The answer is 42." }]);
    // One journal: the model's two turns and the MCP call between them.
    expect((await h.journal("ma-mcp", "run")).map((e) => [e.endpoint, e.step])).toStrictEqual([
      ["messages", "look"],
      ["tools/call", "q"],
      ["messages", "found"],
    ]);
  });

  it("scripted model failures: retried as session.error events, then exhausted", async () => {
    const c = client("/s/ma-flaky/run");
    const { session } = await sessionOf(c, []);
    await c.beta.sessions.events.send(session.id, { events: [text("please retry")] });
    let got = (await c.beta.sessions.events.list(session.id)).data as any[];
    expect(got.map((e) => e.type)).toStrictEqual([
      "user.message",
      "session.status_running",
      "span.model_request_start",
      "span.model_request_end",
      "session.error",
      "span.model_request_start",
      "span.model_request_end",
      "session.error",
      "span.model_request_start",
      "agent.message",
      "span.model_request_end",
      "session.status_idle",
    ]);
    expect([got[4].error.type, got[4].error.retry_status, got[7].error.type, got[3].is_error]).toStrictEqual(["model_rate_limited_error", { type: "retrying" }, "model_overloaded_error", true]);
    await c.beta.sessions.events.send(session.id, { events: [text("now give up")] });
    got = (await c.beta.sessions.events.list(session.id, { types: ["session.error", "session.status_idle"], order: "desc", limit: 2 })).data as any[];
    expect(got.map((e) => [e.type, e.error?.retry_status?.type ?? e.stop_reason.type])).toStrictEqual([
      ["session.status_idle", "retries_exhausted"],
      ["session.error", "exhausted"],
    ]);
    // The session still works: the next message tries again (the failed turn's message stays in the history, so
    // the same step matches, and its failures are spent).
    await c.beta.sessions.events.send(session.id, { events: [text("once more")] });
    got = (await c.beta.sessions.events.list(session.id, { order: "desc", limit: 3 })).data as any[];
    expect(got.map((e) => e.type)).toStrictEqual(["session.status_idle", "span.model_request_end", "agent.message"]);
    expect(got[2].content).toStrictEqual([{ type: "text", text: "never" }]);
    expect((await h.journal("ma-flaky", "run")).map((e) => [e.step, e.outcome])).toStrictEqual([
      ["busy", "failure"],
      ["busy", "failure"],
      ["busy", "response"],
      ["down", "failure"],
      ["down", "failure"],
      ["down", "failure"],
      ["down", "failure"],
      ["down", "response"],
    ]);

    // A request no step matches is not retried: the mismatch's reason is the error's message.
    const miss = client("/s/ma-flaky/miss");
    const other = await sessionOf(miss, []);
    await miss.beta.sessions.events.send(other.session.id, { events: [text("hello")] });
    const events = (await miss.beta.sessions.events.list(other.session.id)).data as any[];
    expect(events.map((e) => e.type)).toStrictEqual(["user.message", "session.status_running", "span.model_request_start", "span.model_request_end", "session.error", "session.status_idle"]);
    expect(events[4].error).toMatchObject({ type: "model_request_failed_error", retry_status: { type: "exhausted" } });
    expect(events[4].error.message).toMatch(/^mockllm: /);
    expect(events[5].stop_reason).toStrictEqual({ type: "retries_exhausted" });
  });

  it("a budget: the list cost at list price; at the ceiling the turn stops budget_reached until it is raised", async () => {
    const c = client("/s/ma-budget/run");
    const agent = await c.beta.agents.create({ name: "Spender", model: "claude-sonnet-4-6", tools: [WEATHER_TOOL] });
    const env = await c.beta.environments.create({ name: "budget-env" });
    const budget = { type: "limit" as const, max_list_cost: { amount: "500", currency: "USD" as const } };
    const session = await c.beta.sessions.create({ agent: agent.id, environment_id: env.id, budget });
    expect([session.budget, session.usage.list_cost]).toStrictEqual([budget, { amount: "0", currency: "USD" }]);
    // 1M input tokens of claude-sonnet-4 at $3 per million: 300 cents a request.
    await c.beta.sessions.events.send(session.id, { events: [text("step one")] });
    expect((await c.beta.sessions.retrieve(session.id)).usage.list_cost).toStrictEqual({ amount: "300", currency: "USD" });
    await c.beta.sessions.events.send(session.id, { events: [text("step two")] });
    const use = (await c.beta.sessions.events.list(session.id, { types: ["agent.custom_tool_use"] })).data[0]!;
    await c.beta.sessions.events.send(session.id, { events: [{ type: "user.custom_tool_result", custom_tool_use_id: use.id, content: [{ type: "text", text: "hot" }] }] });
    const tail = (await c.beta.sessions.events.list(session.id, { order: "desc", limit: 3 })).data.reverse() as any[];
    expect(tail.map((e) => e.type)).toStrictEqual(["session.status_running", "session.usage", "session.status_idle"]);
    expect([tail[1].usage.list_cost, tail[1].budget, tail[2].stop_reason]).toStrictEqual([{ amount: "600", currency: "USD" }, budget, { type: "budget_reached" }]);
    expect(await refusal(c.beta.sessions.events.send(session.id, { events: [text("step three")] }))).toStrictEqual([
      400,
      "invalid_request_error",
      "events.0: the session has reached its budget (list cost 600 of 500 cents): raise or remove the budget to go on.",
    ]);
    const lower = await c.beta.sessions.update(session.id, { budget: { type: "limit", max_list_cost: { amount: "600", currency: "USD" } } }).catch((e: any) => e);
    expect([lower.status, lower.error.error.details.error_code]).toStrictEqual([400, "budget_not_raised"]);
    await c.beta.sessions.update(session.id, { budget: { type: "limit", max_list_cost: { amount: "1000", currency: "USD" } } });
    await c.beta.sessions.events.send(session.id, { events: [text("step three")] });
    expect(((await c.beta.sessions.events.list(session.id, { types: ["agent.message"], order: "desc", limit: 1 })).data[0] as any).content).toStrictEqual([{ type: "text", text: "Three." }]);
    expect((await h.journal("ma-budget", "run")).map((e) => e.step)).toStrictEqual(["one", "two", "three"]);
    // Removed, a budget cannot come back; a session made without one cannot get one; a model with no list price takes none.
    await c.beta.sessions.update(session.id, { budget: null });
    const again = await c.beta.sessions.update(session.id, { budget }).catch((e: any) => e);
    expect([again.status, again.error.error.details.error_code]).toStrictEqual([400, "budget_create_only"]);
    const unpriced = await c.beta.agents.create({ name: "Mystery", model: "mystery-model-1" });
    const refused = await c.beta.sessions.create({ agent: unpriced.id, environment_id: env.id, budget }).catch((e: any) => e);
    expect([refused.status, refused.error.error.details.error_code]).toStrictEqual([400, "model_not_budgetable"]);
    expect((await c.beta.sessions.create({ agent: unpriced.id, environment_id: env.id })).usage.list_cost).toBeNull();
  });

  it("event deltas: each message's words before the message, folded by the SDK's accumulator", async () => {
    const c = client("/s/ma-chatty/deltas");
    const { session } = await sessionOf(c, []);
    const stream = await c.beta.sessions.events.stream(session.id, { event_deltas: ["agent.message", "agent.thinking"] });
    await c.beta.sessions.events.send(session.id, { events: [text("talk")] });
    const seen = await untilIdle((stream as AsyncIterable<{ type: string }>)[Symbol.asyncIterator]());
    const message = seen.find((e) => e.type === "agent.message");
    expect(seen.map((e) => (e.type === "event_delta" ? `delta:${e.delta.content.text}` : e.type === "event_start" ? `start:${e.event.type}` : e.type))).toStrictEqual([
      "user.message",
      "session.status_running",
      "span.model_request_start",
      "start:agent.thinking",
      "agent.thinking",
      "start:agent.message",
      "delta:Three",
      "delta: little",
      "delta: words",
      "agent.message",
      "span.model_request_end",
      "session.status_idle",
    ]);
    let folded: any;
    for (const e of seen.slice(5, 9)) folded = accumulateManagedAgentsEvent(folded, e);
    expect(folded.content).toStrictEqual([{ type: "text", text: "Three little words" }]);
    expect(seen[5].event.id).toBe(message.id);
    // Deltas are never in the history.
    expect((await c.beta.sessions.events.list(session.id)).data.map((e) => e.type)).not.toContain("event_delta");
    expect(await refusal(c.beta.sessions.events.stream(session.id, { event_deltas: ["agent.tool_use"] } as never))).toStrictEqual([
      400,
      "invalid_request_error",
      "event_deltas: Input should be 'agent.message' or 'agent.thinking', not 'agent.tool_use'",
    ]);
  });

  it("an open stream ends with session.deleted when its session is deleted", async () => {
    const c = client("/s/ma-chatty/deleted");
    const { session } = await sessionOf(c, []);
    const stream = await c.beta.sessions.events.stream(session.id);
    await c.beta.sessions.delete(session.id);
    const seen = [];
    for await (const e of stream) seen.push(e.type);
    expect(seen).toStrictEqual(["session.deleted"]);
  });
});
