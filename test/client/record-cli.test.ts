/**
 * `mockllm record` and `mockllm pull --recording`, in process, against a stand-in upstream: record through the
 * OpenAI SDK, write the file on exit, replay it with startMockLLM through the same SDK.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/client/cli/main";
import { startMockLLM } from "../../src/client/index";
import { parseScenarioDocument } from "../../src/scenario/document";
import { CHAT_STREAM } from "../compat/record-frames";
import { startStandIn, type StandIn } from "../compat/standin";

let up: StandIn;
let dir: string;

beforeAll(async () => {
  [up, dir] = await Promise.all([startStandIn(), mkdtemp(join(tmpdir(), "mockllm-record-"))]);
  up.on("hello", CHAT_STREAM);
});
afterAll(async () => {
  await Promise.all([up?.stop(), dir ? rm(dir, { recursive: true, force: true }) : undefined]);
});

function io(signal?: AbortSignal) {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), env: {}, cwd: dir, ...(signal ? { signal } : {}) } };
}

async function chunks(client: OpenAI) {
  const all = [];
  for await (const c of await client.chat.completions.create({ model: "gpt-up", stream: true, messages: [{ role: "user", content: "hello" }] })) {
    all.push(c);
  }
  return all;
}

describe("mockllm record", () => {
  it("proxies, records, writes the scenario file on exit; the file replays the same chunks", async () => {
    const stop = new AbortController();
    const run = io(stop.signal);
    const done = runCli(["record", "--upstream", `openai=${up.url}`, "--out", "scenarios/my-run.json", "--port", "0"], run.io);
    let url: string | undefined;
    for (let i = 0; i < 200 && url === undefined; i++) {
      url = /mockllm is ready on (\S+)/.exec(run.out.join("\n"))?.[1];
      if (url === undefined) await new Promise((r) => setTimeout(r, 10));
    }
    expect(url).toBeDefined();
    const live = await chunks(new OpenAI({ apiKey: "sk-real", baseURL: `${url}/v1`, maxRetries: 0 }));
    expect(live.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("Hello from upstream");
    expect(up.seenWith("hello")[0]!.headers.authorization).toBe("Bearer sk-real");
    stop.abort();
    expect(await done).toBe(0);
    expect(run.out.at(-1)).toBe("wrote scenarios/my-run.json (1 recorded step)");

    const doc: unknown = JSON.parse(await readFile(join(dir, "scenarios/my-run.json"), "utf8"));
    const parsed = parseScenarioDocument(doc);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.scenario.name).toBe("my-run");
    expect(parsed.scenario.record).toBeUndefined();
    expect(parsed.scenario.steps[0]!.respond!.frames!.frames.map((f) => f.data).join("")).toBe(up.seenWith("hello")[0]!.sent);

    await using mock = await startMockLLM({ scenarios: [doc as { name: string; steps: [] }] });
    expect(await chunks(new OpenAI({ apiKey: "k", baseURL: mock.openaiBaseURL("my-run", "replay"), maxRetries: 0 }))).toEqual(live);
  });

  it("refuses bad flags", async () => {
    const none = io();
    expect(await runCli(["record"], none.io)).toBe(2);
    expect(none.err[0]).toContain("missing --upstream provider=URL");
    const bad = io();
    expect(await runCli(["record", "--upstream", "azure=https://x"], bad.io)).toBe(2);
    expect(bad.err[0]).toContain("--upstream takes provider=URL with provider one of openai, anthropic, gemini, ollama");
    const serve = io();
    expect(await runCli(["serve", "--record"], serve.io)).toBe(2);
    expect(serve.err[0]).toContain("--record needs at least one --upstream provider=URL");
  });
});

describe("mockllm pull --recording", () => {
  it("writes a hosted session's recording as a scenario named after its file", async () => {
    await using mock = await startMockLLM({ scenarios: [{ name: "hosted", record: { upstream: { openai: up.url } }, steps: [] }] });
    await chunks(new OpenAI({ apiKey: "k", baseURL: mock.openaiBaseURL("hosted", "ci-1"), maxRetries: 0 }));
    const run = io();
    const env = { MOCKLLM_URL: mock.url, MOCKLLM_ADMIN_TOKEN: mock.adminToken };
    expect(await runCli(["pull", "--recording", "hosted", "ci-1", "--out", "pulled"], { ...run.io, env })).toBe(0);
    expect(run.out).toEqual(["wrote pulled/hosted-ci-1.json (1 recorded step from hosted/ci-1)"]);
    const doc = JSON.parse(await readFile(join(dir, "pulled/hosted-ci-1.json"), "utf8")) as { name: string; steps: { id: string }[] };
    expect([doc.name, doc.steps.map((s) => s.id)]).toEqual(["hosted-ci-1", ["rec-1"]]);
  });
});
