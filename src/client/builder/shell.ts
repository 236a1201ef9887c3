/**
 * The shell tool of each agent CLI, by the names the CLI itself sends (read from each CLI's tool list as it reaches
 * the mock), so one scenario can script "run this command" for any of them.
 */
import type { ToolCallInput } from "./types";

/** Each CLI's shell tool and the argument that carries the command. */
export const SHELL_TOOLS = {
  /** Codex CLI 0.169 (Responses API): `exec_command` with `cmd`. */
  codex: { tool: "exec_command", argument: "cmd" },
  /** Codex CLI 0.94 (its Chat Completions wire): `shell_command` with `command`. */
  "codex-0.94": { tool: "shell_command", argument: "command" },
  /** Gemini CLI 0.61. */
  gemini: { tool: "run_shell_command", argument: "command" },
  /** Qwen Code 0.24 (a Gemini CLI fork: the same tool). */
  qwen: { tool: "run_shell_command", argument: "command" },
  /** opencode 1.18. */
  opencode: { tool: "bash", argument: "command" },
  /** Claude Code. */
  claude: { tool: "Bash", argument: "command" },
} as const satisfies Record<string, { tool: string; argument: string }>;

export type ShellCli = keyof typeof SHELL_TOOLS;

export interface ShellOptions {
  /** Which CLI's tool to call. */
  cli: ShellCli;
  /** More arguments beside the command, e.g. `{ description: "List files" }` (Claude Code, Gemini CLI) or `{ workdir }`. */
  args?: Record<string, unknown>;
  /** The tool call's id (default: generated). */
  id?: string;
}

/**
 * The tool call that has `cli` run `command` in its shell.
 * @example shellCall("ls -la", { cli: "codex" }) // { name: "exec_command", arguments: { cmd: "ls -la" } }
 * @example shellCall("npm test", { cli: "claude", args: { description: "Run the tests" } })
 */
export function shellCall(command: string, options: ShellOptions): ToolCallInput {
  const shell = SHELL_TOOLS[options.cli];
  if (shell === undefined) throw new TypeError(`shell: unknown CLI "${String(options.cli)}": one of ${Object.keys(SHELL_TOOLS).join(", ")}`);
  return {
    ...(options.id !== undefined ? { id: options.id } : {}),
    name: shell.tool,
    arguments: { [shell.argument]: command, ...options.args },
  };
}

/** The name of `cli`'s shell tool, for matchers (`match: { tools: [shellTool("gemini")] }`). */
export function shellTool(cli: ShellCli): string {
  return SHELL_TOOLS[cli].tool;
}
