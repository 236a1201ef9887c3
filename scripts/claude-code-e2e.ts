/**
 * End to end: the real Claude Code CLI through a scripted Bash tool loop against a local mockllm.
 * Not part of `npm test` (it downloads the CLI from the npm registry):
 *   npm run test:claude-code                       # latest @anthropic-ai/claude-code
 *   CLAUDE_CODE_VERSION=2.1.112 npm run test:claude-code
 * Exits 0 when the CLI completes with the scripted answer and the journal shows both steps used.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startMockLLM } from "../src/client/index";

const run = promisify(execFile);
const VERSION = process.env.CLAUDE_CODE_VERSION ?? "latest";
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

/**
 * Starts mockllm and returns its origin and a stop function. The one place that knows how the mock runs:
 * today the Worker through wrangler (the test helper); swap in `mockllm serve` here when it exists.
 */
async function startMock(): Promise<{ url: string; journal: () => Promise<Array<Record<string, unknown>>>; stop: () => Promise<void> }> {
  const mock = await startMockLLM({ scenarios: [SCENARIO] });
  return {
    url: mock.url,
    journal: async () => (await mock.admin.journal(SCENARIO.name, "cc")) as unknown as Array<Record<string, unknown>>,
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
  const child = run(claude, ["-p", "Run the echo command with Bash and tell me what it printed.", "--allowedTools", "Bash"], {
    cwd: dir,
    encoding: "utf8",
    timeout: 120_000,
    // A clean environment: no real key or config of the machine reaches the CLI. (The cast: this repo's Worker
    // types add the Worker's variables to ProcessEnv.)
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, ".claude"),
      ANTHROPIC_BASE_URL: `${mock.url}/s/${SCENARIO.name}/cc`,
      ANTHROPIC_API_KEY: "sk-ant-mockllm-dummy",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    } as unknown as NodeJS.ProcessEnv,
  });
  child.child.stdin?.end(); // -p reads stdin too: give it none at once
  const result = await child.catch((e: { stdout?: string; stderr?: string; message: string }) =>
    fail(`claude exited with an error: ${e.message}\nstdout: ${e.stdout ?? ""}\nstderr: ${e.stderr ?? ""}`),
  );
  console.log(`claude stdout: ${result.stdout.trim()}`);
  const journal = await mock.journal();
  const rows = journal.map((j) => `${String(j.seq)} ${String(j.step)} ${String(j.outcome)} ${String(j.status)}`);
  console.log(`journal:\n  ${rows.join("\n  ")}`);
  const used = (id: string) => journal.some((j) => j.step === id && j.outcome === "response" && j.status === 200);
  if (!used("bash") || !used("final")) fail("the journal does not show both scripted steps answered with 200");
  if (journal.some((j) => Number(j.status) >= 400)) fail("a request got an error status");
  if (!result.stdout.includes(MARKER)) fail(`the CLI's answer does not mention ${MARKER}`);
  console.log("claude-code-e2e: PASS");
} finally {
  await mock.stop();
  await rm(dir, { recursive: true, force: true });
}
