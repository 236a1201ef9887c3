import { adminFrom, SERVER_HELP, SERVER_OPTIONS, type Command } from "../command";
import { EXIT, table } from "../io";

export const list: Command = {
  name: "list",
  summary: "list the server's scenarios",
  help: `Usage: mockllm list [--json] [--url <url>] [--token <token>]

Lists every scenario the server knows: uploaded (kv), loaded from files (file, with
mockllm serve --scenarios) and bundled.

Options:
  --json           print the server's JSON instead of a table
${SERVER_HELP}`,
  options: { ...SERVER_OPTIONS, json: { type: "boolean" } },
  async run(values, _positionals, io) {
    const scenarios = await (await adminFrom(values, io)).list();
    if (values.json === true) {
      io.stdout(JSON.stringify(scenarios, null, 2));
      return EXIT.ok;
    }
    if (scenarios.length === 0) {
      io.stdout("no scenarios");
      return EXIT.ok;
    }
    const rows = scenarios.map((s) => [s.name, s.version, s.source, s.description ?? ""]);
    io.stdout(table([["NAME", "VERSION", "SOURCE", "DESCRIPTION"], ...rows]));
    return EXIT.ok;
  },
};
