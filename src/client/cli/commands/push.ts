import type { ScenarioInput } from "../../builder/types";
import { MockLLMAdminError } from "../../admin/errors";
import type { ScenarioSummary } from "../../admin/types";
import { adminFrom, SERVER_HELP, SERVER_OPTIONS, type Command } from "../command";
import type { LoadedFile } from "../files";
import { EXIT, table } from "../io";
import { reportFiles } from "./validate";

export const push: Command = {
  name: "push",
  summary: "upload scenario files, all or nothing",
  help: `Usage: mockllm push <file|dir>... [--url <url>] [--token <token>]

Validates the files locally, then uploads them in one bulk request: either all are stored
or none. Shows for each scenario whether it was created, updated or unchanged in KV; a
scenario that was only bundled before is "created … in KV (was bundled)": from now on the
KV copy answers (delete it to get the bundled one back).

Options:
${SERVER_HELP}

Example:
  MOCKLLM_URL=http://127.0.0.1:8787 MOCKLLM_ADMIN_TOKEN=… mockllm push scenarios/`,
  options: SERVER_OPTIONS,
  async run(values, positionals, io) {
    const admin = await adminFrom(values, io);
    const { collectFiles, loadScenarioFiles } = await import("../files"); // with the scenario schema: not at the CLI's start
    const files = await loadScenarioFiles(await collectFiles(positionals, io.cwd), io.cwd);
    const bad = reportFiles(files, io, true);
    if (bad > 0) {
      io.stderr(`nothing pushed: ${bad} invalid file${bad === 1 ? "" : "s"}`);
      return EXIT.failed;
    }
    const before = new Map((await admin.list()).map((s) => [s.name, s]));
    // The documents exactly as written: the server hashes what it receives. They passed the same
    // validation as on the server above, but may be in the seed format, which ScenarioInput doesn't type.
    const results = await admin.uploadMany(files.map((f) => f.raw as ScenarioInput)).catch((err: unknown) => {
      throw err instanceof MockLLMAdminError && err.code === "invalid" ? byFile(err, files) : err;
    });
    const counts = { created: 0, updated: 0, unchanged: 0 };
    const rows = results.map((r) => {
      const row = describeChange(before.get(r.name), r.version);
      counts[row.change]++;
      return [row.change, r.name, row.detail];
    });
    io.stdout(table(rows));
    io.stdout(`pushed ${results.length} scenario${results.length === 1 ? "" : "s"} to ${admin.url}: ` + `${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged`);
    return EXIT.ok;
  },
};

/**
 * What a push did to one name, from the listing taken before it (`GET /admin/scenarios`): nothing in KV before
 * (absent, or only bundled) is a creation; a KV document is updated or unchanged by its content hash.
 */
export function describeChange(before: ScenarioSummary | undefined, version: string): { change: "created" | "updated" | "unchanged"; detail: string } {
  if (before === undefined) return { change: "created", detail: version };
  if (before.source === "bundled") {
    const v = before.version === version ? version : `${before.version} → ${version}`;
    return { change: "created", detail: `${v}  in KV (was bundled)` };
  }
  if (before.version === version) return { change: "unchanged", detail: version };
  return { change: "updated", detail: `${before.version} → ${version}` };
}

/** The server's bulk issues point at `$[i]`; show them against the file that document came from. */
function byFile(err: MockLLMAdminError, files: readonly LoadedFile[]): MockLLMAdminError {
  const issues = err.issues.map((issue) => {
    const m = /^\$\[(\d+)\](.*)$/.exec(issue.path);
    const file = m?.[1] !== undefined ? files[Number(m[1])]?.file : undefined;
    return file !== undefined ? { path: `${file}: $${m?.[2] ?? ""}`, message: issue.message } : issue;
  });
  return new MockLLMAdminError(err.code, err.status, err.request, err.serverMessage, issues);
}
