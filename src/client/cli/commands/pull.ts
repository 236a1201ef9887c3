import { mkdir, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { adminFrom, SERVER_HELP, SERVER_OPTIONS, sessionArgs, stringOption, type Command } from "../command";
import { EXIT } from "../io";

export const pull: Command = {
  name: "pull",
  summary: "download scenarios as JSON files",
  help: `Usage: mockllm pull [name...] [--out <dir>] [--url <url>] [--token <token>]
       mockllm pull --recording <scenario> [session] [--out <dir>] [--url <url>] [--token <token>]

Writes each scenario (all of them without names) to <dir>/<name>.json, exactly as stored.
With --recording, writes a session's recording (the recording proxy's upstream answers) as a
scenario document to <dir>/<scenario>.json (<scenario>-<session>.json for a session other than
"default"), named after its file, ready to replay.

Options:
  --out <dir>      where to write (default: the current directory)
  --recording      pull a session's recording instead of scenarios
${SERVER_HELP}

Examples:
  mockllm pull weather-agent --out scenarios/
  mockllm pull --recording my-run ci-42 --out scenarios/`,
  options: { ...SERVER_OPTIONS, out: { type: "string" }, recording: { type: "boolean" } },
  async run(values, positionals, io) {
    const admin = await adminFrom(values, io);
    const outDir = resolve(io.cwd, stringOption(values.out) ?? ".");
    if (values.recording === true) {
      const { scenario, session } = sessionArgs(positionals);
      const name = session === "default" ? scenario : `${scenario}-${session}`.slice(0, 64);
      const doc = await admin.recording(scenario, session, name);
      await mkdir(outDir, { recursive: true });
      const file = join(outDir, `${name}.json`);
      await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
      const steps = Array.isArray(doc.steps) ? doc.steps.length : 0;
      io.stdout(`wrote ${relative(io.cwd, file) || file} (${steps} recorded step${steps === 1 ? "" : "s"} from ${scenario}/${session})`);
      return EXIT.ok;
    }
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
