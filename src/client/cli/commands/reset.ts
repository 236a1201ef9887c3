import { adminFrom, SERVER_HELP, SERVER_OPTIONS, sessionArgs, type Command } from "../command";
import { EXIT } from "../io";

export const reset: Command = {
  name: "reset",
  summary: "reset a session's steps, attempts and journal",
  help: `Usage: mockllm reset <scenario> [session] [--url <url>] [--token <token>]

Forgets which steps the session used, its attempt counters and its journal; the next
request picks up the newest scenario version. The session defaults to "default".

Options:
${SERVER_HELP}

Example:
  mockllm reset weather-agent run-42`,
  options: SERVER_OPTIONS,
  async run(values, positionals, io) {
    const { scenario, session } = sessionArgs(positionals);
    await (await adminFrom(values, io)).reset(scenario, session);
    io.stdout(`reset ${scenario}/${session}`);
    return EXIT.ok;
  },
};
