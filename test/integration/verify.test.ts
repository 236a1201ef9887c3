/**
 * Verify, the journal's canonical view and filters, the sessions index and coverage — on both runtimes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, chat, upload } from "./helpers";

const TOOLS = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: {} } } }];

/** A two-turn tool run: ask → get_weather call → tool result → answer; plus a final step that is optional. */
const weather = {
  name: "vf-weather",
  steps: [
    { id: "ask", match: { lastUserMessage: { contains: "weather" } }, respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] } },
    { id: "answer", match: { toolResult: { name: "get_weather" } }, respond: { text: "Sunny in Paris, 18C." } },
    { id: "thanks", match: { lastUserMessage: { contains: "thanks" } }, respond: { text: "You're welcome." } },
  ],
};

const flaky = {
  name: "vf-flaky",
  steps: [{ id: "hello", failures: [{ kind: "rate_limit" }, { kind: "rate_limit" }], respond: { text: "Hi" } }],
};

async function json<T>(res: Response | Promise<Response>): Promise<T> {
  const r = await res;
  expect(r.status).toBe(200);
  return (await r.json()) as T;
}

const prefix = (session: string) => `/s/vf-weather/${session}`;

/** Turn 1 of the weather run; answers the wire tool call id the client saw. */
async function ask(session: string, text = "What's the weather in Paris?"): Promise<string> {
  const res = await chat({ model: "gpt-4o-mini", messages: [{ role: "user", content: text }], tools: TOOLS }, prefix(session));
  expect(res.status).toBe(200);
  const body = (await res.json()) as { choices: { message: { tool_calls: { id: string }[] } }[] };
  return body.choices[0]!.message.tool_calls[0]!.id;
}

async function toolTurn(session: string, callId: string, name = "get_weather", content = "18C and sunny"): Promise<Response> {
  return chat(
    {
      model: "gpt-4o-mini",
      tools: TOOLS,
      messages: [
        { role: "user", content: "What's the weather in Paris?" },
        { role: "assistant", content: null, tool_calls: [{ id: callId, type: "function", function: { name, arguments: '{"city":"Paris"}' } }] },
        { role: "tool", tool_call_id: callId, content },
      ],
    },
    prefix(session),
  );
}

interface Verify {
  ok: boolean;
  unusedSteps: { id: string; index: number; match: string; respond: string }[];
  mismatches: { seq: number; nearestStep: string | null; reasons: string[]; lastUserMessage: string | null; toolResults: unknown[]; status: number }[];
  pendingFailures: { id: string; served: number; scripted: number | null; last: string; status: number }[];
  requests: number;
  summary: string;
  version: string;
}

beforeAll(async () => {
  await upload(weather, flaky);
});

describe("journal canonical view", () => {
  it("records tools offered, tool results, the answer with the ids the client saw, model, stream and usage", async () => {
    const id = await ask("canon");
    expect(id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect((await toolTurn("canon", id)).status).toBe(200);
    const journal = await json<{ seq: number; canonical: unknown }[]>(admin("/sessions/vf-weather/canon/requests"));
    expect(journal.map((e) => e.canonical)).toEqual([
      {
        tools: ["get_weather"],
        toolResults: [],
        lastUserMessage: "What's the weather in Paris?",
        answered: { text: null, toolCalls: [{ id, name: "get_weather", arguments: '{"city":"Paris"}' }] },
        model: "gpt-4o-mini",
        stream: false,
        usage: { inputTokens: 64, outputTokens: 32, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
      {
        tools: ["get_weather"],
        toolResults: [{ name: "get_weather", toolCallId: id, content: "18C and sunny" }],
        lastUserMessage: "What's the weather in Paris?",
        answered: { text: "Sunny in Paris, 18C.", toolCalls: [] },
        model: "gpt-4o-mini",
        stream: false,
        usage: { inputTokens: 64, outputTokens: 32, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
    ]);
  });

  it("Anthropic: the tool_use id the client saw", async () => {
    const res = await call("/s/vf-weather/canon-anthropic/v1/messages", {
      method: "POST",
      headers: { "x-api-key": "sk-test", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-sonnet-4-5",
        max_tokens: 100,
        stream: true,
        tools: [{ name: "get_weather", input_schema: { type: "object" } }],
        messages: [{ role: "user", content: "weather?" }],
      }),
    });
    expect(res.status).toBe(200);
    const sse = await res.text();
    const wireId = /"id":"(toolu_01[A-Za-z0-9]{22})"/.exec(sse)?.[1];
    expect(wireId).toBeDefined();
    const [entry] = await json<{ canonical: { stream: boolean; answered: { toolCalls: { id: string }[] } } }[]>(admin("/sessions/vf-weather/canon-anthropic/requests"));
    expect(entry!.canonical.stream).toBe(true);
    expect(entry!.canonical.answered.toolCalls.map((c) => c.id)).toEqual([wireId]);
  });

  it("a mismatch answers nothing: answered and usage are null", async () => {
    expect((await chat({ model: "m", messages: [{ role: "user", content: "hello?" }] }, prefix("canon-miss"))).status).toBe(400);
    const [entry] = await json<{ outcome: string; canonical: { answered: unknown; usage: unknown; tools: string[] } }[]>(admin("/sessions/vf-weather/canon-miss/requests"));
    expect(entry!.outcome).toBe("mismatch");
    expect(entry!.canonical).toMatchObject({ answered: null, usage: null, tools: [] });
  });
});

describe("journal filters", () => {
  beforeAll(async () => {
    const id = await ask("filters");
    await chat({ model: "m", messages: [{ role: "user", content: "unrelated" }] }, prefix("filters"));
    await toolTurn("filters", id);
  });

  it("?outcome=, ?step= and ?since= narrow the journal", async () => {
    const seqs = async (q: string) => (await json<{ seq: number }[]>(admin(`/sessions/vf-weather/filters/requests${q}`))).map((e) => e.seq);
    expect(await seqs("")).toEqual([1, 2, 3]);
    expect(await seqs("?outcome=mismatch")).toEqual([2]);
    expect(await seqs("?outcome=response")).toEqual([1, 3]);
    // A mismatch is journaled under its nearest step, so ?step= finds it too.
    expect(await seqs("?step=answer")).toEqual([2, 3]);
    expect(await seqs("?step=answer&outcome=response")).toEqual([3]);
    expect(await seqs("?since=1")).toEqual([2, 3]);
    expect(await seqs("?since=3")).toEqual([]);
    expect(await seqs("?since=1&outcome=response")).toEqual([3]);
  });

  it("bad filter values are 400", async () => {
    const bad = await admin("/sessions/vf-weather/filters/requests?outcome=ok");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe('outcome must be one of response, failure, mismatch, side_call, chaos, got "ok"');
    expect((await admin("/sessions/vf-weather/filters/requests?since=-1")).status).toBe(400);
  });
});

describe("verify", () => {
  it("a run that did what the script says is ok; allowUnused covers an optional step", async () => {
    const id = await ask("good");
    await toolTurn("good", id);
    const strict = await json<Verify>(admin("/sessions/vf-weather/good/verify"));
    expect(strict.ok).toBe(false);
    expect(strict.unusedSteps.map((s) => s.id)).toEqual(["thanks"]);
    const v = await json<Verify>(admin("/sessions/vf-weather/good/verify?allowUnused=thanks"));
    expect(v).toMatchObject({ ok: true, unusedSteps: [], mismatches: [], pendingFailures: [], requests: 2 });
    expect(v.summary).toBe(`mockllm verify: ok: scenario "vf-weather" session "good" (version ${v.version}): 2 requests, all 3 steps used, no mismatches (unused but allowed: thanks)`);
  });

  it("a failing run's summary says what went wrong without the journal", async () => {
    const id = await ask("bad");
    // The agent called the wrong tool: no step matches a get_time result.
    expect((await toolTurn("bad", id, "get_time", "12:00")).status).toBe(400);
    const v = await json<Verify>(admin("/sessions/vf-weather/bad/verify"));
    expect(v.ok).toBe(false);
    expect(v.requests).toBe(2);
    expect(v.unusedSteps).toEqual([
      { id: "answer", index: 2, match: 'toolResult { name "get_weather" }', respond: 'text "Sunny in Paris, 18C."' },
      { id: "thanks", index: 3, match: 'lastUserMessage contains "thanks"', respond: 'text "You\'re welcome."' },
    ]);
    expect(v.mismatches).toHaveLength(1);
    expect(v.mismatches[0]).toMatchObject({
      seq: 2,
      status: 400,
      lastUserMessage: "What's the weather in Paris?",
      toolResults: [{ name: "get_time", toolCallId: id, content: "12:00" }],
    });
    expect(v.summary).toBe(
      [
        `mockllm verify: FAILED: scenario "vf-weather" session "bad" (version ${v.version}): 2 requests; 2 steps never used, 1 mismatch`,
        "",
        "Steps never used (2 of 3):",
        '  - "answer" (step 2) matches toolResult { name "get_weather" }',
        '    it would have answered: text "Sunny in Paris, 18C."',
        '  - "thanks" (step 3) matches lastUserMessage contains "thanks"',
        '    it would have answered: text "You\'re welcome."',
        "",
        "Mismatches (1): requests no step answered as scripted",
        `  - request #2 (openai chat.completions, turn 2, answered 400): ${v.mismatches[0]!.reasons[0]}`,
        ...v.mismatches[0]!.reasons.slice(1).map((r) => `      ${r}`),
        `    last user message: "What's the weather in Paris?"`,
        `    tool results: get_time (${id}) → "12:00"`,
      ].join("\n"),
    );
    expect(v.mismatches[0]!.reasons[0]).toBe('no step matches; nearest step "answer" failed');
    expect(v.summary).toContain('match.toolResult: expected a tool result with name "get_weather"');
  });

  it("a scripted failure the client never retried past is pending", async () => {
    const res = await chat({ model: "m", messages: [{ role: "user", content: "hi" }] }, "/s/vf-flaky/gave-up");
    expect(res.status).toBe(429);
    const v = await json<Verify>(admin("/sessions/vf-flaky/gave-up/verify"));
    expect(v.ok).toBe(false);
    expect(v.unusedSteps).toEqual([]);
    expect(v.pendingFailures).toEqual([{ id: "hello", index: 1, served: 1, scripted: 2, last: "attempt 1: scripted rate_limit", status: 429 }]);
    expect(v.summary).toContain('  - "hello" (step 1): served 1 of 2 scripted failure(s), last attempt 1: scripted rate_limit (status 429); no retry reached the step\'s answer');
  });

  it("a session nobody called is a 404 saying it never ran (contract section 10)", async () => {
    const res = await admin("/sessions/vf-weather/never/verify");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { message: `session "never" of scenario "vf-weather" has not run: no request reached /s/vf-weather/never`, code: "session_not_run" } });
  });

  it("an unknown scenario is 404, with the nearest name", async () => {
    const res = await admin("/sessions/vf-weathr/x/verify");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { message: 'scenario "vf-weathr" not found; did you mean "vf-weather"?' } });
  });
});

describe("sessions index and coverage", () => {
  beforeAll(async () => {
    for (const s of ["cov-a", "cov-b"]) {
      await chat({ model: "m", messages: [{ role: "user", content: "hi" }] }, `/s/vf-flaky/${s}`);
    }
    await chat({ model: "m", messages: [{ role: "user", content: "hi" }] }, "/s/vf-flaky/cov-b");
    await chat({ model: "m", messages: [{ role: "user", content: "hi" }] }, "/s/vf-flaky/cov-b");
  });

  it("GET /admin/sessions?scenario= lists the sessions that exist, with request counts", async () => {
    const list = await json<{ scenario: string; session: string; requests: number; lastAt: string | null }[]>(admin("/sessions?scenario=vf-flaky"));
    const bySession = Object.fromEntries(list.map((s) => [s.session, s]));
    expect(Object.keys(bySession).sort()).toEqual(["cov-a", "cov-b", "gave-up"]);
    expect(bySession["cov-b"]).toMatchObject({ scenario: "vf-flaky", requests: 3 });
    expect(bySession["cov-a"]!.requests).toBe(1);
    expect(bySession["cov-b"]!.lastAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await json(admin("/sessions?scenario=vf-nobody"))).toEqual([]);
    expect((await admin("/sessions?scenario=Bad!")).status).toBe(400);
  });

  it("a reset session stays listed with 0 requests and comes back on its next request", async () => {
    await chat({ model: "m", messages: [{ role: "user", content: "hi" }] }, "/s/vf-flaky/cov-reset");
    await json(admin("/sessions/vf-flaky/cov-reset/reset", { method: "POST" }));
    let listed = await json<{ session: string; requests: number; lastAt: string | null }[]>(admin("/sessions?scenario=vf-flaky"));
    expect(listed.find((s) => s.session === "cov-reset")).toEqual({ scenario: "vf-flaky", session: "cov-reset", requests: 0, lastAt: null });
    await chat({ model: "m", messages: [{ role: "user", content: "hi" }] }, "/s/vf-flaky/cov-reset");
    listed = await json(admin("/sessions?scenario=vf-flaky"));
    expect(listed.find((s) => s.session === "cov-reset")!.requests).toBe(1);
  });

  it("GET /admin/scenarios/{name}/coverage counts sessions, attempts, failures, mismatches, tokens and cost per step", async () => {
    const cov = await json<{ scenario: string; sessions: number; steps: unknown[] }>(admin("/scenarios/vf-weather/coverage"));
    expect(cov.scenario).toBe("vf-weather");
    // canon, canon-anthropic, canon-miss, filters, good, bad (never: verify does not create sessions).
    expect(cov.sessions).toBe(6);
    expect(cov.steps).toEqual([
      { id: "ask", index: 1, sessions: 5, attempts: 5, failures: 0, mismatches: 1, match: 'lastUserMessage contains "weather"', tokens: 480, costUsd: 0.000788 },
      { id: "answer", index: 2, sessions: 3, attempts: 3, failures: 0, mismatches: 2, match: 'toolResult { name "get_weather" }', tokens: 288, costUsd: 0.000087 },
      { id: "thanks", index: 3, sessions: 0, attempts: 0, failures: 0, mismatches: 0, match: 'lastUserMessage contains "thanks"', tokens: 0, costUsd: 0 },
    ]);
    expect((await admin("/scenarios/vf-nope/coverage")).status).toBe(404);
  });
});
