import type { Coverage } from "../../admin/types";
import { NAME_PATTERN, NAMES_MATCH } from "../../../scenario/names";
import { adminFrom, SERVER_HELP, SERVER_OPTIONS, stringOption, type Command } from "../command";
import { EXIT, UsageError } from "../io";

const FORMATS = ["markdown", "junit", "json"] as const;
type Format = (typeof FORMATS)[number];

export const coverage: Command = {
  name: "coverage",
  summary: "per step of a scenario: sessions that used it, attempts, failures, mismatches",
  help: `Usage: mockllm coverage <scenario> [--format markdown|junit|json] [--url <url>] [--token <token>]

Reports, for each step of the scenario, how many sessions it answered in, its attempts,
the scripted failures it served and the mismatches it was the nearest step for.
  markdown  a table for a CI summary (default), e.g. >> "$GITHUB_STEP_SUMMARY"
  junit     JUnit XML for test reporters: one testcase per step, failing when unused
  json      the server's answer as it is
Exits 0 whatever the coverage (use "mockllm verify" to fail a run).

Options:
  --format <format>  markdown (default), junit or json
${SERVER_HELP}

Example:
  mockllm coverage weather-agent --format markdown >> "$GITHUB_STEP_SUMMARY"`,
  options: { ...SERVER_OPTIONS, format: { type: "string" } },
  async run(values, positionals, io) {
    const [scenario, ...rest] = positionals;
    if (scenario === undefined) throw new UsageError("missing <scenario>");
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0] ?? ""}"`);
    if (!NAME_PATTERN.test(scenario)) throw new UsageError(`invalid scenario name "${scenario}": ${NAMES_MATCH}`);
    const format = stringOption(values.format) ?? "markdown";
    if (!(FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, got "${format}"`);
    }
    const report = await (await adminFrom(values, io)).coverage(scenario);
    io.stdout(render(report, format as Format));
    return EXIT.ok;
  },
};

function render(c: Coverage, format: Format): string {
  if (format === "json") return JSON.stringify(c, null, 2);
  return format === "junit" ? junit(c) : markdown(c);
}

function cell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/**
 * @example markdown(report) // "### mockllm coverage: `weather` …\n\n| | step | matches | …"
 */
export function markdown(c: Coverage): string {
  const used = c.steps.filter((s) => s.sessions > 0).length;
  const rows = c.steps.map((s) => `| ${s.sessions > 0 ? "✅" : "❌"} | \`${cell(s.id)}\` | ${cell(s.match ?? "")} | ${s.sessions} | ${s.attempts} | ${s.failures} | ${s.mismatches} |`);
  return [
    `### mockllm coverage: \`${c.scenario}\` (version ${c.version}, ${c.sessions} session${c.sessions === 1 ? "" : "s"})`,
    "",
    "| | step | matches | sessions | attempts | failures | mismatches |",
    "| --- | --- | --- | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    `${used} of ${c.steps.length} steps used.`,
  ].join("\n");
}

function xml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * @example junit(report) // '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites …'
 */
export function junit(c: Coverage): string {
  const failures = c.steps.filter((s) => s.sessions === 0).length;
  const counts = `tests="${c.steps.length}" failures="${failures}" errors="0"`;
  const cases = c.steps.map((s) => {
    const open = `    <testcase classname="mockllm.${xml(c.scenario)}" name="${xml(s.id)}">`;
    const stats = `sessions ${s.sessions}, attempts ${s.attempts}, failures ${s.failures}, mismatches ${s.mismatches}`;
    const body =
      s.sessions > 0
        ? `      <system-out>${xml(stats)}</system-out>`
        : `      <failure message="${xml(`step "${s.id}" was never used in ${c.sessions} session(s)`)}" type="unused">${xml(`matches ${s.match ?? "?"}; ${stats}`)}</failure>`;
    return [open, body, "    </testcase>"].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mockllm coverage" ${counts}>`,
    `  <testsuite name="${xml(c.scenario)}" ${counts}>`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
  ].join("\n");
}
