import { mkdir, writeFile } from "node:fs/promises";
import { basename, dirname, extname, relative, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { NAME_PATTERN, NAME_RULE } from "../../../scenario/names";
import { loadNodeRuntime } from "../../node-runtime";
import { readyBanner } from "../banner";
import { UPSTREAM_PROVIDERS } from "../upstreams";
import { stringOption, type Command } from "../command";
import { EXIT, UsageError } from "../io";

export const record: Command = {
  name: "record",
  summary: "run a local recording proxy and write what it recorded as a scenario file",
  help: `Usage: mockllm record --upstream <provider=URL>... [--out <file>] [--port <n>] [--host <host>]
                      [--session <name>]

Runs mockllm on this machine as a recording proxy: point your client at the printed base URL, with its
real API key; each request is forwarded to the provider's upstream, streamed back as it arrives, and
recorded frame by frame. On Ctrl-C the recording is written to <file> as a scenario (named after the
file) whose steps replay each answer byte for byte, then the proxy stops.

Options:
  --upstream <p=URL>  upstream for provider p (${UPSTREAM_PROVIDERS}), repeatable; the
                      request path is appended (so https://api.openai.com, not .../v1)
  --out <file>        where to write (default: recording.json); the scenario takes the file's name
  --port <n>          port (default 8787; 0 picks a free one)
  --host <host>       interface to listen on (default 127.0.0.1)
  --session <name>    the session to write (default: default; others are /s/{scenario}/{session}/…)

Example:
  mockllm record --upstream openai=https://api.openai.com --out scenarios/my-run.json`,
  options: {
    upstream: { type: "string", multiple: true },
    out: { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
    session: { type: "string" },
  },
  async run(values, positionals, io) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const flags = Array.isArray(values.upstream) ? (values.upstream as string[]) : [];
    if (flags.length === 0) throw new UsageError("missing --upstream provider=URL");
    const out = resolve(io.cwd, stringOption(values.out) ?? "recording.json");
    const name = basename(out, extname(out));
    if (!NAME_PATTERN.test(name)) throw new UsageError(`the file name "${name}" must be a scenario name: ${NAME_RULE}`);
    const session = stringOption(values.session) ?? "default";
    if (!NAME_PATTERN.test(session)) throw new UsageError(`invalid session name "${session}"`);
    const portText = stringOption(values.port) ?? "8787";
    const port = Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0–65535, got "${portText}"`);

    const { startServer, parseUpstreams } = await loadNodeRuntime();
    let upstream: Record<string, string>;
    try {
      upstream = parseUpstreams(flags);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const adminToken = `mockllm-${randomBytes(12).toString("hex")}`;
    const server = await startServer({
      port,
      host: stringOption(values.host) ?? "127.0.0.1",
      adminToken,
      record: { upstream, scenario: name },
      log: (line) => io.stderr(line),
    }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE") throw new UsageError(`port ${port} is in use: pick another with --port (0 = any free port)`);
      throw err;
    });
    io.stdout(readyBanner(server.url, adminToken, "recording proxy"));
    io.stdout(
      `Recording ${Object.entries(upstream)
        .map(([p, u]) => `${p} → ${u}`)
        .join(", ")} into ${relative(io.cwd, out) || out}; Ctrl-C writes it.`,
    );

    await new Promise<void>((resolveStop) => {
      const stop = () => resolveStop();
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      io.signal?.addEventListener("abort", stop, { once: true });
    });
    try {
      const { AdminClient } = await import("../../admin/client"); // with zod: not loaded by the CLI's start
      const doc = await new AdminClient({ url: server.url, token: adminToken }).recording(name, session, name);
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, `${JSON.stringify(doc, null, 2)}\n`);
      const steps = Array.isArray(doc.steps) ? doc.steps.length : 0;
      io.stdout(`wrote ${relative(io.cwd, out) || out} (${steps} recorded step${steps === 1 ? "" : "s"})`);
    } finally {
      await server.close();
    }
    return EXIT.ok;
  },
};
