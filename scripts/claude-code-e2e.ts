/**
 * End to end: the real Claude Code CLI through a scripted Bash tool loop against a local mockllm.
 * Not part of `npm test` (it downloads the CLI from the npm registry):
 *   npm run test:claude-code                       # latest @anthropic-ai/claude-code
 *   CLAUDE_CODE_VERSION=2.1.112 npm run test:claude-code
 *   npm run test:claude-code -- --mcp              # the tool is an MCP tool served by the same mockllm session
 * Exits 0 when the CLI completes with the scripted answer and the journal shows both steps used (with --mcp: and
 * the MCP call answered, and verify ok).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startMockLLM } from "../src/client/index";

const run = promisify(execFile);
const VERSION = process.env.CLAUDE_CODE_VERSION ?? "latest";
const MCP = process.argv.includes("--mcp");
const MARKER = "mock-e2e-ok";

const SCENARIO = {
  name: "claude-code-e2e",
  description: "Claude Code: one Bash call, then the final answer",
  steps: [
    {
      id: "bash",
      match: { tools: ["Bash"], lastUserMessage: { contains: "Run the echo" } },
      respond: { toolCalls: [{ name: "Bash", arguments: { command: `echo ${MARKER}`, description: "Print the marker" } }] },
    },
    {
      id: "final",
      match: { toolResult: { content: { contains: MARKER } } },
      respond: { text: `The command printed ${MARKER}.` },
    },
    // Side requests the CLI may send (titles, summaries) get a plain answer and never take the scripted steps.
    { id: "side", consume: false, respond: { text: "ok" } },
  ],
};

/** Claude Code names an MCP tool `mcp__{server}__{tool}`. */
const MCP_TOOL = "mcp__weather__get_weather";

/** The MCP variant: the model asks for the weather tool, Claude Code calls it on the session's MCP server. */
const MCP_SCENARIO = {
  name: "claude-code-mcp-e2e",
  description: "Claude Code: one MCP tool call to the session's own MCP server, then the final answer",
  steps: [
    {
      id: "ask",
      match: { tools: [MCP_TOOL], lastUserMessage: { contains: "weather" } },
      respond: { toolCalls: [{ name: MCP_TOOL, arguments: { city: "Paris" } }] },
    },
    {
      id: "final",
      match: { toolResult: { content: { contains: "18C" } } },
      respond: { text: `Paris: 18C and sunny. ${MARKER}` },
    },
    { id: "side", consume: false, respond: { text: "ok" } },
  ],
  mcp: {
    tools: [{ name: "get_weather", description: "Current weather for a city", inputSchema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] } }],
    calls: [{ id: "paris", match: { tool: "get_weather", arguments: { city: "Paris" } }, result: { content: [{ type: "text" as const, text: "18C and sunny in {{args.city}}" }] } }],
  },
};

const ACTIVE = MCP ? MCP_SCENARIO : SCENARIO;

/**
 * Starts mockllm and returns its origin and a stop function. The one place that knows how the mock runs:
 * today the Worker through wrangler (the test helper); swap in `mockllm serve` here when it exists.
 */
async function startMock(): Promise<{
  url: string;
  journal: () => Promise<Array<Record<string, unknown>>>;
  verify: () => Promise<{ ok: boolean; summary: string }>;
  stop: () => Promise<void>;
}> {
  const mock = await startMockLLM({ scenarios: [ACTIVE] });
  return {
    url: mock.url,
    journal: async () => (await mock.admin.journal(ACTIVE.name, "cc")) as unknown as Array<Record<string, unknown>>,
    verify: async () => mock.admin.verify(ACTIVE.name, "cc", { allowUnused: ["side"] }),
    stop: () => mock.stop(),
  };
}

async function installClaudeCode(dir: string): Promise<string> {
  await run("npm", ["install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir, `@anthropic-ai/claude-code@${VERSION}`], {
    timeout: 300_000,
  });
  return join(dir, "node_modules", ".bin", "claude");
}

function fail(message: string): never {
  console.error(`claude-code-e2e: FAIL: ${message}`);
  process.exit(1);
}

const dir = await mkdtemp(join(tmpdir(), "mockllm-claude-code-"));
const mock = await startMock();
try {
  console.log(`installing @anthropic-ai/claude-code@${VERSION} into ${dir} …`);
  const claude = await installClaudeCode(dir);
  const { stdout: version } = await run(claude, ["--version"]);
  console.log(`claude ${version.trim()}; mock at ${mock.url}`);
  const home = join(dir, "home");
  const session = `${mock.url}/s/${ACTIVE.name}/cc`;
  const args = MCP
    ? [
        "-p",
        "What is the weather in Paris? Use the weather tool.",
        "--mcp-config",
        JSON.stringify({ mcpServers: { weather: { type: "http", url: `${session}/mcp` } } }),
        "--strict-mcp-config",
        "--allowedTools",
        MCP_TOOL,
      ]
    : ["-p", "Run the echo command with Bash and tell me what it printed.", "--allowedTools", "Bash"];
  const child = run(claude, args, {
    cwd: dir,
    encoding: "utf8",
    timeout: 120_000,
    // A clean environment: no real key or config of the machine reaches the CLI. (The cast: this repo's Worker
    // types add the Worker's variables to ProcessEnv.)
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, ".claude"),
      ANTHROPIC_BASE_URL: session,
      ANTHROPIC_API_KEY: "sk-ant-mockllm-dummy",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      // MCP tools offered directly (not deferred behind ToolSearch), so the first turn offers the weather tool.
      ...(MCP ? { ENABLE_TOOL_SEARCH: "false" } : {}),
    } as unknown as NodeJS.ProcessEnv,
  });
  child.child.stdin?.end(); // -p reads stdin too: give it none at once
  const result = await child.catch((e: { stdout?: string; stderr?: string; message: string }) =>
    fail(`claude exited with an error: ${e.message}\nstdout: ${e.stdout ?? ""}\nstderr: ${e.stderr ?? ""}`),
  );
  console.log(`claude stdout: ${result.stdout.trim()}`);
  const journal = await mock.journal();
  const rows = journal.map((j) => `${String(j.seq)} ${String(j.surface ?? j.provider)} ${String(j.step)} ${String(j.outcome)} ${String(j.status)}`);
  console.log(`journal:\n  ${rows.join("\n  ")}`);
  const used = (id: string) => journal.some((j) => j.step === id && j.outcome === "response" && j.status === 200);
  if (process.env.E2E_DEBUG === "1")
    console.log(
      JSON.stringify(
        journal.map((j) => j.canonical),
        null,
        1,
      ),
    );
  if (!used(MCP ? "ask" : "bash") || !used("final")) fail("the journal does not show both scripted steps answered with 200");
  if (MCP) {
    if (!journal.some((j) => j.surface === "mcp" && j.step === "paris" && j.outcome === "response")) fail("the journal shows no answered MCP call");
    const verdict = await mock.verify();
    console.log(verdict.summary);
    if (!verdict.ok) fail("verify is not ok");
  }
  if (journal.some((j) => Number(j.status) >= 400)) fail("a request got an error status");
  if (!result.stdout.includes(MARKER)) fail(`the CLI's answer does not mention ${MARKER}`);
  console.log("claude-code-e2e: PASS");
} finally {
  await mock.stop();
  await rm(dir, { recursive: true, force: true });
}
