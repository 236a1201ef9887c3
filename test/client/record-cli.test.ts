/**
 * `mockllm record` and `mockllm pull --recording`, in process, against a stand-in upstream: record through the
 * OpenAI SDK, write the file on exit, replay it with startMockLLM through the same SDK.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockLLM } from "../../src/client/index";
import { parseScenarioDocument } from "../../src/scenario/document";
import { CHAT_STREAM } from "../compat/record-frames";
import { startStandIn, type StandIn } from "../compat/standin";
import { captureCli, serveCli } from "../support/cli";

let up: StandIn;
let dir: string;

beforeAll(async () => {
  [up, dir] = await Promise.all([startStandIn(), mkdtemp(join(tmpdir(), "mockllm-record-"))]);
  up.on("hello", CHAT_STREAM);
});
afterAll(async () => {
  await Promise.all([up?.stop(), dir ? rm(dir, { recursive: true, force: true }) : undefined]);
});

async function chunks(client: OpenAI) {
  const all = [];
  for await (const c of await client.chat.completions.create({ model: "gpt-up", stream: true, messages: [{ role: "user", content: "hello" }] })) {
    all.push(c);
  }
  return all;
}

describe("mockllm record", () => {
  it("proxies, records, writes the scenario file on exit; the file replays the same chunks", async () => {
    const run = await serveCli(["record", "--upstream", `openai=${up.url}`, "--out", "scenarios/my-run.json", "--port", "0"], { cwd: dir });
    const live = await chunks(new OpenAI({ apiKey: "sk-real", baseURL: `${run.url}/v1`, maxRetries: 0 }));
    expect(live.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("Hello from upstream");
    expect(up.seenWith("hello")[0]!.headers.authorization).toBe("Bearer sk-real");
    expect(await run.stop()).toBe(0);
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
    const none = await captureCli(["record"], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.err.split("\n")[0]).toContain("missing --upstream provider=URL");
    const bad = await captureCli(["record", "--upstream", "azure=https://x"], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.err.split("\n")[0]).toContain("--upstream takes provider=URL with provider one of openai, anthropic, gemini, ollama");
    const serve = await captureCli(["serve", "--record"], { cwd: dir });
    expect(serve.code).toBe(2);
    expect(serve.err.split("\n")[0]).toContain("--record needs at least one --upstream provider=URL");
  });
});

describe("mockllm pull --recording", () => {
  it("writes a hosted session's recording as a scenario named after its file", async () => {
    await using mock = await startMockLLM({ scenarios: [{ name: "hosted", record: { upstream: { openai: up.url } }, steps: [] }] });
    await chunks(new OpenAI({ apiKey: "k", baseURL: mock.openaiBaseURL("hosted", "ci-1"), maxRetries: 0 }));
    const env = { MOCKLLM_URL: mock.url, MOCKLLM_ADMIN_TOKEN: mock.adminToken };
    const run = await captureCli(["pull", "--recording", "hosted", "ci-1", "--out", "pulled"], { env, cwd: dir });
    expect(run.code).toBe(0);
    expect(run.out).toBe("wrote pulled/hosted-ci-1.json (1 recorded step from hosted/ci-1)");
    const doc = JSON.parse(await readFile(join(dir, "pulled/hosted-ci-1.json"), "utf8")) as { name: string; steps: { id: string }[] };
    expect([doc.name, doc.steps.map((s) => s.id)]).toEqual(["hosted-ci-1", ["rec-1"]]);
  });
});
