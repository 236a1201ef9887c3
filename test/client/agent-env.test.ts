// `mockllm env <cli>` and `mock.envFor()`: the variables and config files each agent CLI gets, checked without the CLIs.
import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureCli } from "../support/cli";
import { agentEnv } from "../../src/client/agents/profiles";
import { startMockLLM, type MockLLM } from "../../src/client/index";

const URL = "http://127.0.0.1:8787";
const ROOT = `${URL}/s/fix-bug/t1`;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mockllm-agent-env-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (argv: string[], env: Record<string, string | undefined> = {}) => captureCli(argv, { env, cwd: dir });

/** `KEY=value` lines of the output (comments and blank lines skipped, single quotes undone). */
function parseEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const i = line.indexOf("=");
    const raw = line.slice(i + 1);
    out[line.slice(0, i)] = raw.startsWith("'") ? raw.slice(1, -1).replace(/'\\''/g, "'") : raw;
  }
  return out;
}

const base = ["--url", URL, "--scenario", "fix-bug", "--session", "t1"];

describe("mockllm env", () => {
  it("codex: the custom provider in config.toml under CODEX_HOME, the key in MOCKLLM_API_KEY", async () => {
    const home = join(dir, "codex");
    const run = await cli(["env", "codex", ...base, "--key", "mk_abc.def", "--write", home]);
    expect(run.code).toBe(0);
    expect(parseEnv(run.out)).toEqual({
      HOME: home,
      CODEX_HOME: join(home, ".codex"),
      MOCKLLM_API_KEY: "mk_abc.def",
      OPENAI_BASE_URL: `${ROOT}/v1`,
      OPENAI_API_KEY: "mk_abc.def",
    });
    const config = await readFile(join(home, ".codex/config.toml"), "utf8");
    expect(config).toBe(
      [
        "# Written by `mockllm env codex`: Codex talks to one mockllm session.",
        'model = "gpt-5.5"',
        'model_provider = "mockllm"',
        `openai_base_url = "${ROOT}/v1"`,
        "check_for_update_on_startup = false",
        "",
        "[analytics]",
        "enabled = false",
        "",
        "[feedback]",
        "enabled = false",
        "",
        "[model_providers.mockllm]",
        'name = "mockllm"',
        `base_url = "${ROOT}/v1"`,
        'env_key = "MOCKLLM_API_KEY"',
        'wire_api = "responses"',
        "supports_websockets = false",
        "",
      ].join("\n"),
    );
    expect((await stat(join(home, ".codex/config.toml"))).mode & 0o777).toBe(0o600);
  });

  it("codex --websocket: supports_websockets = true", async () => {
    const run = await cli(["env", "codex", ...base, "--websocket", "--json"]);
    const parsed = JSON.parse(run.out) as { files: { path: string; content: string }[] };
    expect(parsed.files[0]?.content).toContain("supports_websockets = true\n");
  });

  it('codex --wire chat: wire_api = "chat" for Codex 0.94\'s Chat Completions wire; another wire is bad usage', async () => {
    const run = await cli(["env", "codex", ...base, "--wire", "chat", "--json"]);
    const parsed = JSON.parse(run.out) as { files: { path: string; content: string }[] };
    expect(parsed.files[0]?.content).toContain('wire_api = "chat"\n');
    expect(parsed.files[0]?.content).toContain('model = "gpt-5.2-codex"\n');
    expect(await cli(["env", "codex", ...base, "--wire", "grpc"])).toMatchObject({ code: 2, err: expect.stringContaining('--wire must be responses or chat, got "grpc"') });
  });

  it("gemini: GEMINI_CLI_HOME, the base URL without /v1beta, trust, and settings.json with the API-key auth type", async () => {
    const home = join(dir, "gemini");
    const run = await cli(["env", "gemini", ...base, "--write", home]);
    expect(run.code).toBe(0);
    expect(parseEnv(run.out)).toEqual({
      HOME: home,
      GEMINI_CLI_HOME: home,
      GOOGLE_GEMINI_BASE_URL: ROOT,
      GEMINI_API_KEY: "sk-mockllm-agent",
      GEMINI_CLI_TRUST_WORKSPACE: "true",
      GEMINI_TELEMETRY_ENABLED: "false",
    });
    expect(JSON.parse(await readFile(join(home, ".gemini/settings.json"), "utf8"))).toEqual({
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
      ide: { enabled: false },
    });
  });

  it("qwen: the OpenAI variables, the model, and settings.json with the openai auth type and the non-interactive shell", async () => {
    const home = join(dir, "qwen");
    const run = await cli(["env", "qwen", ...base, "--write", home]);
    expect(parseEnv(run.out)).toEqual({
      HOME: home,
      OPENAI_BASE_URL: `${ROOT}/v1`,
      OPENAI_API_KEY: "sk-mockllm-agent",
      OPENAI_MODEL: "mockllm-agent",
      QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
    });
    const settings = JSON.parse(await readFile(join(home, ".qwen/settings.json"), "utf8")) as Record<string, unknown>;
    expect(settings.security).toEqual({ auth: { selectedType: "openai" }, folderTrust: { enabled: false } });
    expect(settings.tools).toEqual({ shell: { enableInteractiveShell: false } });
    expect(settings.model).toEqual({ name: "mockllm-agent" });
    expect(settings.general).toEqual({ enableAutoUpdate: false, enableAutoUpdateNotification: false });
  });

  it("opencode: an OpenAI-compatible provider in opencode.json under XDG_CONFIG_HOME; without --write the config travels in OPENCODE_CONFIG_CONTENT", async () => {
    const home = join(dir, "opencode");
    const run = await cli(["env", "opencode", ...base, "--write", home]);
    const env = parseEnv(run.out);
    expect(env).toEqual({
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_DATA_HOME: join(home, ".local/share"),
      XDG_STATE_HOME: join(home, ".local/state"),
      XDG_CACHE_HOME: join(home, ".cache"),
      MOCKLLM_API_KEY: "sk-mockllm-agent",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    });
    const config = JSON.parse(await readFile(join(home, ".config/opencode/opencode.json"), "utf8")) as Record<string, unknown>;
    expect(config).toEqual({
      $schema: "https://opencode.ai/config.json",
      autoupdate: false,
      share: "disabled",
      model: "mockllm/mockllm-agent",
      small_model: "mockllm/mockllm-agent",
      enabled_providers: ["mockllm"],
      provider: {
        mockllm: {
          npm: "@ai-sdk/openai-compatible",
          name: "mockllm",
          options: { baseURL: `${ROOT}/v1`, apiKey: "{env:MOCKLLM_API_KEY}" },
          models: { "mockllm-agent": { name: "mockllm", tool_call: true } },
        },
      },
    });
    const printed = parseEnv((await cli(["env", "opencode", ...base])).out);
    expect(printed.HOME).toBeUndefined();
    expect(JSON.parse(printed.OPENCODE_CONFIG_CONTENT ?? "")).toEqual(config);
  });

  it("claude: ANTHROPIC_BASE_URL without /v1, CLAUDE_CONFIG_DIR, telemetry and non-essential traffic off, no files", async () => {
    const home = join(dir, "claude");
    const run = await cli(["env", "claude", ...base, "--write", home]);
    expect(parseEnv(run.out)).toEqual({
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, ".claude"),
      ANTHROPIC_BASE_URL: ROOT,
      ANTHROPIC_API_KEY: "sk-mockllm-agent",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    });
    expect(await readdir(home)).toEqual([]);
  });

  it("without --write prints each file as comments on stderr (stdout only variables) and sets no HOME; MOCKLLM_URL stands in for --url", async () => {
    const run = await cli(["env", "gemini", "--scenario", "fix-bug", "--session", "t1"], { MOCKLLM_URL: URL });
    expect(run.code).toBe(0);
    const lines = run.out.split("\n");
    expect(lines.slice(0, 4)).toEqual([`GOOGLE_GEMINI_BASE_URL=${ROOT}`, "GEMINI_API_KEY=sk-mockllm-agent", "GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_TELEMETRY_ENABLED=false"]);
    const notes = run.err.split("\n");
    expect(notes).toContain("# ~/.gemini/settings.json (write it with --write DIR):");
    expect(notes).toContain('#         "selectedType": "gemini-api-key"');
  });

  it("stdout holds only what a shell takes, for every CLI: `env $(mockllm env codex …) codex` works (issue 51)", async () => {
    for (const name of ["codex", "gemini", "opencode", "qwen", "claude"]) {
      const run = await cli(["env", name, ...base]);
      expect(run.code).toBe(0);
      for (const line of run.out.replace(/\n$/, "").split("\n")) expect([name, line]).toEqual([name, expect.stringMatching(/^[A-Z][A-Z0-9_]*=/)]);
      expect(run.out).not.toContain("#");
    }
    const codex = await cli(["env", "codex", ...base]);
    expect(codex.err).toContain("# ~/.codex/config.toml (write it with --write DIR):");
  });

  it("--format dotenv writes a .env file's lines; --format json is --json; a bad format exits 2", async () => {
    const dotenv = await cli(["env", "opencode", ...base, "--format", "dotenv"]);
    expect(dotenv.code).toBe(0);
    const lines = dotenv.out.replace(/\n$/, "").split("\n");
    expect(lines).toContain(`OPENCODE_DISABLE_AUTOUPDATE="1"`);
    const content = lines.find((l) => l.startsWith("OPENCODE_CONFIG_CONTENT="));
    expect(JSON.parse(JSON.parse(content!.slice("OPENCODE_CONFIG_CONTENT=".length).replace(/\\\$/g, "$")))).toEqual(
      JSON.parse(parseEnv((await cli(["env", "opencode", ...base])).out).OPENCODE_CONFIG_CONTENT ?? ""),
    );
    expect((await cli(["env", "codex", ...base, "--format", "json"])).out).toBe((await cli(["env", "codex", ...base, "--json"])).out);
    expect(await cli(["env", "codex", ...base, "--format", "yaml"])).toMatchObject({ code: 2, err: expect.stringContaining('--format must be env, dotenv or json, got "yaml"') });
  });

  it("bad usage exits 2 with the reason", async () => {
    expect(await cli(["env", "cursor", ...base])).toMatchObject({ code: 2, err: expect.stringContaining('unknown CLI "cursor": one of codex, gemini, opencode, qwen, claude') });
    expect(await cli(["env", "codex", "--url", URL])).toMatchObject({ code: 2, err: expect.stringContaining("missing --scenario") });
    expect(await cli(["env", "codex", ...base.slice(0, 4), "--session", "Bad Name"])).toMatchObject({ code: 2, err: expect.stringContaining('invalid session name "Bad Name"') });
    expect(await cli(["env", "codex", "--scenario", "x"])).toMatchObject({ code: 2, err: expect.stringContaining("no server URL") });
  });
});

describe("mock.envFor and agentEnv", () => {
  let mock: MockLLM;
  beforeAll(async () => {
    mock = await startMockLLM();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("gives what `mockllm env` prints, for the running mock, and writes the files with `write`", async () => {
    const home = join(dir, "envfor");
    const result = await mock.envFor("codex", { scenario: "fix-bug", session: "t1", write: home });
    expect(result.env.CODEX_HOME).toBe(join(home, ".codex"));
    expect(result.env.OPENAI_BASE_URL).toBe(`${mock.url}/s/fix-bug/t1/v1`);
    expect(await readFile(join(home, ".codex/config.toml"), "utf8")).toBe(result.files[0]?.content);
    const printed = await cli(["env", "codex", "--url", mock.url, "--scenario", "fix-bug", "--session", "t1", "--json"]);
    expect(JSON.parse(printed.out)).toEqual(await mock.envFor("codex", { scenario: "fix-bug", session: "t1" }));
  });

  it("checks names as the base URLs do; the session defaults to default", async () => {
    await expect(mock.envFor("gemini", { scenario: "fix-bug", session: "v1" })).rejects.toThrow('session name "v1" is reserved');
    expect((await mock.envFor("gemini", { scenario: "fix-bug" })).env.GOOGLE_GEMINI_BASE_URL).toBe(`${mock.url}/s/fix-bug/default`);
    expect(agentEnv("claude", { url: `${URL}/`, scenario: "a", session: "b" }).env.ANTHROPIC_BASE_URL).toBe(`${URL}/s/a/b`);
  });
});
