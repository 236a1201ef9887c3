import { NAME_PATTERN, NAMES_MATCH } from "../../../scenario/names";
import { AGENT_CLIS, agentEnv, isAgentCli, type AgentEnvOptions } from "../../agents/profiles";
import { agentFileNotes, formatAgentEnv, writeAgentEnv } from "../../agents/write";
import { stringOption, type Command } from "../command";
import { EXIT, UsageError } from "../io";

export const env: Command = {
  name: "env",
  summary: "print what an agent CLI needs to talk to a session (Codex, Gemini CLI, opencode, Qwen Code, Claude Code)",
  help: `Usage: mockllm env <${AGENT_CLIS.join("|")}> --url <url> --scenario <s> --session <x>
                   [--key <key>] [--write <dir>] [--websocket] [--wire chat] [--format env|dotenv|json]

Prints the environment that points the CLI at {url}/s/{scenario}/{session}, with telemetry,
update checks and auto-update off. Stdout holds only what a shell or a loader takes (KEY=value
lines, a .env file, or JSON); config files the CLI reads (Codex's config.toml, Gemini CLI's and
Qwen Code's settings.json, opencode's opencode.json) are written under <dir> with --write, <dir>
then being the CLI's HOME/config root — without it they are shown on stderr as notes.

Options:
  --url <url>        the mock's origin (default: $MOCKLLM_URL)
  --scenario <s>     scenario name
  --session <x>      session name (default "default")
  --key <key>        API key the CLI sends; a namespace key (mk_…) selects its namespace
  --write <dir>      write the config files under <dir> and set HOME (and the CLI's own variable) to it
  --websocket        codex: the Responses API over its WebSocket instead of HTTP
  --wire chat        codex: Chat Completions instead of the Responses API (Codex 0.94 and older)
  --format <f>       env: KEY=value lines, shell-quoted (default); dotenv: KEY="value" lines for
                     a .env file; json: {"cli", "env", "files"}
  --json             the same as --format json

Example:
  env $(mockllm env gemini --url http://127.0.0.1:8787 --scenario fix --session t1 --write /tmp/g) \\
    gemini -p "fix the bug" --yolo`,
  options: {
    url: { type: "string" },
    scenario: { type: "string" },
    session: { type: "string" },
    key: { type: "string" },
    write: { type: "string" },
    websocket: { type: "boolean" },
    wire: { type: "string" },
    json: { type: "boolean" },
    format: { type: "string" },
  },
  async run(values, positionals, io) {
    const [cli, ...rest] = positionals;
    if (cli === undefined) throw new UsageError(`missing the CLI: one of ${AGENT_CLIS.join(", ")}`);
    if (!isAgentCli(cli)) throw new UsageError(`unknown CLI "${cli}": one of ${AGENT_CLIS.join(", ")}`);
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0] ?? ""}"`);
    const url = stringOption(values.url) ?? io.env.MOCKLLM_URL;
    if (url === undefined || url === "") throw new UsageError("no server URL: pass --url or set MOCKLLM_URL");
    if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--url must be an http(s) URL, got "${url}"`);
    const scenario = stringOption(values.scenario);
    if (scenario === undefined) throw new UsageError("missing --scenario");
    const session = stringOption(values.session) ?? "default";
    for (const [kind, name] of [
      ["scenario", scenario],
      ["session", session],
    ] as const) {
      if (!NAME_PATTERN.test(name)) throw new UsageError(`invalid ${kind} name "${name}": ${NAMES_MATCH}`);
    }
    const key = stringOption(values.key);
    const wireText = stringOption(values.wire) ?? "responses";
    const wire = wireText === "chat" || wireText === "responses" ? wireText : undefined;
    if (wire === undefined) throw new UsageError(`--wire must be responses or chat, got "${wireText}"`);
    const options: Omit<AgentEnvOptions, "home"> = { url, scenario, session, ...(key !== undefined ? { key } : {}), websocket: values.websocket === true, wire };
    const format = stringOption(values.format) ?? (values.json === true ? "json" : "env");
    if (format !== "env" && format !== "dotenv" && format !== "json") throw new UsageError(`--format must be env, dotenv or json, got "${format}"`);
    if (values.json === true && format !== "json") throw new UsageError(`--json and --format ${format} disagree`);
    const dir = stringOption(values.write);
    const result = dir === undefined ? agentEnv(cli, options) : await writeAgentEnv(cli, options, dir);
    if (format === "json") {
      io.stdout(JSON.stringify(result, null, 2));
      return EXIT.ok;
    }
    io.stdout(formatAgentEnv(result, format));
    if (dir === undefined && result.files.length > 0) io.stderr(agentFileNotes(result));
    return EXIT.ok;
  },
};
