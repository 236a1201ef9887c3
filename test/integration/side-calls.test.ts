/**
 * `sideCalls` (contract section 10): agent CLIs' housekeeping calls answered without spending a step, journaled as
 * `side_call`, ignored by verify and coverage — on both runtimes. The request bodies are shaped as each CLI sends them
 * (captured from Gemini CLI 0.61, opencode 1.18, Qwen Code 0.24 and Claude Code 2.1 against this mock).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, chat, upload } from "./helpers";

const ROUTER_SYSTEM =
  "\nYou are a specialized Task Routing AI. Your sole function is to analyze the user's request and assign a **Complexity Score** from 1 to 100.\n\n" +
  '# Output Format\nRespond *only* in JSON format according to the following schema.\n\n```json\n{ "type": "OBJECT", "properties": { "complexity_reasoning": { "type": "STRING" }, "complexity_score": { "type": "INTEGER" } } }\n```\n';
const ROUTER_SCHEMA = {
  type: "OBJECT",
  properties: { complexity_reasoning: { type: "STRING" }, complexity_score: { type: "INTEGER" } },
  required: ["complexity_reasoning", "complexity_score"],
};

/** Gemini CLI's router call (generateContent, JSON schema, the system instruction sent with role "user"). */
function routerBody(text = "list the files") {
  return {
    contents: [
      { role: "user", parts: [{ text: "<session_context>\nThis is the Gemini CLI.\n</session_context>" }] },
      { role: "user", parts: [{ text }] },
    ],
    systemInstruction: { role: "user", parts: [{ text: ROUTER_SYSTEM }] },
    generationConfig: { temperature: 1, responseMimeType: "application/json", responseJsonSchema: ROUTER_SCHEMA, thinkingConfig: { includeThoughts: true, thinkingLevel: "HIGH" } },
  };
}

const SHELL_TOOL = { functionDeclarations: [{ name: "run_shell_command", parameters: { type: "OBJECT", properties: { command: { type: "STRING" } } } }] };

const gemini = (name: string, sideCalls?: unknown) => ({
  name,
  ...(sideCalls !== undefined ? { sideCalls } : {}),
  steps: [{ id: "main", match: { tools: ["run_shell_command"] }, respond: { toolCalls: [{ name: "run_shell_command", arguments: { command: "ls" } }] } }],
});

function geminiCall(path: string, model: string, body: unknown): Promise<Response> {
  return call(`${path}/v1beta/models/${model}:generateContent`, {
    method: "POST",
    headers: { "x-goog-api-key": "sk-test", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function journal(scenario: string, session: string, query = ""): Promise<{ step: string | null; outcome: string; status: number; reasons: string[] }[]> {
  const res = await admin(`/sessions/${scenario}/${session}/requests${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as never;
}

/** The text of an OpenAI chat completion stream. */
async function streamedText(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  let text = "";
  for (const line of (await res.text()).split("\n")) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    const chunk = JSON.parse(line.slice(6)) as { choices: { delta: { content?: string } }[] };
    text += chunk.choices[0]?.delta.content ?? "";
  }
  return text;
}

beforeAll(async () => {
  await upload(
    gemini("sc-gemini", { preset: ["gemini"] }),
    gemini("sc-gemini-off"),
    {
      name: "sc-opencode",
      sideCalls: { preset: ["opencode", "qwen"], match: [{ system: { contains: "Summarize the session" } }] },
      steps: [{ id: "main", match: { tools: ["bash"] }, respond: { text: "done" } }],
    },
    {
      name: "sc-claude",
      sideCalls: { preset: ["claude"] },
      steps: [{ id: "main", match: { tools: ["Bash"] }, respond: { text: "done" } }],
    },
  );
});

describe("sideCalls presets", () => {
  it("gemini: the router gets the complexity JSON it asks for, the step stays for the loop, verify is ok", async () => {
    const routed = await geminiCall("/s/sc-gemini/t1", "gemini-3.5-flash-lite", routerBody());
    expect(routed.status).toBe(200);
    expect(routed.headers.get("x-mockllm-outcome")).toBe("side_call");
    const body = (await routed.json()) as { candidates: { content: { parts: { text: string }[] }; finishReason: string }[] };
    expect(JSON.parse(body.candidates[0]!.content.parts[0]!.text)).toEqual({ complexity_reasoning: "Answered by mockllm as a side call.", complexity_score: 10 });
    expect(body.candidates[0]!.finishReason).toBe("STOP");

    const main = await geminiCall("/s/sc-gemini/t1", "gemini-3.5-flash", { contents: [{ role: "user", parts: [{ text: "list the files" }] }], tools: [SHELL_TOOL] });
    expect(main.status).toBe(200);
    const mainBody = (await main.json()) as { candidates: { content: { parts: { functionCall?: { name: string; args: unknown } }[] } }[] };
    expect(mainBody.candidates[0]!.content.parts[0]!.functionCall).toEqual({ name: "run_shell_command", args: { command: "ls" } });

    expect((await journal("sc-gemini", "t1")).map((e) => [e.step, e.outcome, e.status, e.reasons])).toEqual([
      [null, "side_call", 200, ['side call: gemini router (preset "gemini")']],
      ["main", "response", 200, []],
    ]);
    const filtered = (await (await admin("/sessions/sc-gemini/t1/requests?outcome=side_call")).json()) as { seq: number; outcome: string }[];
    expect(filtered.map((e) => [e.seq, e.outcome])).toEqual([[1, "side_call"]]);
    const verify = (await (await admin("/sessions/sc-gemini/t1/verify")).json()) as { ok: boolean; mismatches: unknown[]; requests: number };
    expect(verify).toMatchObject({ ok: true, mismatches: [], requests: 2 });
    const coverage = (await (await admin("/scenarios/sc-gemini/coverage")).json()) as { steps: { id: string; sessions: number; attempts: number; mismatches: number }[] };
    expect(coverage.steps).toEqual([expect.objectContaining({ id: "main", sessions: 1, attempts: 1, mismatches: 0 })]);
  });

  it("gemini: the older router asks for model_choice and gets flash; the next-speaker check hands the turn to the user", async () => {
    const older = routerBody();
    older.systemInstruction.parts[0]!.text = "You are a specialized Task Routing AI. Choose between `flash` (SIMPLE) or `pro` (COMPLEX). Respond with reasoning and model_choice.";
    const res = await geminiCall("/s/sc-gemini/t2", "gemini-3.5-flash-lite", older);
    const body = (await res.json()) as { candidates: { content: { parts: { text: string }[] } }[] };
    expect(JSON.parse(body.candidates[0]!.content.parts[0]!.text)).toEqual({ reasoning: "Answered by mockllm as a side call.", model_choice: "flash" });
    const next = await geminiCall("/s/sc-gemini/t2", "gemini-3.5-flash-lite", {
      contents: [
        { role: "user", parts: [{ text: "list the files" }] },
        { role: "model", parts: [{ text: "Here they are." }] },
        {
          role: "user",
          parts: [
            {
              text: "Analyze *only* the content and structure of your immediately preceding response (your last turn in the conversation history). Based *strictly* on that response, determine who should logically speak next: the 'user' or the 'model' (you).",
            },
          ],
        },
      ],
      generationConfig: { responseMimeType: "application/json" },
    });
    const nextBody = (await next.json()) as { candidates: { content: { parts: { text: string }[] } }[] };
    expect(JSON.parse(nextBody.candidates[0]!.content.parts[0]!.text)).toEqual({ reasoning: "Answered by mockllm as a side call.", next_speaker: "user" });
    expect((await journal("sc-gemini", "t2")).map((e) => e.reasons[0])).toEqual(['side call: gemini router (preset "gemini")', 'side call: gemini next speaker check (preset "gemini")']);
  });

  it("without sideCalls the router call is a mismatch, as before the option existed", async () => {
    const res = await geminiCall("/s/sc-gemini-off/t1", "gemini-3.5-flash-lite", routerBody());
    expect(res.status).toBe(400);
    expect(res.headers.get("x-mockllm-outcome")).toBe("mismatch");
    const main = await geminiCall("/s/sc-gemini-off/t1", "gemini-3.5-flash", { contents: [{ role: "user", parts: [{ text: "list" }] }], tools: [SHELL_TOOL] });
    expect(main.status).toBe(200);
    expect((await journal("sc-gemini-off", "t1")).map((e) => [e.step, e.outcome])).toEqual([
      ["main", "mismatch"],
      ["main", "response"],
    ]);
    expect(((await (await admin("/sessions/sc-gemini-off/t1/verify")).json()) as { ok: boolean }).ok).toBe(false);
  });

  it("opencode: the title request without tools gets a short title; qwen: memory extraction and session title; a user matcher answers ok", async () => {
    const title = await chat(
      {
        model: "mockllm-agent",
        max_tokens: 32000,
        stream: true,
        stream_options: { include_usage: true },
        messages: [
          { role: "system", content: "You are a title generator. You output ONLY a thread title. Nothing else.\n\n<task>\nGenerate a brief title…</task>" },
          { role: "user", content: "Generate a title for this conversation:\n" },
          { role: "user", content: '"run the tests, then fix what fails."' },
        ],
      },
      "/s/sc-opencode/t1",
    );
    expect(await streamedText(title)).toBe("Run the tests, then fix");

    const memory = await chat(
      {
        model: "mockllm-agent",
        stream: true,
        tools: ["read_file", "grep_search", "glob", "run_shell_command", "write_file", "edit"].map((name) => ({ type: "function", function: { name, parameters: { type: "object" } } })),
        messages: [
          { role: "system", content: "You are now acting as the managed memory extraction subagent for an AI coding assistant.\n\nThe recent conversation history is already in your context." },
          { role: "user", content: "run the tests" },
        ],
      },
      "/s/sc-opencode/t1",
    );
    expect(await streamedText(memory)).toBe("Nothing durable to remember.");

    const qwenTitle = await chat(
      {
        model: "mockllm-agent",
        messages: [
          { role: "system", content: "Generate a concise, sentence-case title (3-7 words) that captures what this programming-assistant session is about." },
          { role: "user", content: "fix the flaky login test" },
          { role: "user", content: "Generate the session title now. Populate the schema with a single short title string." },
        ],
        response_format: { type: "json_schema", json_schema: { name: "title", schema: { type: "object", properties: { title: { type: "string" } } } } },
      },
      "/s/sc-opencode/t1",
    );
    const qwenBody = (await qwenTitle.json()) as { choices: { message: { content: string } }[] };
    expect(JSON.parse(qwenBody.choices[0]!.message.content)).toEqual({ title: "Fix the flaky login test" });

    const mine = await chat(
      {
        model: "m",
        messages: [
          { role: "system", content: "Summarize the session so far." },
          { role: "user", content: "x" },
        ],
      },
      "/s/sc-opencode/t1",
    );
    expect(((await mine.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("ok");

    const loop = await chat(
      { model: "mockllm-agent", messages: [{ role: "user", content: "run the tests" }], tools: [{ type: "function", function: { name: "bash", parameters: { type: "object" } } }] },
      "/s/sc-opencode/t1",
    );
    expect(loop.status).toBe(200);
    expect((await journal("sc-opencode", "t1")).map((e) => [e.step, e.outcome, e.reasons[0] ?? null])).toEqual([
      [null, "side_call", 'side call: opencode title (preset "opencode")'],
      [null, "side_call", 'side call: qwen memory extraction (preset "qwen")'],
      [null, "side_call", 'side call: qwen session title (preset "qwen")'],
      [null, "side_call", "side call: sideCalls.match[0]"],
      ["main", "response", null],
    ]);
    expect(((await (await admin("/sessions/sc-opencode/t1/verify")).json()) as { ok: boolean }).ok).toBe(true);
  });

  it("claude: the quota probe (max_tokens 1) and the session title JSON, over /v1/messages?beta=true", async () => {
    const headers = { "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01", "content-type": "application/json" };
    const quota = await call("/s/sc-claude/t1/v1/messages?beta=true", {
      method: "POST",
      headers,
      body: JSON.stringify({ model: "claude-haiku-4-5", max_tokens: 1, messages: [{ role: "user", content: "quota" }], metadata: { user_id: "u" } }),
    });
    expect(quota.status).toBe(200);
    const quotaBody = (await quota.json()) as { type: string; content: { type: string; text: string }[] };
    expect(quotaBody.type).toBe("message");
    expect(quotaBody.content).toEqual([{ type: "text", text: "ok" }]);

    const title = await call("/s/sc-claude/t1/v1/messages?beta=true", {
      method: "POST",
      headers,
      body: JSON.stringify({
        model: "claude-haiku-4-5",
        max_tokens: 32000,
        system: [{ type: "text", text: "You are naming a coding session so the user can pick it out of a long list of sessions." }],
        messages: [{ role: "user", content: "<session>\nplease fix `parseConfig` in config.ts\n</session>\nWrite the title in English." }],
      }),
    });
    const titleBody = (await title.json()) as { content: { text: string }[] };
    expect(JSON.parse(titleBody.content[0]!.text)).toEqual({ title: "Please fix parseConfig in config.ts" });
    expect((await journal("sc-claude", "t1")).map((e) => [e.outcome, e.reasons[0]])).toEqual([
      ["side_call", 'side call: claude quota probe (preset "claude")'],
      ["side_call", 'side call: claude session title (preset "claude")'],
    ]);
    // Side calls spend no step: the scripted one is still unused.
    const verify = (await (await admin("/sessions/sc-claude/t1/verify")).json()) as { ok: boolean; unusedSteps: { id: string }[]; mismatches: unknown[] };
    expect(verify.ok).toBe(false);
    expect(verify.unusedSteps.map((s) => s.id)).toEqual(["main"]);
    expect(verify.mismatches).toEqual([]);
  });

  it("an unknown preset is a validation error naming the path", async () => {
    const res = await admin("/scenarios", { method: "POST", body: JSON.stringify([{ name: "sc-bad", sideCalls: { preset: ["cursor"] }, steps: [] }]) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("sideCalls.preset[0]");
  });
});
