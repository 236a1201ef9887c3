// The package as users get it: `npm run build` output in a scratch package directory, loaded by
// plain Node through package.json `exports` and `bin`, and type-checked by a NodeNext consumer.
import { execFile, execFileSync, spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exec, installed, installInto, sourceMapProblems, userEnv } from "./package-install";

const run = promisify(execFile);
const repo = fileURLToPath(new URL("../..", import.meta.url));
let pkg: string;
let consumer: string;

async function node(args: string[], cwd = pkg): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd, env: { ...process.env, MOCKLLM_URL: "", MOCKLLM_ADMIN_TOKEN: "" } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

beforeAll(async () => {
  pkg = await mkdtemp(join(tmpdir(), "mockllm-pkg-"));
  await mkdir(join(pkg, "bin"));
  await cp(join(repo, "package.json"), join(pkg, "package.json"));
  await cp(join(repo, "bin", "mockllm.js"), join(pkg, "bin", "mockllm.js"));
  await symlink(join(repo, "node_modules"), join(pkg, "node_modules"), "dir");
  const built = await node([join(repo, "bin", "build-client.mjs"), "--out-dir", join(pkg, "dist")], repo);
  if (built.code !== 0) throw new Error(`build failed:\n${built.stdout}${built.stderr}`);
  const worker = await node([join(repo, "bin", "build-worker.mjs"), "--out-dir", join(pkg, "dist")], repo);
  if (worker.code !== 0) throw new Error(`worker build failed:\n${worker.stdout}${worker.stderr}`);
  const nodeRuntime = await node([join(repo, "bin", "build-node.mjs"), "--out-dir", join(pkg, "dist")], repo);
  if (nodeRuntime.code !== 0) throw new Error(`node runtime build failed:\n${nodeRuntime.stdout}${nodeRuntime.stderr}`);
  // A consumer project elsewhere on disk whose node_modules holds the package and its one runtime dependency the
  // client needs (zod) — no wrangler, no miniflare, no workerd — as a user installing it for the Node runtime has.
  consumer = await mkdtemp(join(tmpdir(), "mockllm-consumer-"));
  const installed = join(consumer, "node_modules", "mockllm");
  await mkdir(installed, { recursive: true });
  for (const entry of ["package.json", "bin", "dist"]) await cp(join(pkg, entry), join(installed, entry), { recursive: true });
  await symlink(join(repo, "node_modules", "zod"), join(consumer, "node_modules", "zod"), "dir");
  await writeFile(join(consumer, "package.json"), JSON.stringify({ name: "consumer", type: "module", private: true }));
}, 180_000);
afterAll(async () => {
  if (pkg) await rm(pkg, { recursive: true, force: true });
  if (consumer) await rm(consumer, { recursive: true, force: true });
});

/** A Node 20 on this machine outside node_modules (the machines' own Node), if there is one. */
const NODE_20 = ["/usr/bin/node", "/usr/local/bin/node", "/bin/node"].find((p) => {
  try {
    return execFileSync(p, ["--version"], { encoding: "utf8" }).startsWith("v20.");
  } catch {
    return false;
  }
});

async function* walk(dir: string): AsyncGenerator<string> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) yield* walk(join(dir, e.name));
    else yield join(dir, e.name);
  }
}

describe("built package", () => {
  it("has no extensionless relative imports left in .js or .d.ts", async () => {
    const bad: string[] = [];
    let checked = 0;
    for await (const file of walk(join(pkg, "dist"))) {
      if (!file.endsWith(".js") && !file.endsWith(".d.ts")) continue;
      checked++;
      const text = await readFile(file, "utf8");
      for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*)["'](\.{1,2}\/[^"']*)["']/g)) {
        if (!m[1]?.endsWith(".js")) bad.push(`${file}: ${m[1]}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(bad).toStrictEqual([]);
  });

  it("loads through package.json exports in plain Node, root and subpaths", async () => {
    const script = `
      const root = await import("mockllm");
      const subs = await Promise.all(["mockllm/builder", "mockllm/admin", "mockllm/testing"].map((s) => import(s)));
      const doc = root.scenario("hi").step((s) => s.fail("rate_limit", { retryAfterMs: 5 }).text("Hello")).build();
      console.log(JSON.stringify({ root: Object.keys(root).sort(), subs: subs.map((m) => Object.keys(m).sort()), doc }));`;
    const r = await node(["--input-type=module", "-e", script]);
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout) as { root: string[]; subs: string[][]; doc: unknown };
    expect(out.root).toEqual(expect.arrayContaining(["AdminClient", "MockLLMAdminError", "scenario", "startMockLLM", "ScenarioValidationError", "assertVerified"]));
    expect(out.subs).toStrictEqual([
      ["ScenarioBuilder", "ScenarioValidationError", "StepBuilder", "formatIssues", "scenario", "step"],
      ["AdminClient", "MockLLMAdminError", "MockLLMVerifyError", "assertVerified"],
      ["MockLLMVerifyError", "assertVerified", "defaultWranglerConfig", "startMockLLM"],
    ]);
    expect(out.doc).toStrictEqual({ name: "hi", steps: [{ failures: [{ kind: "rate_limit", retryAfterMs: 5 }], respond: { text: "Hello" } }] });
  });

  it("runs the bin: --version, validate ok (exit 0) and invalid (exit 1)", async () => {
    const version = (JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as { version: string }).version;
    expect(await node(["bin/mockllm.js", "--version"])).toStrictEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
    await writeFile(join(pkg, "good.json"), JSON.stringify({ name: "good", steps: [{ respond: { text: "x" } }] }));
    await writeFile(join(pkg, "bad.json"), JSON.stringify({ name: "bad", steps: [{ respond: { txt: "x" } }] }));
    expect(await node(["bin/mockllm.js", "validate", "good.json"])).toStrictEqual({
      code: 0,
      stdout: "ok    good.json  good (1 step)\n1 file: 1 valid, 0 invalid\n",
      stderr: "",
    });
    expect(await node(["bin/mockllm.js", "validate", "good.json", "bad.json"])).toStrictEqual({
      code: 1,
      stdout: "ok    good.json  good (1 step)\n2 files: 1 valid, 1 invalid\n",
      stderr: 'FAIL  bad.json\n  $.steps[0].respond.txt: unknown key "txt"; did you mean "text"?\n',
    });
    const noToken = await node(["bin/mockllm.js", "list", "--url", "http://127.0.0.1:9"]);
    expect(noToken).toStrictEqual({
      code: 2,
      stdout: "",
      stderr: 'mockllm list: no admin token: pass --token or set MOCKLLM_ADMIN_TOKEN\nRun "mockllm list --help" for usage.\n',
    });
  });

  it("startMockLLM from the built package runs the Node runtime in process, without wrangler or workerd, from any cwd", async () => {
    const script = `
      const { startMockLLM, scenario } = await import("mockllm");
      const mock = await startMockLLM({ scenarios: [scenario("hi").step((s) => s.text("Hello from the Node runtime").consume(false))] });
      // In process, proven without a clock (a start-up time bound failed on busy machines, issue 51): this process
      // listens itself and has started no child (wrangler, workerd).
      const resources = process.getActiveResourcesInfo();
      const inProcess = resources.includes("TCPServerWrap") && !resources.includes("ProcessWrap");
      try {
        const res = await fetch(mock.openaiBaseURL("hi", "t1") + "/chat/completions", {
          method: "POST",
          headers: { authorization: "Bearer k", "content-type": "application/json" },
          body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] }),
        });
        const journal = await mock.admin.journal("hi", "t1");
        console.log(JSON.stringify({ status: res.status, text: (await res.json()).choices[0].message.content, journal: journal.map((e) => e.outcome), inProcess }));
      } finally {
        await mock.stop();
      }
      await import("wrangler").then(() => console.log("wrangler resolvable"), () => {});`;
    const sub = join(consumer, "deeper", "cwd");
    await mkdir(sub, { recursive: true });
    const scriptFile = join(consumer, "start-node.mjs");
    await writeFile(scriptFile, script);
    const r = await node([scriptFile], sub);
    expect(r.stderr).toBe("");
    expect(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toStrictEqual([{ status: 200, text: "Hello from the Node runtime", journal: ["response"], inProcess: true }]);
  }, 60_000);

  it.skipIf(NODE_20 === undefined)(
    "the Node runtime runs on Node 20, the oldest Node users have",
    async () => {
      const script = join(consumer, "node20.mjs");
      await writeFile(
        script,
        `const { startMockLLM, scenario } = await import("mockllm");
      const mock = await startMockLLM({ scenarios: [scenario("hi").step((s) => s.text("Hello").consume(false))] });
      const res = await fetch(mock.openaiBaseURL("hi") + "/chat/completions", { method: "POST", headers: { authorization: "Bearer k", "content-type": "application/json" }, body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "x" }] }) });
      const text = await res.text();
      await mock.stop();
      console.log(JSON.stringify({ version: process.version.split(".")[0], status: res.status, done: text.endsWith("data: [DONE]\\n\\n") }));`,
      );
      const { stdout, stderr } = await run(NODE_20!, [script], { cwd: consumer });
      expect(stderr).toBe("");
      expect(JSON.parse(stdout)).toStrictEqual({ version: "v20", status: 200, done: true });
    },
    60_000,
  );

  it("the built Node runtime starts without loading HTTP/2 or ws, and answers JSON, HTTP/2 and WebSocket requests without ever loading Node's undici (fetch's classes)", async () => {
    // node:http through require (an ES import of node:http loads undici on Node 22), and no fetch in the probe itself.
    const probe = `
      import { createRequire } from "node:module";
      const http = createRequire(import.meta.url)("node:http");
      const loaded = () => process.moduleLoadList.some((m) => m.includes("undici"));
      const { startServer } = await import(${JSON.stringify(join(pkg, "dist", "node", "index.js"))});
      const server = await startServer({ log: () => {} });
      const atStart = loaded();
      const heavyAtStart = process.moduleLoadList.filter((m) => /NativeModule (http2|tls|zlib)$/.test(m));
      const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] });
      const ask = () => new Promise((resolve, reject) => {
        const req = http.request(server.url + "/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k" } }, (res) => {
          let text = "";
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve([res.statusCode, JSON.parse(text).object]));
        });
        req.on("error", reject);
        req.end(body);
      });
      const answers = await Promise.all([ask(), ask(), ask(), ask(), ask()]);
      const afterJson = loaded();
      // The parts loaded on first use: cleartext HTTP/2 (node:http2) and WebSockets (ws).
      const http2 = createRequire(import.meta.url)("node:http2");
      const overH2 = await new Promise((resolve, reject) => {
        const session = http2.connect(server.url);
        session.on("error", reject);
        const req = session.request({ ":method": "POST", ":path": "/v1/chat/completions", "content-type": "application/json", authorization: "Bearer k" });
        let text = "";
        req.on("data", (d) => (text += d));
        req.on("end", () => { session.close(); resolve(JSON.parse(text).object); });
        req.end(body);
      });
      const { WebSocket } = createRequire(${JSON.stringify(join(pkg, "package.json"))})("ws");
      const firstEvent = await new Promise((resolve, reject) => {
        const ws = new WebSocket(server.url.replace("http", "ws") + "/v1/realtime?model=gpt-realtime", { headers: { authorization: "Bearer k" } });
        ws.on("error", reject);
        ws.on("message", (data) => { ws.close(); resolve(JSON.parse(String(data)).type); });
      });
      const heavyAfter = process.moduleLoadList.filter((m) => /NativeModule (http2)$/.test(m));
      console.log(JSON.stringify({ atStart, heavyAtStart, answers, afterJson, after: loaded(), heavyAfter, overH2, firstEvent }));
      await server.close();
    `;
    const out = await node(["--input-type=module", "-e", probe]);
    expect(out.stderr).toBe("");
    expect(JSON.parse(out.stdout)).toStrictEqual({
      atStart: false,
      heavyAtStart: [],
      answers: Array(5).fill([200, "chat.completion"]),
      // The Node runtime's own Request/Response/Headers (src/hosts/node/web.ts): ~8 MB and ~35 ms less at the first request.
      afterJson: false,
      after: false,
      heavyAfter: ["NativeModule http2"],
      overH2: "chat.completion",
      firstEvent: "session.created",
    });
  }, 60_000);

  it("mockllm serve from the built package: banner, scenarios from a file, requests, clean exit on SIGINT", async () => {
    const dir = join(consumer, "served");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "greet.json"), JSON.stringify({ name: "greet", steps: [{ consume: false, respond: { text: "Served." } }] }));
    const child = spawn(process.execPath, [join(consumer, "node_modules", "mockllm", "bin", "mockllm.js"), "serve", "--port", "0", "--admin-token", "tok", "--scenarios", "greet.json"], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    for (let i = 0; i < 100 && !out.includes("docs/index.md"); i++) await new Promise((r) => setTimeout(r, 50));
    const base = /mockllm is ready on (http:\/\/\S+) \(Node runtime\)/.exec(out)?.[1];
    expect(base, out + err).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(out).toMatch(/^ {2}admin token +tok$/m);
    // Every surface's base URL and its page (docs/index.md lists them all).
    for (const page of ["providers/openai.md", "providers/azure.md", "providers/cohere-rerank.md", "providers/websockets.md", "guide/mcp.md"]) expect(out).toContain(`docs/${page}`);
    const res = await fetch(`${base}/s/greet/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] }),
    });
    expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("Served.");
    const list = (await (await fetch(`${base}/admin/scenarios`, { headers: { authorization: "Bearer tok" } })).json()) as { name: string; source: string }[];
    expect(list.find((s) => s.name === "greet")).toMatchObject({ source: "file" });
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(err).toContain("mockllm: stopped");
  }, 60_000);

  it('startMockLLM({ runtime: "workerd" }) from the built package runs the prebuilt Worker bundle under Miniflare', async () => {
    const script = `
      const { startMockLLM, scenario } = await import("mockllm");
      const mock = await startMockLLM({ runtime: "workerd", scenarios: [scenario("hi").step((s) => s.text("Hello from dist").consume(false))] });
      try {
        const res = await fetch(mock.openaiBaseURL("hi", "t1") + "/chat/completions", {
          method: "POST",
          headers: { authorization: "Bearer k", "content-type": "application/json" },
          body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] }),
        });
        const journal = await mock.admin.journal("hi", "t1");
        // Files keep their bytes in the bundle's R2 binding, as deployed.
        const form = new FormData();
        form.append("purpose", "assistants");
        form.append("file", new Blob(["hello file"]), "note.txt");
        const file = await (await fetch(mock.openaiBaseURL() + "/files", { method: "POST", headers: { authorization: "Bearer k" }, body: form })).json();
        const bytes = await (await fetch(mock.openaiBaseURL() + "/files/" + file.id + "/content", { headers: { authorization: "Bearer k" } })).text();
        console.log(JSON.stringify({ status: res.status, text: (await res.json()).choices[0].message.content, journal: journal.map((e) => e.outcome), file: [file.filename, file.bytes, bytes] }));
      } finally {
        await mock.stop();
      }`;
    const r = await node(["--input-type=module", "-e", script]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toStrictEqual({ status: 200, text: "Hello from dist", journal: ["response"], file: ["note.txt", 10, "hello file"] });
    const runtime = JSON.parse(await readFile(join(pkg, "dist", "worker", "runtime.json"), "utf8"));
    expect(runtime).toMatchObject({
      main: "index.js",
      durableObjects: [
        { name: "SESSIONS", className: "SessionObject" },
        { name: "REGISTRY", className: "RegistryObject" },
        { name: "WEBHOOKS", className: "WebhookObject" },
      ],
      kvNamespaces: ["SCENARIOS"],
      r2Buckets: ["FILES"],
    });
  }, 60_000);

  /** The same test, written for each runner a user may have. */
  const RUNNER_TEST = (hooks: { before: string; after: string; test: string; assert: string }) => `
    import { startMockLLM, scenario } from "mockllm";
    let mock;
    ${hooks.before}(async () => {
      mock = await startMockLLM({ scenarios: [scenario("hi").step((s) => s.text("Hello from a runner").consume(false))] });
    });
    ${hooks.after}(() => mock.stop());
    ${hooks.test}("answers through the mock", async () => {
      const res = await fetch(mock.openaiBaseURL("hi", "r1") + "/chat/completions", {
        method: "POST",
        headers: { authorization: "Bearer k", "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] }),
      });
      ${hooks.assert}((await res.json()).choices[0].message.content, "Hello from a runner");
    });`;

  it("works from node:test", async () => {
    await writeFile(
      join(pkg, "runner.node.test.mjs"),
      `import { before, after, test } from "node:test";\nimport assert from "node:assert/strict";\n${RUNNER_TEST({ before: "before", after: "after", test: "test", assert: "assert.equal" })}`,
    );
    const r = await node(["--test", "--test-reporter=tap", "runner.node.test.mjs"]);
    expect(r.stdout).toContain("# pass 1");
    expect(r.stdout).toContain("# fail 0");
    expect(r.code).toBe(0);
  }, 60_000);

  it("works from jest (native ESM)", async () => {
    await writeFile(join(pkg, "runner.jest.test.mjs"), RUNNER_TEST({ before: "beforeAll", after: "afterAll", test: "test", assert: "((a, b) => expect(a).toBe(b))" }));
    const jest = join(repo, "node_modules", "jest", "bin", "jest.js");
    const r = await node(["--experimental-vm-modules", jest, "--rootDir", pkg, "--transform", "{}", "--testMatch", "**/runner.jest.test.mjs", "--ci"]);
    expect(r.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
    expect(r.code).toBe(0);
  }, 60_000);

  it("type-checks for a consumer using NodeNext resolution", async () => {
    await writeFile(
      join(pkg, "consumer.mts"),
      `import { scenario, AdminClient, startMockLLM, type MockLLM, type JournalEntry } from "mockllm";
import { step } from "mockllm/builder";
const doc = scenario("x").step(step().fail("http", { status: 418 }).text("t")).build();
const n: number = doc.steps.length;
const admin: AdminClient = new AdminClient({ url: "http://x", token: "t" });
const start: (o?: { adminToken?: string }) => Promise<MockLLM> = startMockLLM;
const seq = (e: JournalEntry): number => e.seq;
// @ts-expect-error http failures need a status (and this line proves the types are not \`any\`)
scenario("y").step((s) => s.fail("http"));
export { n, admin, start, seq };
`,
    );
    const tsc = join(repo, "node_modules", "typescript", "bin", "tsc");
    const r = await node([tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--types", "node", "--skipLibCheck", "consumer.mts"]);
    expect(r.stdout + r.stderr).toBe("");
    expect(r.code).toBe(0);
  }, 60_000);
});

/**
 * The package as a team installs it before it is on a registry: `npm pack`'s tarball, a git URL naming a release tag
 * (scripts/release-git.mjs), a path — each into an empty project of its own, from the same scratch build as above.
 */
describe("the packed package, installed in a user's project", () => {
  let packDir: string;
  let tarball: string;
  let packed: string[];
  let project: string;
  let install: { code: number; stdout: string; stderr: string };
  const OPENAI = (JSON.parse(readFileSync(join(repo, "node_modules", "openai", "package.json"), "utf8")) as { version: string }).version;
  const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { version: string; dependencies: Record<string, string> };
  const RUNTIME_DEPS = Object.keys(manifest.dependencies);

  beforeAll(async () => {
    // What `files` ships besides dist and the bin (npm adds package.json and README.md itself).
    for (const entry of ["src", "scenarios", "wrangler.toml", "scenario.schema.json", "README.md"]) await cp(join(repo, entry), join(pkg, entry), { recursive: true });
    packDir = await mkdtemp(join(tmpdir(), "mockllm-packed-"));
    // --ignore-scripts: dist is built above (prepack would build it again).
    const r = await exec("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", packDir], pkg);
    if (r.code !== 0) throw new Error(`npm pack failed:\n${r.stderr}`);
    const [info] = JSON.parse(r.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(packDir, info!.filename);
    packed = info!.files.map((f) => f.path);
    project = join(packDir, "tarball-project");
    install = await installInto(project, [tarball, `openai@${OPENAI}`]);
  }, 90_000);
  afterAll(async () => {
    if (packDir) await rm(packDir, { recursive: true, force: true });
  });

  it("ships dist, the bin, the sources its maps name and the scenarios: no tests, no bench, no build scripts", () => {
    expect([...new Set(packed.map((p) => p.split("/")[0]))].sort()).toStrictEqual(["README.md", "bin", "dist", "package.json", "scenario.schema.json", "scenarios", "src", "wrangler.toml"]);
    expect(packed.filter((p) => p.startsWith("bin/"))).toStrictEqual(["bin/mockllm.js"]);
    expect(packed.filter((p) => /(^|\/)(test|tests|bench|examples|python|docs)\/|\.test\.ts$/.test(p))).toStrictEqual([]);
    expect(packed).toEqual(expect.arrayContaining(["dist/client/index.js", "dist/client/cli/main.js", "dist/node/index.js", "dist/worker/index.js"]));
  });

  it("from the tarball, with openai: no install script, only the runtime dependencies, clean source maps, and a startMockLLM test passes", async () => {
    expect(install.code, install.stderr).toBe(0);
    expect(install.stderr).not.toMatch(/install-scripts|prepare|npm run build/);
    expect(await installed(project)).toStrictEqual([...RUNTIME_DEPS, "mockllm", "openai"].sort());
    const maps = await sourceMapProblems(join(project, "node_modules", "mockllm"));
    expect(maps.problems).toStrictEqual([]);
    expect(maps.maps).toBeGreaterThan(50);
    expect(maps.sources).toBeGreaterThan(300);

    await writeFile(
      join(project, "chat.test.js"),
      `import { test, after } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { assertVerified, startMockLLM, scenario } from "mockllm";

const mock = await startMockLLM({ scenarios: [scenario("greet").step((s) => s.text("Hello from the tarball"))] });
after(() => mock.stop());

test("the official client gets the scripted answer", async () => {
  const client = new OpenAI({ baseURL: mock.openaiBaseURL("greet", "t1"), apiKey: "k" });
  const res = await client.chat.completions.create({ model: "gpt-4.1-nano", messages: [{ role: "user", content: "hi" }] });
  assert.equal(res.choices[0].message.content, "Hello from the tarball");
  await assertVerified(mock, "greet", "t1");
});
`,
    );
    const t = await exec(process.execPath, ["--test", "--test-reporter=tap", "chat.test.js"], project);
    expect(t.stdout, t.stderr).toContain("# pass 1");
    expect(t.stdout).toContain("# fail 0");
    expect(t.stderr).toBe("");
    const version = await exec(join(project, "node_modules", ".bin", "mockllm"), ["--version"], project);
    expect(version).toStrictEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: "" });
  }, 60_000);

  it("pytest-mockllm-server (pip install ./python) runs the project's node_modules/.bin/mockllm with no MOCKLLM_BIN", async () => {
    // scripts/python-venv.sh pip-installs ./python into the suite's venv on every call.
    const venv = await exec("bash", [join(repo, "scripts", "python-venv.sh")], repo);
    expect(venv.code, venv.stderr).toBe(0);
    const tests = join(project, "tests");
    await mkdir(tests, { recursive: true });
    await writeFile(
      join(tests, "test_chat.py"),
      `import json
import urllib.request


def test_chat(mockllm, mockllm_server):
    print("COMMAND", mockllm_server.process.command)
    mockllm.upload({"name": "py-greet", "steps": [{"respond": {"text": "Hello from pytest"}}]})
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode()
    req = urllib.request.Request(mockllm.base_url("openai", scenario="py-greet") + "/chat/completions", data=body,
                                 headers={"authorization": "Bearer k", "content-type": "application/json"})
    assert json.load(urllib.request.urlopen(req))["choices"][0]["message"]["content"] == "Hello from pytest"
    mockllm.verify("py-greet")
`,
    );
    const r = await exec(venv.stdout.trim(), ["-m", "pytest", "-p", "no:cacheprovider", "-q", "-s", "test_chat.py"], tests, userEnv({ PYTHONDONTWRITEBYTECODE: "1" }));
    expect(r.stdout, r.stderr).toMatch(/1 passed/);
    expect(r.stdout).toContain(`COMMAND ['${join(project, "node_modules", ".bin", "mockllm")}']`);
  }, 180_000);

  it("from a git URL naming a release tag (scripts/release-git.mjs): no build, only the runtime dependencies", async () => {
    const origin = join(packDir, "origin");
    const git = (args: string[], cwd = origin) => exec("git", args, cwd, userEnv(GIT_IDENTITY));
    await mkdir(origin);
    expect((await git(["init", "-q"])).code).toBe(0);
    expect((await git(["commit", "-q", "--allow-empty", "-m", "main"])).code).toBe(0);
    const release = await exec(process.execPath, [join(repo, "scripts", "release-git.mjs"), "--tarball", tarball, "--repo", origin], repo, userEnv(GIT_IDENTITY));
    expect(release.stderr).toBe("");
    expect(release.stdout).toContain(`release-git: v${manifest.version} (`);
    const files = (await git(["ls-tree", "-r", "--name-only", `v${manifest.version}`])).stdout.trim().split("\n");
    expect(files.sort()).toStrictEqual([...packed].sort());
    const shipped = JSON.parse((await git(["show", `v${manifest.version}:package.json`])).stdout) as Record<string, unknown>;
    expect([shipped.scripts, shipped.devDependencies, shipped.dependencies]).toStrictEqual([undefined, undefined, manifest.dependencies]);

    const gitProject = join(packDir, "git-project");
    const r = await installInto(gitProject, [`git+file://${origin}#v${manifest.version}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/install-scripts|prepare|npm run build/);
    expect(await installed(gitProject)).toStrictEqual([...RUNTIME_DEPS, "mockllm"].sort());
    expect(await startAndAsk(gitProject)).toBe("Hello from an install");
  }, 90_000);

  it("from a path (npm install --install-links <dir>): the directory's dist, no build", async () => {
    const pathProject = join(packDir, "path-project");
    const r = await installInto(pathProject, ["--install-links", pkg]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/install-scripts|prepare|npm run build/);
    expect(await installed(pathProject)).toStrictEqual([...RUNTIME_DEPS, "mockllm"].sort());
    expect(await startAndAsk(pathProject)).toBe("Hello from an install");
  }, 60_000);
});

const GIT_IDENTITY = { GIT_AUTHOR_NAME: "mockllm test", GIT_AUTHOR_EMAIL: "test@mockllm.invalid", GIT_COMMITTER_NAME: "mockllm test", GIT_COMMITTER_EMAIL: "test@mockllm.invalid" };

/** startMockLLM from the package installed in `project`, one Chat Completions request; its answer's text. */
async function startAndAsk(project: string): Promise<string> {
  await writeFile(
    join(project, "ask.mjs"),
    `import { startMockLLM, scenario } from "mockllm";
const mock = await startMockLLM({ scenarios: [scenario("hi").step((s) => s.text("Hello from an install"))] });
const res = await fetch(mock.openaiBaseURL("hi") + "/chat/completions", { method: "POST", headers: { authorization: "Bearer k", "content-type": "application/json" }, body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] }) });
console.log((await res.json()).choices[0].message.content);
await mock.stop();`,
  );
  const r = await exec(process.execPath, ["ask.mjs"], project);
  expect(r.stderr).toBe("");
  return r.stdout.trim();
}
