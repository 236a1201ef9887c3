/**
 * End to end: the agent CLIs people run — Codex, Gemini CLI, opencode, Qwen Code, Claude Code — each through a
 * scripted shell-tool loop to a final answer against a local mockllm, pointed at it by `mock.envFor()` (what
 * `mockllm env` prints), with `sideCalls` answering each CLI's housekeeping calls. Not part of `npm test` (it installs
 * the pinned CLIs from the npm registry into .cache/agent-clis, outside node_modules):
 *   npm run test:agent-clis                    # every CLI
 *   npm run test:agent-clis -- gemini codex    # some of them
 *   npm run test:agent-clis -- --failure=overloaded   # the retry case with an overloaded error (529/503) instead
 * Per CLI: the loop over each transport it has (Codex 0.169 also the Responses WebSocket; Codex 0.94 on its Chat
 * Completions wire, installed into .cache/agent-clis/codex-0.94), and a 429 with retry-after
 * followed by success; for Codex also compaction (agent-clis-compaction.ts): 0.169 over HTTP and the WebSocket (its
 * `compaction_trigger`), 0.94 on the Responses wire (`/v1/responses/compact`). Prints PASS/FAIL per case and exits 1
 * when any case failed.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { checkCompaction, COMPACTION_ARGS, compactionScenario, type CompactionCall, type JournalEntry } from "./agent-clis-compaction";
import { scenario, shellTool, startMockLLM, type AgentCli, type MockLLM, type ScenarioBuilder, type ShellCli } from "../src/client/index";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CACHE = join(ROOT, ".cache", "agent-clis");
const MARKER = "mock-e2e-ok";
const PROMPT = "Run the echo command in the shell and tell me what it printed.";

/** The versions this script proves; README's test table names them. */
export const PINNED = {
  "@openai/codex": "0.171.0",
  "@google/gemini-cli": "0.61.0",
  "opencode-ai": "1.18.33",
  "@qwen-code/qwen-code": "0.24.4",
  "@anthropic-ai/claude-code": "2.1.332",
} as const;
/** Codex 0.94 for its Chat Completions wire, in its own folder beside the others. */
const CODEX_CHAT = { pkg: "@openai/codex", version: "0.94.0", dir: join(CACHE, "codex-0.94") } as const;

interface CliSpec {
  cli: AgentCli;
  /** Scenario name suffix and install folder when not the main one (Codex 0.94). */
  variant?: { name: string; dir: string; wire: "chat" | "responses" };
  /** Measured: the CLI does not retry a 429 but exits with this error (Codex 0.94's chat wire; a 503 it retries). */
  givesUp429?: string;
  shell: ShellCli;
  bin: string;
  /** The command line that runs one prompt non-interactively with tools allowed. */
  args(prompt: string): string[];
  /** Extra arguments of the shell tool call besides the command. */
  shellArgs?: Record<string, unknown>;
  transports: ("http" | "websocket")[];
}

const CLIS: CliSpec[] = [
  {
    cli: "codex",
    shell: "codex",
    bin: "codex",
    args: (p) => ["exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", p],
    transports: ["http", "websocket"],
  },
  {
    cli: "codex",
    variant: { name: "codex-0.94", dir: CODEX_CHAT.dir, wire: "chat" },
    givesUp429: "exceeded retry limit, last status: 429",
    shell: "codex-0.94",
    bin: "codex",
    args: (p) => ["exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", p],
    transports: ["http"],
  },
  { cli: "gemini", shell: "gemini", bin: "gemini", args: (p) => ["-p", p, "--yolo"], transports: ["http"] },
  { cli: "opencode", shell: "opencode", bin: "opencode", args: (p) => ["run", "--dangerously-skip-permissions", p], shellArgs: { description: "Print the marker" }, transports: ["http"] },
  { cli: "qwen", shell: "qwen", bin: "qwen", args: (p) => ["-p", p, "--yolo"], transports: ["http"] },
  {
    cli: "claude",
    shell: "claude",
    bin: "claude",
    args: (p) => ["-p", p, "--allowedTools", "Bash"],
    shellArgs: { description: "Print the marker" },
    transports: ["http"],
  },
];

const PRESETS = ["gemini", "opencode", "qwen", "claude"] as const;

/** The shell loop: run `echo MARKER`, then answer with what it printed. Side calls of every CLI answered. */
function loopScenario(spec: CliSpec): ScenarioBuilder {
  return scenario(`e2e-${label(spec)}`)
    .sideCalls(...PRESETS)
    .step("run", (s) => s.match({ tools: [shellTool(spec.shell)] }).shell(`echo ${MARKER}`, { cli: spec.shell, ...(spec.shellArgs ? { args: spec.shellArgs } : {}) }))
    .step("final", (s) => s.matchShellResult({ cli: spec.shell, output: { contains: MARKER } }).text(`The command printed ${MARKER}.`));
}

const FAILURE = process.argv.find((a) => a.startsWith("--failure="))?.slice("--failure=".length) === "overloaded" ? "overloaded" : "rate_limit";

/** A 429 (or with --failure=overloaded: the provider's overloaded status) with retry-after (1 s), then the answer. */
function retryScenario(spec: CliSpec): ScenarioBuilder {
  return scenario(`e2e-${label(spec)}-retry`)
    .sideCalls(...PRESETS)
    .step("answer", (s) => s.fail(FAILURE, { retryAfterMs: 1000 }).text(`Answered after a retry: ${MARKER}.`));
}

type Journal = JournalEntry[];

function label(spec: CliSpec): string {
  return spec.variant?.name ?? spec.cli;
}

interface Result {
  name: string;
  ok: boolean;
  ms: number;
  detail: string;
}

async function install(): Promise<void> {
  const missing = Object.entries(PINNED).filter(([pkg, version]) => {
    const file = join(CACHE, "node_modules", pkg, "package.json");
    return !existsSync(file) || (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version !== version;
  });
  if (missing.length > 0) {
    await mkdir(CACHE, { recursive: true });
    const specs = missing.map(([pkg, version]) => `${pkg}@${version}`);
    console.log(`installing ${specs.join(" ")} into ${CACHE} …`);
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefix", CACHE, ...specs], { timeout: 900_000 });
  }
  const chat = join(CODEX_CHAT.dir, "node_modules", CODEX_CHAT.pkg, "package.json");
  if (!existsSync(chat) || (JSON.parse(readFileSync(chat, "utf8")) as { version?: string }).version !== CODEX_CHAT.version) {
    await mkdir(CODEX_CHAT.dir, { recursive: true });
    console.log(`installing ${CODEX_CHAT.pkg}@${CODEX_CHAT.version} into ${CODEX_CHAT.dir} …`);
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefix", CODEX_CHAT.dir, `${CODEX_CHAT.pkg}@${CODEX_CHAT.version}`], { timeout: 900_000 });
  }
}

/** Runs the CLI with only PATH and the session's environment; stdin closed at once. */
function runCli(dir: string, bin: string, args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(join(dir, "node_modules", ".bin", bin), args, {
      cwd,
      env: { PATH: process.env.PATH ?? "", TERM: "dumb", ...env } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** How long the CLI waited between a scripted failure and its retry, from the journal's arrival times. */
function retryGap(journal: Journal): string {
  const i = journal.findIndex((j) => j.outcome === "failure");
  const next = journal.slice(i + 1).find((j) => j.outcome !== "side_call");
  return i < 0 || next === undefined ? "" : ` (retried after ${Date.parse(next.at) - Date.parse(journal[i]!.at)} ms)`;
}

async function runCase(
  mock: MockLLM,
  spec: CliSpec,
  name: string,
  scenarioName: string,
  session: string,
  check: (journal: Journal) => string | undefined | Promise<string | undefined>,
  websocket = false,
  expectGiveUp?: string,
): Promise<Result> {
  const dir = await mkdtemp(join(tmpdir(), `mockllm-${spec.cli}-`));
  const started = Date.now();
  try {
    const work = join(dir, "work");
    await mkdir(work);
    const { env } = await mock.envFor(spec.cli, { scenario: scenarioName, session, write: join(dir, "home"), websocket, ...(spec.variant ? { wire: spec.variant.wire } : {}) });
    const out = await runCli(spec.variant?.dir ?? CACHE, spec.bin, spec.args(PROMPT), env, work);
    const journal = (await mock.admin.journal(scenarioName, session)) as unknown as Journal;
    const rows = journal.map((j) => `${j.outcome}:${j.step ?? "-"}:${j.status}`).join(" ") + retryGap(journal);
    const problem =
      expectGiveUp !== undefined
        ? out.code !== 0 && out.stderr.includes(expectGiveUp)
          ? await check(journal)
          : `expected it to give up ("${expectGiveUp}"), exit ${String(out.code)}`
        : out.code !== 0
          ? `exit ${String(out.code)}: ${out.stderr.trim().split("\n").slice(-3).join(" | ")}`
          : !out.stdout.includes(MARKER)
            ? `the answer does not mention ${MARKER}: ${out.stdout.trim().slice(-200)}`
            : await check(journal);
    return { name, ok: problem === undefined, ms: Date.now() - started, detail: problem ?? rows };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const only = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const selected = CLIS.filter((c) => only.length === 0 || only.includes(c.cli) || only.includes(label(c)));
await install();
/** Codex's compaction cases: 0.169 over each transport (compaction_trigger), 0.94 on the Responses wire (compact). */
const COMPACTIONS = selected
  .filter((s) => s.cli === "codex")
  .flatMap((spec) => {
    // 0.94 on the Responses wire (its chat wire has no compaction), with the model whose shell tool it offers.
    const variant = spec.variant === undefined ? undefined : { ...spec.variant, name: "codex-0.94-responses", wire: "responses" as const };
    const cased: CliSpec = {
      ...spec,
      variant,
      args: (p) => [...(variant ? ["-m", "gpt-5.2-codex"] : []), ...spec.args(p).slice(0, -1), ...COMPACTION_ARGS, p],
    };
    const call: CompactionCall = variant ? "compact" : "trigger";
    return spec.transports.map((transport) => ({ spec: cased, transport, call, scenario: `e2e-${label(cased)}-compaction` }));
  });
const mock = await startMockLLM({
  scenarios: [
    ...selected.flatMap((s) => [loopScenario(s), retryScenario(s)]),
    ...[...new Map(COMPACTIONS.map((c) => [c.scenario, c.spec.shell]))].map(([name, shell]) => compactionScenario(name, shell, MARKER, PROMPT)),
  ],
});
const results: Result[] = [];
try {
  for (const spec of selected) {
    const givesUp = FAILURE === "rate_limit" ? spec.givesUp429 : undefined;
    for (const transport of spec.transports) {
      const result = await runCase(
        mock,
        spec,
        `${label(spec)} shell loop (${transport})`,
        `e2e-${label(spec)}`,
        transport,
        async (journal) => {
          const verdict = await mock.admin.verify(`e2e-${label(spec)}`, transport);
          if (!verdict.ok) return verdict.summary;
          if (journal.some((j) => j.status >= 400)) return "a request got an error status";
          const methods = [...new Set(journal.filter((j) => j.outcome !== "side_call").map((j) => j.request.method))];
          if (methods.join() !== (transport === "websocket" ? "WS" : "POST")) return `the turns came over ${methods.join(", ")}`;
          return undefined;
        },
        transport === "websocket",
      );
      results.push(result);
      console.log(`${result.ok ? "PASS" : "FAIL"} ${result.name} (${(result.ms / 1000).toFixed(1)} s): ${result.detail}`);
    }
    const retry = await runCase(
      mock,
      spec,
      `${label(spec)} ${FAILURE === "rate_limit" ? "429" : "overloaded"} + retry-after ${givesUp === undefined ? "then success" : "(gives up, as measured)"}`,
      `e2e-${label(spec)}-retry`,
      "retry",
      (journal) => {
        const steps = journal.filter((j) => j.outcome !== "side_call").map((j) => `${j.outcome}:${j.status}`);
        const first = FAILURE === "rate_limit" ? steps[0] === "failure:429" : steps[0]?.startsWith("failure:") === true;
        if (givesUp !== undefined) return first && steps.length === 1 ? undefined : `journal ${steps.join(" ")}`;
        return first && steps.at(-1) === "response:200" ? undefined : `journal ${steps.join(" ")}`;
      },
      false,
      givesUp,
    );
    results.push(retry);
    console.log(`${retry.ok ? "PASS" : "FAIL"} ${retry.name} (${(retry.ms / 1000).toFixed(1)} s): ${retry.detail}`);
  }
  for (const c of COMPACTIONS) {
    const how = c.call === "compact" ? "/v1/responses/compact" : "compaction_trigger";
    const result = await runCase(
      mock,
      c.spec,
      `${label(c.spec)} compaction (${c.transport}, ${how})`,
      c.scenario,
      c.transport,
      async (journal) => {
        const verdict = await mock.admin.verify(c.scenario, c.transport);
        return verdict.ok ? checkCompaction(journal, c.call, c.transport === "websocket" ? "WS" : "POST", PROMPT) : verdict.summary;
      },
      c.transport === "websocket",
    );
    results.push(result);
    console.log(`${result.ok ? "PASS" : "FAIL"} ${result.name} (${(result.ms / 1000).toFixed(1)} s): ${result.detail}`);
  }
} finally {
  await mock.stop();
}
const failed = results.filter((r) => !r.ok);
console.log(`\nagent-clis-e2e: ${results.length - failed.length}/${results.length} passed${failed.length > 0 ? `; failed: ${failed.map((f) => f.name).join(", ")}` : ""}`);
process.exit(failed.length > 0 ? 1 : 0);
