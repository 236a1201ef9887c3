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

/** The `mockllm env` text: `KEY=value` lines, then each file not written as `#` comment lines. */
export function formatAgentEnv(result: AgentEnv, written: boolean): string {
  const lines = Object.entries(result.env).map(([k, v]) => envLine(k, v));
  if (!written) {
    for (const file of result.files) {
      lines.push(
        "",
        `# ~/${file.path} (write it with --write DIR):`,
        ...file.content
          .replace(/\n$/, "")
          .split("\n")
          .map((l) => `#   ${l}`),
      );
    }
  }
  return lines.join("\n");
}
