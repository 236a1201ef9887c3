/** The shape every CLI command has, and the options the server commands share. */
import type { ParseArgsOptionsConfig } from "node:util";
import { NAME_PATTERN, NAMES_MATCH } from "../../scenario/names";
import type { AdminClient } from "../admin/client";
import { UsageError, type CliIO } from "./io";

export type OptionValues = Record<string, string | boolean | string[] | boolean[] | undefined>;

export interface Command {
  name: string;
  /** One line for `mockllm --help`. */
  summary: string;
  /** The whole `mockllm <command> --help` text. */
  help: string;
  options: ParseArgsOptionsConfig;
  run(values: OptionValues, positionals: string[], io: CliIO): Promise<number>;
}

export const SERVER_OPTIONS = {
  url: { type: "string" },
  token: { type: "string" },
} as const satisfies ParseArgsOptionsConfig;

export const SERVER_HELP = `  --url <url>      server URL (default: $MOCKLLM_URL)
  --token <token>  admin token (default: $MOCKLLM_ADMIN_TOKEN)`;

/**
 * The admin client for `--url`/`--token`, falling back to MOCKLLM_URL / MOCKLLM_ADMIN_TOKEN. Loaded here, with zod
 * (which checks its answers), not with the CLI: `mockllm serve` starts without either.
 * @example const admin = await adminFrom(values, io)
 */
export async function adminFrom(values: OptionValues, io: CliIO): Promise<AdminClient> {
  const url = stringOption(values.url) ?? io.env.MOCKLLM_URL;
  const token = stringOption(values.token) ?? io.env.MOCKLLM_ADMIN_TOKEN;
  if (url === undefined || url === "") throw new UsageError("no server URL: pass --url or set MOCKLLM_URL");
  if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--url must be an http(s) URL, got "${url}"`);
  if (token === undefined || token === "") {
    throw new UsageError("no admin token: pass --token or set MOCKLLM_ADMIN_TOKEN");
  }
  const { AdminClient } = await import("../admin/client");
  return new AdminClient({ url, token, ...(io.fetch ? { fetch: io.fetch } : {}) });
}

export function stringOption(value: OptionValues[string]): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** `<scenario> [session]` positionals of `journal` and `reset`. */
export function sessionArgs(positionals: string[]): { scenario: string; session: string } {
  const [scenario, session = "default", ...rest] = positionals;
  if (scenario === undefined) throw new UsageError("missing <scenario>");
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0] ?? ""}"`);
  for (const [kind, name] of [
    ["scenario", scenario],
    ["session", session],
  ] as const) {
    if (!NAME_PATTERN.test(name)) throw new UsageError(`invalid ${kind} name "${name}": ${NAMES_MATCH}`);
  }
  return { scenario, session };
}
