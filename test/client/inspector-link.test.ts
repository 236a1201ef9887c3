/**
 * A test run in the inspector (issue 37.7): the signed-in link in `mockllm serve`'s banner and in every verify failure
 * (MockLLMVerifyError, `mockllm verify`), `startMockLLM({ url, token })` on a server already running, and
 * `keepOnExit` writing what `--persist` writes, so `serve --persist` shows the finished run.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminClient, assertVerified, MockLLMVerifyError, scenario, startMockLLM, type MockLLM } from "../../src/client/index";
import { startServer } from "../../src/hosts/node/server";
import { captureCli, serveCli } from "../support/cli";
import { until } from "../support/until";

const twoSteps = scenario("link-run")
  .step((s) =>
    s
      .id("greet")
      .match({ lastUserMessage: { contains: "hello" } })
      .text("Hi!"),
  )
  .step((s) =>
    s
      .id("bye")
      .match({ lastUserMessage: { contains: "bye" } })
      .text("Bye!"),
  );

async function ask(mock: MockLLM, session: string, text: string, apiKey = "test"): Promise<string | null> {
  const openai = new OpenAI({ apiKey, baseURL: mock.openaiBaseURL("link-run", session), maxRetries: 0 });
  const res = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: text }] });
  return res.choices[0]!.message.content;
}

let running: MockLLM;
let dir: string;
beforeAll(async () => {
  running = await startMockLLM({ adminToken: "link-token" });
  dir = await mkdtemp(join(tmpdir(), "mockllm-keep-"));
});
afterAll(async () => {
  await running?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("inspector links in what a run prints", () => {
  it("the ready banner's inspector line signs the page in", async () => {
    const serving = await serveCli(["serve", "--port", "0", "--admin-token", "banner-token"]);
    expect(await serving.stop()).toBe(0);
    expect(serving.out.join("\n").split("\n")).toContain(`  inspector                  ${serving.url}/#key=banner-token`);
  });

  it("a failed verify names the session's link, with the key for a server on this machine", async () => {
    await running.admin.upload(twoSteps);
    expect(await ask(running, "half", "hello")).toBe("Hi!");
    const link = `${running.url}/#scenario=link-run&session=half&key=link-token`;
    const err = await running.verify("link-run", "half").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MockLLMVerifyError);
    const message = (err as MockLLMVerifyError).message;
    expect(message.startsWith((err as MockLLMVerifyError).result.summary)).toBe(true);
    expect(message.endsWith(`\n\ninspector: ${link}`)).toBe(true);
    expect((err as MockLLMVerifyError).inspectorURL).toBe(link);
    expect(running.inspectorURL("link-run", "half")).toBe(link);
    expect(running.admin.inspectorURL()).toBe(`${running.url}/#key=link-token`);
    expect(running.admin.inspectorURL("link-run", "half", { key: false })).toBe(`${running.url}/#scenario=link-run&session=half`);
  });

  it("mockllm verify prints the link on stderr and keeps stdout the summary", async () => {
    const env = { MOCKLLM_URL: running.url, MOCKLLM_ADMIN_TOKEN: "link-token" };
    const { code, out, err } = await captureCli(["verify", "link-run", "half"], { env });
    expect(code).toBe(1);
    expect(out).toBe((await running.admin.verify("link-run", "half")).summary);
    expect(err).toBe(`inspector: ${running.url}/#scenario=link-run&session=half&key=link-token`);
  });

  it("a shared server's link leaves the key out of the log", async () => {
    const failed = await running.admin.verify("link-run", "half");
    const fake: typeof fetch = async () => new Response(JSON.stringify(failed), { headers: { "content-type": "application/json" } });
    const admin = new AdminClient({ url: "https://mock.example.com/", token: "shared-secret", fetch: fake });
    const err = await assertVerified(admin, "s", "x").catch((e: unknown) => e);
    if (!(err instanceof MockLLMVerifyError)) throw new Error(`expected MockLLMVerifyError, got ${String(err)}`);
    expect(err.inspectorURL).toBe("https://mock.example.com/#scenario=s&session=x");
    expect(err.message).not.toContain("shared-secret");
  });
});

describe("startMockLLM({ url, token }): a server already running", () => {
  it("starts nothing, uploads there, and stop() leaves the server running", async () => {
    const again = await startMockLLM({ url: `${running.url}/`, token: "link-token", scenarios: [twoSteps] });
    expect(again.url).toBe(running.url);
    expect(again.adminToken).toBe("link-token");
    expect(await ask(again, "reused", "hello")).toBe("Hi!");
    expect(await ask(again, "reused", "bye")).toBe("Bye!");
    expect((await again.verify("link-run", "reused")).ok).toBe(true);
    await again.stop();
    expect((await running.admin.journal("link-run", "reused")).map((e) => e.step)).toEqual(["greet", "bye"]);
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
  });

  it("takes a namespace admin key: the handle works inside that namespace", async () => {
    await running.admin.createNamespace("link-team");
    const { key } = await running.admin.createKey("link-team", "admin");
    const team = await startMockLLM({ url: running.url, token: key, scenarios: [twoSteps] });
    expect(await ask(team, "t1", "hello", key)).toBe("Hi!");
    expect((await team.admin.journal("link-run", "t1")).map((e) => e.step)).toEqual(["greet"]);
    expect(await running.admin.journal("link-run", "t1").catch(() => [])).toEqual([]); // not in the default namespace
    expect(team.inspectorURL("link-run", "t1")).toBe(`${running.url}/#scenario=link-run&session=t1&key=${encodeURIComponent(key)}`);
    await team.stop();
  });

  it("refuses what would start a server, a missing token and a wrong key", async () => {
    await expect(startMockLLM({ url: running.url, token: "link-token", runtime: "node" })).rejects.toThrow("`runtime` start a server: with `url` (a running one) pass only `token` and `scenarios`");
    await expect(startMockLLM({ url: running.url })).rejects.toThrow("`url` needs `token`");
    await expect(startMockLLM({ url: "localhost:1", token: "t" })).rejects.toThrow('`url` must be an http(s) URL, got "localhost:1"');
    await expect(startMockLLM({ token: "t" })).rejects.toThrow("`token` is for a running server given by `url`");
    await expect(startMockLLM({ url: running.url, token: "wrong" })).rejects.toMatchObject({ status: 401 });
  });
});

describe("keepOnExit: a finished run for serve --persist", () => {
  it("writes what --persist writes; serve --persist shows the run's sessions and journals afterwards", async () => {
    const run = await startMockLLM({ scenarios: [twoSteps], keepOnExit: dir });
    expect(await ask(run, "kept-1", "hello")).toBe("Hi!");
    expect(await ask(run, "kept-1", "bye")).toBe("Bye!");
    expect(await ask(run, "kept-2", "hello")).toBe("Hi!");
    const journal = await run.admin.journal("link-run", "kept-1");
    await run.stop();
    expect((await readdir(join(dir, "scenarios"))).sort()).toEqual(["link-run.json"]);

    const after = await startServer({ adminToken: "after", persist: dir });
    try {
      const admin = new AdminClient({ url: after.url, token: "after" });
      expect((await admin.list()).map((s) => [s.name, s.source])).toContainEqual(["link-run", "kv"]);
      expect((await admin.sessions("link-run")).map((s) => [s.session, s.requests]).sort()).toEqual([
        ["kept-1", 2],
        ["kept-2", 1],
      ]);
      expect(await admin.journal("link-run", "kept-1")).toEqual(journal);
      expect((await admin.verify("link-run", "kept-1")).ok).toBe(true);
    } finally {
      await after.close();
    }
  });

  it("serve --persist prints each loaded session's inspector link after the banner (issue 51)", async () => {
    const serving = await serveCli(["serve", "--port", "0", "--admin-token", "after", "--persist", dir]);
    try {
      const lines = await until(
        () => serving.out.join("\n").split("\n"),
        (l) => l.some((x) => x.includes("#scenario=link-run&session=kept-2")),
        { ms: 20_000, every: 10 },
      );
      const at = lines.indexOf(`sessions kept in ${dir} (newest first), in the inspector:`);
      expect(at).toBeGreaterThan(0);
      expect(lines.slice(at + 1, at + 3).sort()).toEqual([
        `  link-run/kept-1  2 requests    ${serving.url}/#scenario=link-run&session=kept-1&key=after`,
        `  link-run/kept-2  1 request     ${serving.url}/#scenario=link-run&session=kept-2&key=after`,
      ]);
    } finally {
      expect(await serving.stop()).toBe(0);
    }
  });

  it("reads nothing back at start: a second run with the same session names starts afresh", async () => {
    const run = await startMockLLM({ scenarios: [twoSteps], keepOnExit: dir });
    expect((await run.admin.sessions("link-run")).map((s) => s.session)).toEqual([]);
    expect(await ask(run, "kept-1", "hello")).toBe("Hi!");
    expect((await run.admin.journal("link-run", "kept-1")).map((e) => e.seq)).toEqual([1]);
    await run.stop();
    const after = await startServer({ adminToken: "after", persist: dir });
    try {
      const admin = new AdminClient({ url: after.url, token: "after" });
      expect((await admin.journal("link-run", "kept-1")).map((e) => e.step)).toEqual(["greet"]);
    } finally {
      await after.close();
    }
  });

  it("a process that exits without stop() still leaves the run on disk", async () => {
    const exitDir = await mkdtemp(join(tmpdir(), "mockllm-keep-exit-"));
    const script = `
      import { startMockLLM } from ${JSON.stringify(fileURLToPath(new URL("../../src/client/index.ts", import.meta.url)))};
      const mock = await startMockLLM({ keepOnExit: ${JSON.stringify(exitDir)}, scenarios: [{ name: "quick", steps: [{ respond: { text: "ok" } }] }] });
      const res = await fetch(mock.openaiBaseURL("quick", "s1") + "/chat/completions", {
        method: "POST", headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
      });
      await res.text();
      process.exit(0); // within PERSIST_DELAY_MS of the request: nothing written yet but for the exit hook
    `;
    const tsx = fileURLToPath(new URL("../../node_modules/.bin/tsx", import.meta.url));
    await promisify(execFile)(tsx, ["--input-type=module", "-e", script], { cwd: exitDir });
    const after = await startServer({ adminToken: "after", persist: exitDir });
    try {
      const admin = new AdminClient({ url: after.url, token: "after" });
      expect((await admin.journal("quick", "s1")).map((e) => [e.seq, e.outcome])).toEqual([[1, "response"]]);
    } finally {
      await after.close();
      await rm(exitDir, { recursive: true, force: true });
    }
  });

  it("is for the Node runtime", async () => {
    await expect(startMockLLM({ runtime: "workerd", keepOnExit: dir })).rejects.toThrow("`keepOnExit` is for the Node runtime");
  });
});
