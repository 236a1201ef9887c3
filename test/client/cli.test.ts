// The mockllm CLI, run in-process with captured output, against one real Worker for the file.
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/client/cli/main";
import { describeChange } from "../../src/client/cli/commands/push";
import { startMockLLM, type MockLLM } from "../../src/client/index";
import { captureCli } from "../support/cli";
import { closedPort } from "../support/ports";

let mock: MockLLM;
let dir: string;

beforeAll(async () => {
  [mock, dir] = await Promise.all([startMockLLM(), mkdtemp(join(tmpdir(), "mockllm-cli-"))]);
});
afterAll(async () => {
  await Promise.all([mock?.stop(), dir ? rm(dir, { recursive: true, force: true }) : undefined]);
});

/** A port nothing listens on: bind one, note it, close it. */
const cli = (argv: string[], env: Record<string, string | undefined> = {}) => captureCli(argv, { env, cwd: dir });

function server(): Record<string, string> {
  return { MOCKLLM_URL: mock.url, MOCKLLM_ADMIN_TOKEN: mock.adminToken };
}

async function files(sub: string, docs: Record<string, unknown>): Promise<string> {
  const d = join(dir, sub);
  await mkdir(d, { recursive: true });
  for (const [name, doc] of Object.entries(docs)) {
    await writeFile(join(d, name), typeof doc === "string" ? doc : JSON.stringify(doc, null, 2));
  }
  return sub;
}

async function chat(base: string, content: string): Promise<number> {
  const res = await fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content }] }),
  });
  await res.text();
  return res.status;
}

describe("mockllm help and usage", () => {
  it("no command prints the overview and exits 2; --help exits 0", async () => {
    const none = await cli([]);
    expect(none.code).toBe(2);
    expect(none.out).toContain("Usage: mockllm <command> [options]");
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    for (const c of ["validate", "push", "pull", "list", "journal", "reset"]) expect(help.out).toContain(`\n  ${c}`);
  });

  it.each(["validate", "push", "pull", "list", "journal", "reset", "verify", "coverage"])("%s --help shows its usage and an option list", async (name) => {
    const r = await cli([name, "--help"]);
    expect(r.code).toBe(0);
    expect(r.out.split("\n")[0]).toMatch(new RegExp(`^Usage: mockllm ${name}\\b`));
    expect(await cli(["help", name])).toStrictEqual(r);
  });

  it("an unknown command or option is a usage error (exit 2)", async () => {
    const unknown = await cli(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err.split("\n")[0]).toBe('mockllm: unknown command "frobnicate"');
    const badOpt = await cli(["validate", "--bogus", "x.json"]);
    expect(badOpt.code).toBe(2);
    expect(badOpt.err).toContain("mockllm validate: Unknown option '--bogus'");
    expect(badOpt.err).toContain('Run "mockllm validate --help" for usage.');
  });

  it("--version prints the package version", async () => {
    const pkg = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(await cli(["--version"])).toStrictEqual({ code: 0, out: pkg.version, err: "" });
  });
});

describe("mockllm validate", () => {
  it("accepts valid files and directories (recursively), exit 0", async () => {
    await files("good", { "a.json": { name: "a", steps: [{ respond: { text: "x" } }] }, "notes.txt": "ignored" });
    await files("good/nested", { "b.json": { name: "b", steps: [] } });
    const r = await cli(["validate", "good"]);
    expect(r).toStrictEqual({
      code: 0,
      out: ["ok    good/a.json  a (1 step)", "ok    good/nested/b.json  b (0 steps)", "2 files: 2 valid, 0 invalid"].join("\n"),
      err: "",
    });
  });

  it("reports each problem with its JSON path and exits 1", async () => {
    await files("bad", {
      "schema.json": { name: "Bad", steps: [{ respond: { text: 1 }, extra: true }] },
      "syntax.json": '{\n  "name": "x",\n  "steps": [\n}',
      "dup-1.json": { name: "dup", steps: [] },
      "dup-2.json": { name: "dup", steps: [] },
    });
    const r = await cli(["validate", "bad"]);
    expect(r.code).toBe(1);
    expect(r.out).toBe(["ok    bad/dup-1.json  dup (0 steps)", "4 files: 1 valid, 3 invalid"].join("\n"));
    const err = r.err.split("\n");
    expect(err).toContain("FAIL  bad/dup-2.json");
    expect(err).toContain('  $.name: duplicate scenario name "dup" (also in bad/dup-1.json)');
    expect(err).toContain("FAIL  bad/schema.json");
    expect(err).toContain("  $.name: must match [a-z0-9][a-z0-9._-]{0,63}");
    expect(err).toContain("  $.steps[0].respond.text: Invalid input: expected string, received number");
    expect(err).toContain('  $.steps[0].extra: unknown key "extra"');
    expect(err).toContain("FAIL  bad/syntax.json");
    expect(err).toContain('  $: invalid JSON at line 4, column 1: expected a value, found "}"');
  });

  it("a missing path or no path at all is a usage error", async () => {
    const missing = await cli(["validate", "nope.json"]);
    expect(missing.code).toBe(2);
    expect(missing.err.split("\n")[0]).toBe("mockllm validate: no such file or directory: nope.json");
    const none = await cli(["validate"]);
    expect(none.code).toBe(2);
    expect(none.err.split("\n")[0]).toBe("mockllm validate: no files or directories given");
  });
});

describe("mockllm push", () => {
  it("needs a URL and a token", async () => {
    const noUrl = await cli(["push", "good"]);
    expect([noUrl.code, noUrl.err.split("\n")[0]]).toStrictEqual([2, "mockllm push: no server URL: pass --url or set MOCKLLM_URL"]);
    const noToken = await cli(["push", "good", "--url", mock.url]);
    expect([noToken.code, noToken.err.split("\n")[0]]).toStrictEqual([2, "mockllm push: no admin token: pass --token or set MOCKLLM_ADMIN_TOKEN"]);
  });

  it("a wrong token fails with 401 and exit 1", async () => {
    const r = await cli(["push", "good", "--url", mock.url, "--token", "wrong"]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`mockllm push: GET ${mock.url}/admin/scenarios → 401 unauthorized: the admin token is wrong or missing (set --token or MOCKLLM_ADMIN_TOKEN)`);
  });

  it("an unreachable URL fails with a message naming it", async () => {
    const port = await closedPort();
    const r = await cli(["push", "good", "--url", `http://127.0.0.1:${port}`, "--token", "t"]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `mockllm push: cannot reach mockllm: GET http://127.0.0.1:${port}/admin/scenarios failed ` + `(ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}); is the server running at that URL?`,
    );
  });

  it("invalid files push nothing", async () => {
    await files("mixed", { "ok.json": { name: "mixed-ok", steps: [] }, "no.json": { name: "mixed-no", steps: "x" } });
    const r = await cli(["push", "mixed"], server());
    expect(r.code).toBe(1);
    expect(r.err).toContain("  $.steps: Invalid input: expected array, received string");
    expect(r.err.split("\n").at(-1)).toBe("nothing pushed: 1 invalid file");
    expect((await mock.admin.list()).some((s) => s.name === "mixed-ok")).toBe(false);
  });

  it("shows created, then updated and unchanged", async () => {
    await files("push", { "p1.json": { name: "p1", steps: [] }, "p2.json": { name: "p2", steps: [] } });
    const first = await cli(["push", "push"], server());
    expect(first.code).toBe(0);
    const versions = new Map((await mock.admin.list()).map((s) => [s.name, s.version]));
    expect(first.out).toBe([`created  p1  ${versions.get("p1")}`, `created  p2  ${versions.get("p2")}`, `pushed 2 scenarios to ${mock.url}: 2 created, 0 updated, 0 unchanged`].join("\n"));
    await files("push", { "p2.json": { name: "p2", description: "changed", steps: [] } });
    const second = await cli(["push", "push", "--url", mock.url, "--token", mock.adminToken]);
    expect(second.code, second.err).toBe(0);
    const p2 = (await mock.admin.list()).find((s) => s.name === "p2");
    expect(p2?.description).toBe("changed");
    expect(second.out).toBe(
      [`unchanged  p1  ${versions.get("p1")}`, `updated    p2  ${versions.get("p2")} → ${p2?.version}`, `pushed 2 scenarios to ${mock.url}: 0 created, 1 updated, 1 unchanged`].join("\n"),
    );
  });
});

describe("push: what one name's upload did, from the listing before it", () => {
  it.each([
    { name: "new", before: undefined, change: "created", detail: "v2" },
    { name: "bundled, same content", before: { name: "x", version: "v2", source: "bundled" as const }, change: "created", detail: "v2  in KV (was bundled)" },
    { name: "bundled, other content", before: { name: "x", version: "v1", source: "bundled" as const }, change: "created", detail: "v1 → v2  in KV (was bundled)" },
    { name: "kv, same", before: { name: "x", version: "v2", source: "kv" as const }, change: "unchanged", detail: "v2" },
    { name: "kv, changed", before: { name: "x", version: "v1", source: "kv" as const }, change: "updated", detail: "v1 → v2" },
  ])("$name → $change", ({ before, change, detail }) => {
    expect(describeChange(before, "v2")).toStrictEqual({ change, detail });
  });
});

describe("mockllm push over a bundled scenario", () => {
  it("says it was created in KV (was bundled), then unchanged; the listing shows source kv", async () => {
    const bundled = (await mock.admin.list()).find((s) => s.name === "unknown-tool");
    expect(bundled?.source).toBe("bundled");
    const raw = await readFile(join(import.meta.dirname, "../../scenarios/unknown-tool.json"), "utf8");
    await files("over-bundled", { "unknown-tool.json": raw });
    try {
      const first = await cli(["push", "over-bundled"], server());
      const now = (await mock.admin.list()).find((s) => s.name === "unknown-tool");
      expect(now?.source).toBe("kv");
      const version = now!.version === bundled!.version ? now!.version : `${bundled!.version} → ${now!.version}`;
      expect(first).toStrictEqual({
        code: 0,
        out: [`created  unknown-tool  ${version}  in KV (was bundled)`, `pushed 1 scenario to ${mock.url}: 1 created, 0 updated, 0 unchanged`].join("\n"),
        err: "",
      });
      const again = await cli(["push", "over-bundled"], server());
      expect(again.out).toBe([`unchanged  unknown-tool  ${now!.version}`, `pushed 1 scenario to ${mock.url}: 0 created, 0 updated, 1 unchanged`].join("\n"));
    } finally {
      await mock.admin.delete("unknown-tool");
    }
  });
});

describe("mockllm pull and list", () => {
  it("pull writes named scenarios exactly as stored", async () => {
    await mock.admin.upload({ name: "pulled", description: "d", steps: [{ respond: { text: "t" } }] });
    const r = await cli(["pull", "pulled", "--out", "out"], server());
    expect(r).toStrictEqual({ code: 0, out: `wrote out/pulled.json\npulled 1 scenario from ${mock.url}`, err: "" });
    expect(await readFile(join(dir, "out", "pulled.json"), "utf8")).toBe(`${JSON.stringify({ name: "pulled", description: "d", steps: [{ respond: { text: "t" } }] }, null, 2)}\n`);
  });

  it("pull without names writes every scenario, bundled ones too", async () => {
    const r = await cli(["pull", "--out", "all"], server());
    expect(r.code).toBe(0);
    const names = (await mock.admin.list()).map((s) => `${s.name}.json`).sort();
    expect((await readdir(join(dir, "all"))).sort()).toStrictEqual(names);
    expect(names).toContain("weather-agent.json");
  });

  it("pull of an unknown name fails with exit 1 and writes nothing", async () => {
    const r = await cli(["pull", "pulled", "ghost", "--out", "ghost-out"], server());
    expect(r).toStrictEqual({ code: 1, out: "", err: `no such scenario on ${mock.url}: ghost` });
    await expect(readdir(join(dir, "ghost-out"))).rejects.toThrow(/ENOENT/);
  });

  it("list prints a table, --json the server's array", async () => {
    const r = await cli(["list"], server());
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines[0]).toMatch(/^NAME\s+VERSION\s+SOURCE\s+DESCRIPTION$/);
    expect(lines.find((l) => l.startsWith("pulled "))).toMatch(/^pulled\s+[0-9a-f]{16}\s+kv\s+d$/);
    const json = await cli(["list", "--json"], server());
    expect(JSON.parse(json.out)).toStrictEqual(await mock.admin.list());
  });
});

describe("mockllm journal and reset", () => {
  it("journal shows a readable table; --json the entries; reset empties it", async () => {
    await mock.admin.upload({ name: "jr", steps: [{ id: "only", failures: [{ kind: "rate_limit" }], respond: { text: "ok" } }] });
    const base = mock.openaiBaseURL("jr", "run-1");
    expect([await chat(base, "a"), await chat(base, "b"), await chat(base, "c")]).toStrictEqual([429, 200, 400]);

    const table = await cli(["journal", "jr", "run-1"], server());
    expect(table.code).toBe(0);
    const lines = table.out.split("\n");
    expect(lines[0]).toMatch(/^SEQ\s+AT\s+PROVIDER\s+ENDPOINT\s+STREAM\s+TURN\s+STEP\s+OUTCOME\s+STATUS\s+REASONS$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^1\s+\S+Z\s+openai\s+chat\.completions\s+no\s+1\s+only\s+failure\s+429\s+attempt 1: scripted rate_limit$/);
    expect(lines[2]).toMatch(/^2\s+\S+Z\s+openai\s+chat\.completions\s+no\s+1\s+only\s+response\s+200\s*$/);
    expect(lines[3]).toMatch(/^3\s+\S+Z\s+openai\s+chat\.completions\s+no\s+1\s+-\s+mismatch\s+400\s+\S/);

    const json = await cli(["journal", "jr", "run-1", "--json"], server());
    const entries = JSON.parse(json.out) as { seq: number; outcome: string }[];
    expect(entries.map((e) => [e.seq, e.outcome])).toStrictEqual([
      [1, "failure"],
      [2, "response"],
      [3, "mismatch"],
    ]);

    expect(await cli(["reset", "jr", "run-1"], server())).toStrictEqual({ code: 0, out: "reset jr/run-1", err: "" });
    expect(await cli(["journal", "jr", "run-1"], server())).toStrictEqual({ code: 0, out: "no requests in jr/run-1", err: "" });
  });

  it("a mismatch row names the nearest step as nearest, not as the step that ran", async () => {
    await mock.admin.upload({ name: "jr-near", steps: [{ id: "answer", match: { lastUserMessage: { contains: "weather" } }, respond: { text: "Sunny" } }] });
    const base = mock.openaiBaseURL("jr-near", "run-1");
    expect([await chat(base, "hello"), await chat(base, "the weather?")]).toStrictEqual([400, 200]);
    const lines = (await cli(["journal", "jr-near", "run-1"], server())).out.split("\n");
    expect(lines[1]).toMatch(/^1\s+\S+Z\s+openai\s+chat\.completions\s+no\s+1\s+nearest: answer\s+mismatch\s+400\s+\S/);
    expect(lines[2]).toMatch(/^2\s+\S+Z\s+openai\s+chat\.completions\s+no\s+1\s+answer\s+response\s+200\s*$/);
  });

  it("session defaults to 'default'; a missing scenario argument is a usage error", async () => {
    expect(await cli(["reset", "jr"], server())).toStrictEqual({ code: 0, out: "reset jr/default", err: "" });
    const missing = await cli(["journal"], server());
    expect([missing.code, missing.err.split("\n")[0]]).toStrictEqual([2, "mockllm journal: missing <scenario>"]);
    const extra = await cli(["reset", "a", "b", "c"], server());
    expect([extra.code, extra.err.split("\n")[0]]).toStrictEqual([2, 'mockllm reset: unexpected argument "c"']);
  });

  it("an invalid session name is caught before any request (exit 2)", async () => {
    const r = await cli(["reset", "jr", "Bad Name"], { MOCKLLM_URL: "http://127.0.0.1:9", MOCKLLM_ADMIN_TOKEN: "t" });
    expect(r.code).toBe(2);
    expect(r.err.split("\n")[0]).toBe('mockllm reset: invalid session name "Bad Name": names match [a-z0-9][a-z0-9._-]{0,63}');
  });
});

describe("mockllm push, server-side rejection", () => {
  it("maps the server's $[i] issue paths back to the files", async () => {
    await files("srv", { "one.json": { name: "srv-one", steps: [] }, "two.json": { name: "srv-two", steps: [] } });
    const rejecting: typeof fetch = async (input, init) => {
      if ((init?.method ?? "GET") === "GET") return new Response("[]", { status: 200 });
      const body = { error: { message: "invalid upload, nothing stored: 1 issue(s)", issues: [{ path: "$[1].steps[0]", message: "server says no" }] } };
      expect(String(input)).toBe("http://srv.test/admin/scenarios");
      return new Response(JSON.stringify(body), { status: 400 });
    };
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(["push", "srv", "--url", "http://srv.test", "--token", "t"], {
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      env: {},
      cwd: dir,
      fetch: rejecting,
    });
    expect(code).toBe(1);
    expect(out).toStrictEqual([]);
    expect(err.join("\n")).toBe(["mockllm push: POST http://srv.test/admin/scenarios → 400: invalid upload, nothing stored: 1 issue(s)", "  srv/two.json: $.steps[0]: server says no"].join("\n"));
  });
});
