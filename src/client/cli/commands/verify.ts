import { adminFrom, SERVER_HELP, SERVER_OPTIONS, sessionArgs, stringOption, type Command } from "../command";
import { MockLLMAdminError } from "../../admin/errors";
import { EXIT } from "../io";
import { failureLink } from "../../admin/verify";

export const verify: Command = {
  name: "verify",
  summary: "check a session did what its scenario says (exit 1 with what went wrong)",
  help: `Usage: mockllm verify <scenario> [session] [--allow-unused <ids>] [--json] [--url <url>] [--token <token>]

Checks that the session used every step of its scenario, had no mismatch and left no
scripted failure unanswered. Prints "mockllm verify: ok: …" and exits 0, or prints a
summary of what went wrong (unused steps and what they match on, each mismatch with its
reasons, the request's last user message and tool results, pending failures) and exits 1,
with the inspector link to the session on stderr (carrying the token only for a server on
this machine: 127.0.0.1, ::1, localhost). A session no request ever reached fails too
(exit 1): it never ran.
The session defaults to "default".

Options:
  --allow-unused <ids>  comma-separated step ids that may stay unused (optional steps)
  --json                print the whole verify result as JSON (exit code as above)
${SERVER_HELP}

Example:
  mockllm verify weather-agent run-42 --allow-unused small-talk`,
  options: { ...SERVER_OPTIONS, "allow-unused": { type: "string" }, json: { type: "boolean" } },
  async run(values, positionals, io) {
    const { scenario, session } = sessionArgs(positionals);
    const allowUnused = (stringOption(values["allow-unused"]) ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    const admin = adminFrom(values, io);
    const result = await admin.verify(scenario, session, { allowUnused }).catch((err: unknown) => {
      if (!(err instanceof MockLLMAdminError) || err.code !== "session_not_run") throw err;
      return undefined;
    });
    if (result === undefined) {
      io.stderr(`mockllm verify: FAILED: session "${session}" of scenario "${scenario}" never ran: no request reached /s/${scenario}/${session}; is the client pointed at this scenario and session?`);
      return EXIT.failed;
    }
    io.stdout(values.json === true ? JSON.stringify(result, null, 2) : result.summary);
    if (!result.ok) io.stderr(`inspector: ${failureLink(admin, scenario, session)}`);
    return result.ok ? EXIT.ok : EXIT.failed;
  },
};
