/** Writes an agent CLI's config files under a home folder and answers its environment (`mockllm env --write`). */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { agentEnv, type AgentCli, type AgentEnv, type AgentEnvOptions } from "./profiles";

/**
 * `agentEnv` with `home` set to `dir` (made absolute), its files written there.
 * @example const { env } = await writeAgentEnv("codex", { url, scenario: "fix", session: "t1" }, "/tmp/codex-home")
 */
export async function writeAgentEnv(cli: AgentCli, options: Omit<AgentEnvOptions, "home">, dir: string): Promise<AgentEnv> {
  const home = resolve(dir);
  const result = agentEnv(cli, { ...options, home });
  await mkdir(home, { recursive: true });
  for (const file of result.files) {
    const path = join(home, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content, { mode: 0o600 });
  }
  return result;
}

/** Shell-safe `KEY=value` (single-quoted when the value has anything a shell would read). */
export function envLine(key: string, value: string): string {
  return /^[\w./:@,+=-]*$/.test(value) ? `${key}=${value}` : `${key}='${value.replace(/'/g, "'\\''")}'`;
}

/** A `.env` line: `KEY="value"`, with backslashes, quotes, `$` and newlines escaped (dotenv's double-quoted form). */
export function dotenvLine(key: string, value: string): string {
  return `${key}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\$/g, "\\$").replace(/\n/g, "\\n")}"`;
}

/**
 * The `mockllm env` stdout: only variables, as shell-quoted `KEY=value` lines (`env`) or a `.env` file's lines
 * (`dotenv`) — what `env $(…)`, `export`, `eval` or a loader takes. Files not written go to stderr
 * (`agentFileNotes`).
 * @example formatAgentEnv(agentEnv("codex", options), "env") // "OPENAI_BASE_URL=http://…\n…"
 */
export function formatAgentEnv(result: AgentEnv, format: "env" | "dotenv"): string {
  return Object.entries(result.env)
    .map(([k, v]) => (format === "dotenv" ? dotenvLine(k, v) : envLine(k, v)))
    .join("\n");
}

/** The config files a CLI reads, not written (no --write), as `#` notes for stderr. */
export function agentFileNotes(result: AgentEnv): string {
  const lines: string[] = [];
  for (const file of result.files) {
    if (lines.length > 0) lines.push("");
    lines.push(
      `# ~/${file.path} (write it with --write DIR):`,
      ...file.content
        .replace(/\n$/, "")
        .split("\n")
        .map((l) => `#   ${l}`),
    );
  }
  return lines.join("\n");
}
