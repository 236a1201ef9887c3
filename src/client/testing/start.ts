/**
 * Starts mockllm locally for a test suite: a random free port, no persistence, no network, a random admin token,
 * scenarios uploaded before it resolves. By default the Node runtime runs in this process (no wrangler, no workerd);
 * `runtime: "workerd"` runs the Worker under Miniflare instead, as it runs when deployed. `url` + `token` use a
 * server already running instead (nothing started, nothing stopped); `keepOnExit` keeps the run for the inspector.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NAME_PATTERN, NAME_RULE, RESERVED_SESSIONS } from "../../scenario/schema";
import { AdminClient, toDocument, type Uploadable } from "../admin/client";
import type { VerifyResult } from "../admin/types";
import { assertVerified } from "../admin/verify";
import { agentEnv, type AgentCli, type AgentEnv } from "../agents/profiles";
import { writeAgentEnv } from "../agents/write";
import { loadNodeRuntime } from "../node-runtime";
import { randomAdminToken } from "./admin-token";

export interface StartMockLLMOptions {
  /** Scenario documents or builders, uploaded (all or none) before `startMockLLM` resolves. */
  scenarios?: readonly Uploadable[];
  /** Admin token; default: random per instance. */
  adminToken?: string;
  /**
   * Extra Worker variables. `DEFAULT_WORDS_PER_SECOND` defaults to `"0"` here so the default
   * responder answers without pacing delays.
   */
  env?: Record<string, string>;
  /** A Wrangler config to run instead of this package's own `wrangler.toml` (implies `runtime: "workerd"`). */
  config?: string;
  /**
   * `"node"` (default): the Node runtime in this process, started in milliseconds. `"workerd"`: the Worker under
   * Miniflare (needs the optional peer `wrangler`), for suites that must see the Workers runtime itself.
   */
  runtime?: "node" | "workerd";
  /** Scenario files or directories the Node runtime loads at start (as `mockllm serve --scenarios`). */
  scenarioFiles?: readonly string[];
  /**
   * Use the mockllm already running at this URL (`mockllm serve`, a deployment): nothing is started, `scenarios` are
   * uploaded to it, and `stop()` leaves it running. Needs `token`.
   */
  url?: string;
  /** With `url`: its admin token or a namespace `admin` key (`adminToken` is read the same way). */
  token?: string;
  /**
   * Node runtime: when the instance stops (or the process exits), this directory holds what
   * `mockllm serve --persist <dir>` writes — uploads, sessions, journals, stored responses, files and the other stored
   * objects, webhooks — so
   * `mockllm serve --persist <dir>` afterwards shows the run in the inspector. Nothing in it is read at start; files
   * of the same names are replaced.
   */
  keepOnExit?: string;
}

export interface MockLLM extends AsyncDisposable {
  /** Origin of the running Worker, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly adminToken: string;
  /** An admin client already pointed at this instance. */
  readonly admin: AdminClient;
  /**
   * Base URL for the OpenAI SDK: `{url}/s/{scenario}[/{session}]/v1`, or `{url}/v1` without a scenario.
   * @example new OpenAI({ apiKey: "test", baseURL: mock.openaiBaseURL("weather", "t1") })
   */
  openaiBaseURL(scenario?: string, session?: string): string;
  /**
   * Base URL for the Anthropic SDK (which appends `/v1` itself): `{url}/s/{scenario}[/{session}]`.
   * @example new Anthropic({ apiKey: "test", baseURL: mock.anthropicBaseURL("weather") })
   */
  anthropicBaseURL(scenario?: string, session?: string): string;
  /**
   * Throws `MockLLMVerifyError`, whose message says what went wrong, unless the session used every step (but
   * `allowUnused`), had no mismatch and left no scripted failure unanswered.
   * @example await mock.verify("weather", "t1")
   */
  verify(scenario: string, session?: string, options?: { allowUnused?: readonly string[] }): Promise<VerifyResult>;
  /**
   * The inspector page signed in with the admin token (in the URL fragment), opened on a scenario/session.
   * @example console.log(mock.inspectorURL("weather", "t1"))
   */
  inspectorURL(scenario?: string, session?: string): string;
  /**
   * What an agent CLI (Codex, Gemini CLI, opencode, Qwen Code, Claude Code) needs to talk to a session: its
   * environment, and with `write` its config files written under that folder (then its HOME/config root), as
   * `mockllm env` prints them. The session defaults to `"default"`.
   * @example
   * const { env } = await mock.envFor("codex", { scenario: "fix-bug", session: "t1", write: home });
   * execFileSync("codex", ["exec", "--skip-git-repo-check", "fix it"], { env: { PATH: process.env.PATH, ...env } });
   */
  envFor(cli: AgentCli, options: AgentEnvForOptions): Promise<AgentEnv>;
  /** Stops the Worker (not a server given by `url`); safe to call twice. */
  stop(): Promise<void>;
}

export interface AgentEnvForOptions {
  scenario: string;
  session?: string;
  /** The API key the CLI sends (a namespace key `mk_…` selects its namespace). */
  key?: string;
  /** A folder to write the CLI's config files under; the environment then sets HOME (and the CLI's own variable) to it. */
  write?: string;
  /** Codex: the Responses API over its WebSocket. */
  websocket?: boolean;
  /** Codex: `"chat"` for the Chat Completions wire (Codex 0.94 and older); default `"responses"`. */
  wire?: "responses" | "chat";
}

const QUIET_WRANGLER_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
} as const;

/** This package's `wrangler.toml`: three levels up from `{src,dist}/client/testing/`. */
export function defaultWranglerConfig(): string {
  return fileURLToPath(new URL("../../../wrangler.toml", import.meta.url));
}

/**
 * Starts a local mockllm Worker and uploads `scenarios`.
 * @example
 * await using mock = await startMockLLM({ scenarios: [scenario("hi").step((s) => s.text("Hello"))] });
 * const openai = new OpenAI({ apiKey: "test", baseURL: mock.openaiBaseURL("hi") });
 */
export async function startMockLLM(options: StartMockLLMOptions = {}): Promise<MockLLM> {
  const documents = (options.scenarios ?? []).map(toDocument); // invalid builders throw before anything starts
  if (options.url !== undefined) return useRunning(options.url, options, documents);
  if (options.token !== undefined) throw new TypeError("`token` is for a running server given by `url`: use `adminToken` for a started one");
  const adminToken = options.adminToken ?? randomAdminToken();
  for (const [key, value] of Object.entries(QUIET_WRANGLER_ENV)) process.env[key] ??= value;
  const vars = { DEFAULT_WORDS_PER_SECOND: "0", ...options.env };
  const runtime = options.runtime ?? (options.config !== undefined ? "workerd" : "node");
  if (runtime === "node" && options.config !== undefined) throw new TypeError('`config` runs a Worker: use runtime "workerd"');
  if (runtime === "workerd" && options.scenarioFiles !== undefined) {
    throw new TypeError("`scenarioFiles` is for the Node runtime: upload them with `scenarios` under workerd");
  }
  if (runtime === "workerd" && options.keepOnExit !== undefined) throw new TypeError("`keepOnExit` is for the Node runtime");
  let worker: RunningWorker;
  if (runtime === "node") worker = await startNode(vars, adminToken, options.scenarioFiles, options.keepOnExit);
  else {
    const prebuilt = options.config === undefined ? prebuiltWorker() : undefined;
    worker = prebuilt ? await startPrebuilt(prebuilt, vars, adminToken) : await startWithWrangler(options.config, vars, adminToken);
  }
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopped ??= worker.dispose());
  try {
    const url = await worker.url;
    const admin = new AdminClient({ url, token: adminToken });
    // One admin round-trip before resolving: the Worker is then warm and the token known to work.
    if (documents.length > 0) await admin.uploadMany(documents);
    else await admin.list();
    return handle(url, adminToken, admin, stop);
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}

function handle(url: string, adminToken: string, admin: AdminClient, stop: () => Promise<void>): MockLLM {
  return {
    url,
    adminToken,
    admin,
    openaiBaseURL: (scenario, session) => `${prefix(url, scenario, session)}/v1`,
    anthropicBaseURL: (scenario, session) => prefix(url, scenario, session),
    verify: (scenario, session, opts) => assertVerified(admin, scenario, session, opts),
    inspectorURL: (scenario, session) => admin.inspectorURL(scenario, session),
    envFor: (cli, opts) => envFor(url, cli, opts),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** `startMockLLM({ url, token })`: a server already running; nothing to start or stop. */
async function useRunning(url: string, options: StartMockLLMOptions, documents: ReturnType<typeof toDocument>[]): Promise<MockLLM> {
  const starting = (["env", "config", "runtime", "scenarioFiles", "keepOnExit"] as const).filter((k) => options[k] !== undefined);
  if (starting.length > 0) {
    throw new TypeError(`\`${starting.join("`, `")}\` start a server: with \`url\` (a running one) pass only \`token\` and \`scenarios\``);
  }
  const token = options.token ?? options.adminToken;
  if (token === undefined || token === "") throw new TypeError("`url` needs `token`: the running server's admin token or a namespace admin key");
  if (!/^https?:\/\/[^/]/.test(url)) throw new TypeError(`\`url\` must be an http(s) URL, got "${url}"`);
  const admin = new AdminClient({ url, token });
  if (documents.length > 0) await admin.uploadMany(documents);
  else await admin.list(); // the URL answers and the key is accepted before any test relies on it
  return handle(admin.url, token, admin, async () => {});
}

/** A started Worker, however it was started. */
export interface RunningWorker {
  url: Promise<string>;
  dispose(): Promise<void>;
}

/** The Node runtime in this process. */
async function startNode(vars: Record<string, string>, adminToken: string, files: readonly string[] | undefined, keepOnExit: string | undefined): Promise<RunningWorker> {
  const { startServer } = await loadNodeRuntime();
  const server = await startServer({
    adminToken,
    vars,
    ...(files ? { scenarios: files, watch: false } : {}),
    ...(keepOnExit !== undefined ? { keepOnExit } : {}),
  });
  if (server.problems.length > 0) {
    await server.close();
    throw new Error(`mockllm: invalid scenario files:\n${server.problems.join("\n")}`);
  }
  return { url: Promise.resolve(server.url), dispose: () => server.close() };
}

/** Settings `npm run build` writes beside the bundled Worker (bin/build-worker.mjs). */
interface PrebuiltRuntime {
  main: string;
  compatibilityDate: string;
  compatibilityFlags: string[];
  durableObjects: { name: string; className: string }[];
  kvNamespaces: string[];
  /** R2 buckets: uploaded files' bytes, batch outputs (src/objects). */
  r2Buckets: string[];
}

/**
 * The Worker bundled by `npm run build` (dist/worker), when this module runs from the built package.
 * Running from source (this repo's own tests), the Worker is always bundled fresh by wrangler instead, so a
 * stale dist/ can never stand in for the code under test.
 */
function prebuiltWorker(): PrebuiltWorker | undefined {
  if (!import.meta.url.includes("/dist/client/")) return undefined;
  return readPrebuilt(fileURLToPath(new URL("../../worker/", import.meta.url)));
}

/** A bundled Worker: its folder (bin/build-worker.mjs's `<out-dir>/worker`) and the settings written beside it. */
export interface PrebuiltWorker {
  dir: string;
  runtime: PrebuiltRuntime;
}

/** The bundle in `dir`, or undefined when none was written there. */
export function readPrebuilt(dir: string): PrebuiltWorker | undefined {
  const runtimeFile = join(dir, "runtime.json");
  if (!existsSync(runtimeFile)) return undefined;
  return { dir, runtime: JSON.parse(readFileSync(runtimeFile, "utf8")) as PrebuiltRuntime };
}

/**
 * Runs a prebuilt bundle under Miniflare: no wrangler import, no bundling, about half the start-up time. Only `vars`
 * are set (not wrangler.toml's `[vars]`: no request log on the test's output).
 */
export async function startPrebuilt(prebuilt: PrebuiltWorker, vars: Record<string, string>, adminToken: string): Promise<RunningWorker> {
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  const { runtime, dir } = prebuilt;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      scriptPath: join(dir, runtime.main),
      compatibilityDate: runtime.compatibilityDate,
      compatibilityFlags: runtime.compatibilityFlags,
      durableObjects: Object.fromEntries(runtime.durableObjects.map((d) => [d.name, { className: d.className, useSQLite: true }])),
      kvNamespaces: runtime.kvNamespaces,
      r2Buckets: runtime.r2Buckets,
      // Module paths resolve from the bundle's own folder, wherever the package sits relative to the cwd (a hoisted
      // node_modules in a monorepo puts it above it).
      modulesRoot: dir,
      bindings: { ...vars, ADMIN_TOKEN: adminToken },
      host: "127.0.0.1",
      port: 0,
    }),
  );
  return { url: mf.ready.then((u) => u.origin), dispose: () => mf.dispose() };
}

/** Bundles and runs the Worker with wrangler's programmatic API (from source, or with another config). */
async function startWithWrangler(config: string | undefined, vars: Record<string, string>, adminToken: string): Promise<RunningWorker> {
  for (const [key, value] of Object.entries(QUIET_WRANGLER_ENV)) process.env[key] ??= value;
  const { unstable_startWorker } = await import("wrangler");
  const bindings: Record<string, { type: "plain_text" | "secret_text"; value: string }> = {};
  for (const [key, value] of Object.entries(vars)) bindings[key] = { type: "plain_text", value };
  bindings.ADMIN_TOKEN = { type: "secret_text", value: adminToken };
  const worker = await unstable_startWorker({
    config: config ?? defaultWranglerConfig(),
    bindings,
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: false,
      persist: false,
      watch: false,
      liveReload: false,
      remote: false,
      logLevel: "none",
    },
  });
  return {
    url: worker.ready.then(async () => (await worker.url).origin),
    dispose: () => worker.dispose(),
  };
}

async function envFor(url: string, cli: AgentCli, opts: AgentEnvForOptions): Promise<AgentEnv> {
  const session = opts.session ?? "default";
  prefix(url, opts.scenario, session); // the same name checks as the base URLs
  const options = {
    url,
    scenario: opts.scenario,
    session,
    ...(opts.key !== undefined ? { key: opts.key } : {}),
    ...(opts.websocket !== undefined ? { websocket: opts.websocket } : {}),
    ...(opts.wire !== undefined ? { wire: opts.wire } : {}),
  };
  return opts.write === undefined ? agentEnv(cli, options) : writeAgentEnv(cli, options, opts.write);
}

function prefix(url: string, scenario: string | undefined, session: string | undefined): string {
  if (scenario === undefined) {
    if (session !== undefined) throw new TypeError("a session needs a scenario: pass both");
    return url;
  }
  checkName("scenario", scenario);
  if (session === undefined) return `${url}/s/${scenario}`;
  checkName("session", session);
  if ((RESERVED_SESSIONS as readonly string[]).includes(session)) {
    throw new TypeError(`session name "${session}" is reserved (${RESERVED_SESSIONS.join(", ")})`);
  }
  return `${url}/s/${scenario}/${session}`;
}

function checkName(kind: string, name: string): void {
  if (!NAME_PATTERN.test(name)) throw new TypeError(`${kind} name "${name}" must match ${NAME_RULE}`);
}
