/**
 * `mockllm`: validate, push and pull scenario files; inspect and reset sessions.
 * `runCli` takes its I/O as a parameter so tests run commands in-process.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { MockLLMAdminError } from "../admin/errors";
import type { Command } from "./command";
import { coverage } from "./commands/coverage";
import { env } from "./commands/env";
import { journal } from "./commands/journal";
import { webhooks } from "./commands/webhooks";
import { call } from "./commands/call";
import { list } from "./commands/list";
import { key, namespace, ns } from "./commands/namespaces";
import { pull } from "./commands/pull";
import { record } from "./commands/record";
import { push } from "./commands/push";
import { reset } from "./commands/reset";
import { serve } from "./commands/serve";
import { validate } from "./commands/validate";
import { verify } from "./commands/verify";
import { EXIT, UsageError, type CliIO } from "./io";

export const COMMANDS: readonly Command[] = [serve, record, validate, push, pull, list, journal, reset, verify, coverage, webhooks, call, ns, namespace, key, env];

export const MAIN_HELP = `Usage: mockllm <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(10)}${c.summary}`).join("\n")}

Server commands take --url and --token, or read MOCKLLM_URL and MOCKLLM_ADMIN_TOKEN.
Run "mockllm <command> --help" for a command's options and an example.`;

/**
 * Runs the CLI and returns its exit code: 0 success, 1 failure, 2 bad usage.
 * @example process.exitCode = await runCli(process.argv.slice(2))
 */
export async function runCli(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    io.stdout(topic?.help ?? MAIN_HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "-v") {
    io.stdout(packageVersion());
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) {
    io.stderr(`mockllm: unknown command "${name}"\n\n${MAIN_HELP}`);
    return EXIT.usage;
  }
  try {
    const { values, positionals } = parseArgs({
      args: [...rest],
      options: { ...command.options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help === true) {
      io.stdout(command.help);
      return EXIT.ok;
    }
    return await command.run(values, positionals, io);
  } catch (err) {
    if (err instanceof UsageError || isParseArgsError(err)) {
      io.stderr(`mockllm ${command.name}: ${(err as Error).message}\nRun "mockllm ${command.name} --help" for usage.`);
      return EXIT.usage;
    }
    if (err instanceof MockLLMAdminError) {
      io.stderr(`mockllm ${command.name}: ${err.message}`);
      return EXIT.failed;
    }
    throw err;
  }
}

function isParseArgsError(err: unknown): err is Error {
  return err instanceof Error && typeof (err as { code?: unknown }).code === "string" && String((err as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS");
}

function processIO(): CliIO {
  return {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
    env: process.env,
    cwd: process.cwd(),
  };
}

function packageVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
  return typeof pkg === "object" && pkg !== null && "version" in pkg ? String(pkg.version) : "unknown";
}
