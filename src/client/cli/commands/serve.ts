import { randomBytes } from "node:crypto";
import { delimiter } from "node:path";
import { stringOption, type Command } from "../command";
import { readyBanner } from "../banner";
import { UPSTREAM_PROVIDERS } from "../upstreams";
import { persistedSessionLines } from "../persisted-links";
import { EXIT, UsageError } from "../io";
import { loadNodeRuntime } from "../../node-runtime";

/** Worker variables `serve` reads from its environment, under the same names. */
const VAR_NAMES = [
  "DEFAULT_WORDS_PER_SECOND",
  "DEFAULT_RESPONDER",
  "REQUEST_LOG",
  "ANONYMOUS",
  "SESSION_TTL",
  "CORS_ORIGINS",
  "EPHEMERAL_KEY_SECRET",
  "BATCH_LINES_PER_READ",
  "MCP_ALLOWED_HOSTS",
  "MCP_TIMEOUT_MS",
  "WEBHOOK_ALLOWED_HOSTS",
  "WEBHOOK_RETRY_MS",
  "CHAOS",
  "USAGE",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_SERVICE_NAME",
  "OTEL_EXPORTER_OTLP_TIMEOUT",
  "OTEL_BSP_MAX_QUEUE_SIZE",
  "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
  "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
] as const;

export const serve: Command = {
  name: "serve",
  summary: "run mockllm locally on Node (no wrangler, no workerd)",
  help: `Usage: mockllm serve [--port <n>] [--host <host>] [--admin-token <token>] [--scenarios <path>]...
                     [--persist <dir> | --keep-on-exit <dir>] [--no-default-responder] [--log-requests]
                     [--anonymous allow|deny] [--cors-origins <list>] [--chaos <spec>] [--usage fixed|count]
                     [--record --upstream <provider=URL>...]

Runs the mock on this machine's Node (20 or newer): every provider route, the admin API and the
inspector, as the hosted Worker serves them. Prints the base URLs, the admin token and the inspector
link (signed in: the token rides in the URL fragment, which the browser never sends) when ready;
Ctrl-C ends open streams and exits.

Options:
  --port <n>               port (default 8787; 0 picks a free one)
  --host <host>            interface to listen on (default 127.0.0.1)
  --admin-token <token>    admin bearer token (default: $MOCKLLM_ADMIN_TOKEN, else a new random one)
  --scenarios <path>       a scenario file or a directory of *.json, loaded at start and reloaded when
                           changed; repeatable (default: $MOCKLLM_SCENARIOS, paths joined by "${delimiter}")
  --persist <dir>          keep uploads, sessions, journals, stored responses, files, batches, vector
                           stores and webhooks in <dir> across restarts (default: memory only); at
                           start, prints each session it holds with its inspector link
  --keep-on-exit <dir>     write what --persist writes to <dir>, without reading what it holds at
                           start: the run's sessions and journals, for "serve --persist <dir>" to show
                           in the inspector afterwards
  --no-default-responder   requests no scenario selects get a 404 listing the scenarios that could
                           have matched (DEFAULT_RESPONDER=off)
  --log-requests           one JSON line per request on stderr: scenario, session, step, outcome,
                           status, ms (REQUEST_LOG=json)
  --anonymous allow|deny   deny: provider requests without a namespace key (mk_…) get 401
                           (ANONYMOUS; default allow)
  --cors-origins <list>    origins a browser page may call from: a comma list
                           (https://app.example.com,http://localhost:5173,https://*.pages.dev) or *
                           (CORS_ORIGINS; default *). Preflights from other origins answer 403
  --chaos <spec>           seeded faults for the default responder (CHAOS), e.g.
                           seed=42,rate=0.1,kinds=rate_limit+overloaded: each request of a session draws
                           from a generator seeded by (seed, session, request number); see docs/guide/chaos.md
  --usage fixed|count     count: the default responder's usage counted with the model's tokenizer on
                           OpenAI and Azure (USAGE; default fixed); see docs/reference/usage.md
  --record                 recording proxy: requests no other scenario selects go to scenario
                           "recording" (session "default", or the one /s/recording/{session}/… or
                           x-mock-session names), are forwarded to --upstream and recorded; read the
                           recording at GET /admin/sessions/recording/{session}/recording
  --upstream <p=URL>       with --record: the upstream for provider p, e.g. openai=https://api.openai.com;
                           repeatable; p is one of ${UPSTREAM_PROVIDERS}

Environment: DEFAULT_WORDS_PER_SECOND, DEFAULT_RESPONDER, REQUEST_LOG, ANONYMOUS, CORS_ORIGINS, CHAOS, USAGE,
OTEL_EXPORTER_OTLP_ENDPOINT (with OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_SERVICE_NAME,
OTEL_EXPORTER_OTLP_TIMEOUT, OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE and their OTEL_EXPORTER_OTLP_TRACES_*
forms: one OTLP/HTTP span per call; docs/reference/telemetry.md), SESSION_TTL (seconds a session may stay idle before it is deleted; default 604800) and
BATCH_LINES_PER_READ (most batch lines one read of a batch runs; default 1000), MCP_ALLOWED_HOSTS (hosts a
remote MCP call may reach, comma list; default the request's own host), MCP_TIMEOUT_MS (bound on each remote MCP
call; default 10000), WEBHOOK_ALLOWED_HOSTS (hosts a webhook endpoint may name, comma list or *; default loopback and
the request's own host) and WEBHOOK_RETRY_MS (a webhook delivery not taken is tried again after 1, 2, 4 and 8 of these;
default 1000) as in wrangler.toml.

Example:
  mockllm serve --port 8787 --scenarios scenarios/`,
  options: {
    port: { type: "string" },
    host: { type: "string" },
    "admin-token": { type: "string" },
    scenarios: { type: "string", multiple: true },
    persist: { type: "string" },
    "keep-on-exit": { type: "string" },
    "no-default-responder": { type: "boolean" },
    "log-requests": { type: "boolean" },
    anonymous: { type: "string" },
    "cors-origins": { type: "string" },
    chaos: { type: "string" },
    usage: { type: "string" },
    record: { type: "boolean" },
    upstream: { type: "string", multiple: true },
  },
  async run(values, positionals, io) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const portText = stringOption(values.port) ?? "8787";
    const port = Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0–65535, got "${portText}"`);
    const fromEnv = io.env.MOCKLLM_SCENARIOS?.split(delimiter).filter((p) => p !== "") ?? [];
    const scenarios = Array.isArray(values.scenarios) ? (values.scenarios as string[]) : fromEnv;
    const adminToken = stringOption(values["admin-token"]) ?? (io.env.MOCKLLM_ADMIN_TOKEN || `mockllm-${randomBytes(12).toString("hex")}`);
    const vars: Record<string, string | undefined> = Object.fromEntries(VAR_NAMES.map((n) => [n, io.env[n]]));
    if (values["no-default-responder"] === true) vars.DEFAULT_RESPONDER = "off";
    if (values["log-requests"] === true) vars.REQUEST_LOG = "json";
    const anonymous = stringOption(values.anonymous);
    if (anonymous !== undefined && anonymous !== "allow" && anonymous !== "deny") throw new UsageError(`--anonymous must be allow or deny, got "${anonymous}"`);
    if (anonymous !== undefined) vars.ANONYMOUS = anonymous;
    const corsOrigins = stringOption(values["cors-origins"]);
    if (corsOrigins !== undefined) vars.CORS_ORIGINS = corsOrigins;
    const chaos = stringOption(values.chaos) ?? vars.CHAOS;
    if (chaos !== undefined && chaos.trim() !== "") {
      // Loaded here (zod with it), not with the CLI: a serve without --chaos starts without it.
      const { parseChaosSpec } = await import("../../../scenario/chaos");
      const parsed = parseChaosSpec(chaos);
      if (!parsed.ok) throw new UsageError(`--chaos: ${parsed.error}`);
      vars.CHAOS = chaos;
    }
    const usage = stringOption(values.usage);
    if (usage !== undefined && usage !== "fixed" && usage !== "count") throw new UsageError(`--usage must be fixed or count, got "${usage}"`);
    if (usage !== undefined) vars.USAGE = usage;
    const persist = stringOption(values.persist);
    const keepOnExit = stringOption(values["keep-on-exit"]);
    if (persist !== undefined && keepOnExit !== undefined) throw new UsageError("--persist and --keep-on-exit exclude each other");

    const { startServer, parseUpstreams } = await loadNodeRuntime();
    const flags = Array.isArray(values.upstream) ? (values.upstream as string[]) : [];
    if (values.record === true && flags.length === 0) throw new UsageError("--record needs at least one --upstream provider=URL");
    if (values.record !== true && flags.length > 0) throw new UsageError("--upstream is for --record");
    let upstream: Record<string, string> = {};
    try {
      upstream = parseUpstreams(flags);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const server = await startServer({
      ...(values.record === true ? { record: { upstream } } : {}),
      port,
      host: stringOption(values.host) ?? "127.0.0.1",
      adminToken,
      scenarios,
      ...(persist !== undefined ? { persist } : {}),
      ...(keepOnExit !== undefined ? { keepOnExit } : {}),
      vars,
      log: (line) => io.stderr(line),
    }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE") throw new UsageError(`port ${port} is in use: pick another with --port (0 = any free port)`);
      throw err;
    });
    for (const p of server.problems) io.stderr(`mockllm: invalid scenario file (not loaded): ${p}`);
    io.stdout(readyBanner(server.url, adminToken, "Node runtime"));
    if (persist !== undefined) {
      const lines = await persistedSessionLines(server.url, adminToken, persist).catch((e: Error) => [`mockllm: could not list the kept sessions: ${e.message}`]);
      if (lines.length > 0) io.stdout(lines.join("\n"));
    }

    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      io.signal?.addEventListener("abort", stop, { once: true });
    });
    await server.close();
    io.stderr("mockllm: stopped");
    return EXIT.ok;
  },
};
