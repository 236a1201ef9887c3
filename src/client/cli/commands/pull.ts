import { mkdir, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { adminFrom, SERVER_HELP, SERVER_OPTIONS, stringOption, type Command } from "../command";
import { EXIT } from "../io";

export const pull: Command = {
  name: "pull",
  summary: "download scenarios as JSON files",
  help: `Usage: mockllm pull [name...] [--out <dir>] [--url <url>] [--token <token>]

Writes each scenario (all of them without names) to <dir>/<name>.json, exactly as stored.

Options:
  --out <dir>      where to write (default: the current directory)
${SERVER_HELP}

Example:
  mockllm pull weather-agent --out scenarios/`,
  options: { ...SERVER_OPTIONS, out: { type: "string" } },
  async run(values, positionals, io) {
    const admin = adminFrom(values, io);
    const outDir = resolve(io.cwd, stringOption(values.out) ?? ".");
    const known = await admin.list();
    const names = positionals.length > 0 ? [...new Set(positionals)] : known.map((s) => s.name);
    const missing = names.filter((n) => !known.some((s) => s.name === n));
    if (missing.length > 0) {
      io.stderr(`no such scenario on ${admin.url}: ${missing.join(", ")}`);
      return EXIT.failed;
    }
    await mkdir(outDir, { recursive: true });
    for (const name of names) {
      const doc = await admin.get(name);
      const file = join(outDir, `${name}.json`);
      await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
      io.stdout(`wrote ${relative(io.cwd, file) || file}`);
    }
    io.stdout(`pulled ${names.length} scenario${names.length === 1 ? "" : "s"} from ${admin.url}`);
    return EXIT.ok;
  },
};
