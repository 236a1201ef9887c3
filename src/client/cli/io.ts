/** What a CLI command touches of the outside world, so tests can run commands in-process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** `fetch` for the admin client (default: the global one). */
  fetch?: typeof fetch;
  /** Ends long-running commands (`serve`) as SIGINT does; tests use it. */
  signal?: AbortSignal;
}

/** A mistake in how the command was called: printed with a `--help` hint, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Exit codes: 0 success, 1 the work failed (invalid files, server errors), 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/**
 * Left-aligned columns separated by two spaces; the last column is not padded.
 * @example table([["NAME", "VERSION"], ["weather", "3f2a"]])
 */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ")).join("\n");
}
