import type { JournalEntry } from "../../admin/types";
import { adminFrom, SERVER_HELP, SERVER_OPTIONS, sessionArgs, type Command } from "../command";
import { EXIT, table } from "../io";

export const journal: Command = {
  name: "journal",
  summary: "show a session's request journal",
  help: `Usage: mockllm journal <scenario> [session] [--json] [--url <url>] [--token <token>]

Shows every request the session answered, oldest first: which step answered, the outcome
(response, failure, mismatch) and, for mismatches, why and which step came nearest ("nearest: <id>";
it did not run). The session defaults to "default".

Options:
  --json           print the journal as JSON (requests included)
${SERVER_HELP}

Example:
  mockllm journal weather-agent run-42`,
  options: { ...SERVER_OPTIONS, json: { type: "boolean" } },
  async run(values, positionals, io) {
    const { scenario, session } = sessionArgs(positionals);
    const entries = await (await adminFrom(values, io)).journal(scenario, session);
    if (values.json === true) {
      io.stdout(JSON.stringify(entries, null, 2));
      return EXIT.ok;
    }
    if (entries.length === 0) {
      io.stdout(`no requests in ${scenario}/${session}`);
      return EXIT.ok;
    }
    const header = ["SEQ", "AT", "PROVIDER", "ENDPOINT", "STREAM", "TURN", "STEP", "OUTCOME", "STATUS", "REASONS"];
    io.stdout(table([header, ...entries.map(row)]));
    return EXIT.ok;
  },
};

function row(e: JournalEntry): string[] {
  return [
    String(e.seq),
    e.at,
    e.provider,
    e.endpoint,
    e.stream ? "yes" : "no",
    e.surface === "mcp" ? "-" : String(e.turn),
    // A mismatch's step is the one that came nearest to matching, not one that ran (the inspector says the same).
    e.step == null ? "-" : e.outcome === "mismatch" ? `nearest: ${e.step}` : e.step,
    // A chaos entry names the fault it drew: `chaos:rate_limit`.
    e.outcome === "chaos" && e.chaos !== undefined ? `chaos:${e.chaos.kind}` : e.outcome,
    String(e.status),
    e.reasons.join("; "),
  ];
}
