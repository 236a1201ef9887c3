// Verify from a test suite and from the CLI: mock.verify, assertVerified, AdminClient.verify/sessions/coverage,
// `mockllm verify` and `mockllm coverage`, against one in-process mock.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureCli } from "../support/cli";
import { assertVerified, MockLLMVerifyError, scenario, startMockLLM, type MockLLM } from "../../src/client/index";

let mock: MockLLM;

const weather = scenario("cv-weather")
  .step((s) =>
    s
      .id("ask")
      .match({ lastUserMessage: { contains: "weather" } })
      .toolCall("get_weather", { city: "Paris" }),
  )
  .step((s) =>
    s
      .id("answer")
      .match({ toolResult: { name: "get_weather" } })
      .text("Sunny, 18C."),
  );

beforeAll(async () => {
  mock = await startMockLLM({ scenarios: [weather] });
});
afterAll(async () => {
  await mock?.stop();
});

const tools = [{ type: "function" as const, function: { name: "get_weather", parameters: { type: "object", properties: {} } } }];

/** A tiny agent: asks, runs whatever tool the model calls with `toolName`'s result, asks again. */
async function agent(session: string, toolName = "get_weather"): Promise<void> {
  const openai = new OpenAI({ apiKey: "test", baseURL: mock.openaiBaseURL("cv-weather", session), maxRetries: 0 });
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "What's the weather in Paris?" }];
  const first = await openai.chat.completions.create({ model: "gpt-4o", messages, tools });
  const call = first.choices[0]!.message.tool_calls![0]! as { id: string; function: { name: string; arguments: string } };
  messages.push({ role: "assistant", content: null, tool_calls: [{ id: call.id, type: "function", function: { name: toolName, arguments: call.function.arguments } }] });
  messages.push({ role: "tool", tool_call_id: call.id, content: "18C" });
  await openai.chat.completions.create({ model: "gpt-4o", messages, tools }).catch(() => undefined);
}

const cli = (argv: string[]) => captureCli(argv, { env: { MOCKLLM_URL: mock.url, MOCKLLM_ADMIN_TOKEN: mock.adminToken } });

describe("verify from a test", () => {
  it("mock.verify resolves for a run that followed the script", async () => {
    await agent("good");
    const v = await mock.verify("cv-weather", "good");
    expect(v.ok).toBe(true);
    expect(v.summary).toMatch(/^mockllm verify: ok: scenario "cv-weather" session "good" \(version [0-9a-f]{16}\): 2 requests, all 2 steps used, no mismatches$/);
  });

  it("mock.verify throws an Error whose message is the summary; assertVerified does the same over an AdminClient", async () => {
    await agent("bad", "get_time");
    const err = await mock.verify("cv-weather", "bad").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MockLLMVerifyError);
    const message = (err as Error).message;
    expect(message.split("\n")[0]).toMatch(/^mockllm verify: FAILED: scenario "cv-weather" session "bad" .*: 2 requests; 1 step never used, 1 mismatch$/);
    expect(message).toContain('  - "answer" (step 2) matches toolResult { name "get_weather" }');
    expect(message).toContain('    last user message: "What\'s the weather in Paris?"');
    expect(message).toMatch(/tool results: get_time \(call_[A-Za-z0-9]{24}\) → "18C"/);
    expect((err as MockLLMVerifyError).result.mismatches[0]!.seq).toBe(2);
    await expect(assertVerified(mock.admin, "cv-weather", "bad")).rejects.toThrow(message);
    await expect(mock.verify("cv-weather", "bad", { allowUnused: ["answer"] })).rejects.toThrow(/1 mismatch$/m);
  });

  it("a session that never ran: mock.verify, assertVerified, admin.session and admin.journal throw naming it (issue 37)", async () => {
    const want = `GET ${mock.url}/admin/sessions/cv-weather/gone/verify → 404: session "gone" of scenario "cv-weather" has not run: no request reached /s/cv-weather/gone (is the client pointed at this scenario and session?)`;
    await expect(mock.verify("cv-weather", "gone")).rejects.toThrow(want);
    await expect(assertVerified(mock.admin, "cv-weather", "gone")).rejects.toMatchObject({ name: "MockLLMAdminError", code: "session_not_run", status: 404 });
    await expect(mock.admin.session("cv-weather", "gone")).rejects.toMatchObject({ code: "session_not_run" });
    await expect(mock.admin.journal("cv-weather", "gone", { outcome: "mismatch" })).rejects.toMatchObject({ code: "session_not_run" });
  });

  it("admin.journal filters and the canonical view let a test assert tool-call order and arguments", async () => {
    const calls = (await mock.admin.journal("cv-weather", "good", { outcome: "response" })).flatMap((e) => e.canonical?.answered?.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]) ?? []);
    expect(calls).toEqual([["get_weather", { city: "Paris" }]]);
    expect((await mock.admin.journal("cv-weather", "good", { since: 1 })).map((e) => e.step)).toEqual(["answer"]);
  });

  it("admin.sessions and admin.coverage", async () => {
    expect((await mock.admin.sessions("cv-weather")).map((s) => [s.session, s.requests]).sort()).toEqual([
      ["bad", 2],
      ["good", 2],
    ]);
    const cov = await mock.admin.coverage("cv-weather");
    expect(cov.steps.map((s) => [s.id, s.sessions, s.attempts, s.mismatches])).toEqual([
      ["ask", 2, 2, 0],
      ["answer", 1, 1, 1],
    ]);
  });
});

describe("mockllm verify and coverage", () => {
  it("verify exits 0 with the ok line, 1 with the summary", async () => {
    const good = await cli(["verify", "cv-weather", "good"]);
    expect(good.code).toBe(0);
    expect(good.out).toMatch(/^mockllm verify: ok: /);
    const bad = await cli(["verify", "cv-weather", "bad"]);
    expect(bad.code).toBe(1);
    expect(bad.out).toBe((await mock.admin.verify("cv-weather", "bad")).summary);
    const json = await cli(["verify", "cv-weather", "bad", "--json", "--allow-unused", "answer"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, unusedSteps: [] });
  });

  it("coverage as markdown, junit and json", async () => {
    const md = await cli(["coverage", "cv-weather"]);
    expect(md.code).toBe(0);
    const lines = md.out.split("\n");
    expect(lines[0]).toMatch(/^### mockllm coverage: `cv-weather` \(version [0-9a-f]{16}, 2 sessions\)$/);
    expect(lines.slice(2)).toEqual([
      "| | step | matches | sessions | attempts | failures | mismatches |",
      "| --- | --- | --- | ---: | ---: | ---: | ---: |",
      '| ✅ | `ask` | lastUserMessage contains "weather" | 2 | 2 | 0 | 0 |',
      '| ✅ | `answer` | toolResult { name "get_weather" } | 1 | 1 | 0 | 1 |',
      "",
      "2 of 2 steps used.",
    ]);
    const xml = await cli(["coverage", "cv-weather", "--format", "junit"]);
    expect(xml.out).toContain('<testsuites name="mockllm coverage" tests="2" failures="0" errors="0">');
    expect(xml.out).toContain('<testcase classname="mockllm.cv-weather" name="answer">\n      <system-out>sessions 1, attempts 1, failures 0, mismatches 1</system-out>');
    const json = await cli(["coverage", "cv-weather", "--format", "json"]);
    expect(JSON.parse(json.out)).toEqual(await mock.admin.coverage("cv-weather"));
    const bad = await cli(["coverage", "cv-weather", "--format", "html"]);
    expect([bad.code, bad.err.split("\n")[0]]).toEqual([2, 'mockllm coverage: --format must be one of markdown, junit, json, got "html"']);
  });

  it("junit fails the testcase of a step no session used", async () => {
    await mock.admin.upload(
      scenario("cv-unused")
        .step((s) => s.id("one").text("a"))
        .step((s) => s.id("never").match({ lastUserMessage: "x<y" }).text("b")),
    );
    const openai = new OpenAI({ apiKey: "test", baseURL: mock.openaiBaseURL("cv-unused", "r1"), maxRetries: 0 });
    await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    const xml = (await cli(["coverage", "cv-unused", "--format", "junit"])).out;
    expect(xml).toContain('<testsuite name="cv-unused" tests="2" failures="1" errors="0">');
    expect(xml).toContain(
      '<failure message="step &quot;never&quot; was never used in 1 session(s)" type="unused">matches lastUserMessage &quot;x&lt;y&quot;; sessions 0, attempts 0, failures 0, mismatches 0</failure>',
    );
  });
});
