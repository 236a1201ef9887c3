import type { Command } from "../command";
import type { LoadedFile } from "../files";
import { EXIT, type CliIO } from "../io";

export const validate: Command = {
  name: "validate",
  summary: "check scenario files against the schema",
  help: `Usage: mockllm validate <file|dir>...

Checks every scenario file (directories: every *.json inside, recursively) against the
scenario schema, offline. Prints each problem with its JSON path; exits 1 if any file is invalid.

Example:
  mockllm validate scenarios/ extra/weather.json`,
  options: {},
  async run(_values, positionals, io) {
    // The scenario schema (zod) loads with the command that reads files, not with the CLI (`mockllm serve` has its own).
    const { collectFiles, loadScenarioFiles } = await import("../files");
    const files = await loadScenarioFiles(await collectFiles(positionals, io.cwd), io.cwd);
    const bad = reportFiles(files, io);
    io.stdout(`${files.length} file${files.length === 1 ? "" : "s"}: ${files.length - bad} valid, ${bad} invalid`);
    return bad === 0 ? EXIT.ok : EXIT.failed;
  },
};

/**
 * Prints `ok`/`FAIL` per file with each issue; returns how many are invalid.
 * @example const bad = reportFiles(files, io)
 */
export function reportFiles(files: readonly LoadedFile[], io: CliIO, onlyFailures = false): number {
  let bad = 0;
  for (const f of files) {
    if (f.result.ok) {
      const n = f.result.scenario.steps.length;
      if (!onlyFailures) io.stdout(`ok    ${f.file}  ${f.result.scenario.name} (${n} step${n === 1 ? "" : "s"})`);
      continue;
    }
    bad++;
    io.stderr(`FAIL  ${f.file}`);
    for (const issue of f.result.issues) io.stderr(`  ${issue.path}: ${issue.message}`);
  }
  return bad;
}
