/**
 * What each agent CLI needs to talk to one mockllm session (contract section 10, "Agent CLIs"): environment
 * variables and the config files it reads, with telemetry, update checks and auto-update off. Pure: no file system.
 * Names were read from each CLI's own bundle and docs (Codex 0.169, Gemini CLI 0.61, opencode 1.18, Qwen Code 0.24,
 * Claude Code 2.1); docs/agent-clis/<cli>.md says what each setting is for.
 */

export const AGENT_CLIS = ["codex", "gemini", "opencode", "qwen", "claude"] as const;
export type AgentCli = (typeof AGENT_CLIS)[number];

export interface AgentEnvOptions {
  /** The mock's origin, e.g. `http://127.0.0.1:8787`. */
  url: string;
  scenario: string;
  session: string;
  /** The API key the CLI sends: a namespace key (`mk_…`) selects its namespace; default `sk-mockllm-agent`. */
  key?: string;
  /**
   * The folder used as the CLI's `HOME`/config root. Files are placed under it and the environment points there
   * (`HOME`, and `CODEX_HOME`, `GEMINI_CLI_HOME`, `CLAUDE_CONFIG_DIR`, `XDG_*` as the CLI reads them). Without it the
   * files are given relative to `HOME` and no home variable is set.
   */
  home?: string;
  /** Codex: talk to the Responses API over its WebSocket (`supports_websockets = true`) instead of HTTP. */
  websocket?: boolean;
  /** Codex: the provider's wire, `"responses"` (default) or `"chat"` (Chat Completions: Codex 0.94 and older only). */
  wire?: "responses" | "chat";
}

export interface AgentFile {
  /** Path relative to the home folder, e.g. `.codex/config.toml`. */
  path: string;
  content: string;
}

export interface AgentEnv {
  cli: AgentCli;
  /** Variables to set for the CLI (merge over the process environment, or use as the whole of it plus PATH). */
  env: Record<string, string>;
  /** Config files the CLI reads, relative to the home folder. */
  files: AgentFile[];
}

/** The key sent when none is given: any value works outside a namespace. */
export const DEFAULT_AGENT_KEY = "sk-mockllm-agent";
/** The model Codex is configured with (its catalog's newest with plain function tools). */
export const CODEX_MODEL = "gpt-5.5";
/** On the Chat Completions wire (Codex 0.94): a model 0.94 knows, for which it offers `shell_command`. */
export const CODEX_CHAT_MODEL = "gpt-5.2-codex";
/** The model id the OpenAI-compatible CLIs (opencode, Qwen Code) are configured with. */
export const AGENT_MODEL = "mockllm-agent";

export function isAgentCli(name: string): name is AgentCli {
  return (AGENT_CLIS as readonly string[]).includes(name);
}

/**
 * The environment and config files `cli` needs to run against `{url}/s/{scenario}/{session}`.
 * @example agentEnv("gemini", { url: mock.url, scenario: "fix-bug", session: "t1", home: "/tmp/h" }).env.GEMINI_CLI_HOME
 */
export function agentEnv(cli: AgentCli, options: AgentEnvOptions): AgentEnv {
  const url = options.url.replace(/\/+$/, "");
  const root = `${url}/s/${options.scenario}/${options.session}`;
  const key = options.key ?? DEFAULT_AGENT_KEY;
  const home = options.home;
  const at = (rel: string): string => (home === undefined ? `~/${rel}` : `${home}/${rel}`);
  const homeEnv: Record<string, string> = home === undefined ? {} : { HOME: home };
  switch (cli) {
    case "codex":
      return {
        cli,
        env: {
          ...homeEnv,
          ...(home === undefined ? {} : { CODEX_HOME: at(".codex") }),
          MOCKLLM_API_KEY: key,
          // Older Codex releases read the built-in provider's URL from the environment; 0.169 reads `openai_base_url`.
          OPENAI_BASE_URL: `${root}/v1`,
          OPENAI_API_KEY: key,
        },
        files: [{ path: ".codex/config.toml", content: codexConfig(`${root}/v1`, options.websocket === true, options.wire ?? "responses") }],
      };
    case "gemini":
      return {
        cli,
        env: {
          ...homeEnv,
          ...(home === undefined ? {} : { GEMINI_CLI_HOME: home }),
          GOOGLE_GEMINI_BASE_URL: root,
          GEMINI_API_KEY: key,
          // `--yolo` is downgraded in an untrusted folder: trust the working folder for this run.
          GEMINI_CLI_TRUST_WORKSPACE: "true",
          GEMINI_TELEMETRY_ENABLED: "false",
        },
        files: [{ path: ".gemini/settings.json", content: json(geminiSettings("gemini-api-key")) }],
      };
    case "qwen":
      return {
        cli,
        env: {
          ...homeEnv,
          OPENAI_BASE_URL: `${root}/v1`,
          OPENAI_API_KEY: key,
          OPENAI_MODEL: AGENT_MODEL,
          QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
        },
        files: [{ path: ".qwen/settings.json", content: json(qwenSettings()) }],
      };
    case "opencode": {
      const config = opencodeConfig(`${root}/v1`);
      return {
        cli,
        env: {
          ...homeEnv,
          ...(home === undefined
            ? { OPENCODE_CONFIG_CONTENT: JSON.stringify(config) }
            : {
                XDG_CONFIG_HOME: at(".config"),
                XDG_DATA_HOME: at(".local/share"),
                XDG_STATE_HOME: at(".local/state"),
                XDG_CACHE_HOME: at(".cache"),
              }),
          MOCKLLM_API_KEY: key,
          OPENCODE_DISABLE_AUTOUPDATE: "1",
          OPENCODE_DISABLE_MODELS_FETCH: "1",
          OPENCODE_DISABLE_SHARE: "1",
          OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
        },
        files: [{ path: ".config/opencode/opencode.json", content: json(config) }],
      };
    }
    case "claude":
      return {
        cli,
        env: {
          ...homeEnv,
          ...(home === undefined ? {} : { CLAUDE_CONFIG_DIR: at(".claude") }),
          // Claude Code appends /v1/messages itself.
          ANTHROPIC_BASE_URL: root,
          ANTHROPIC_API_KEY: key,
          DISABLE_TELEMETRY: "1",
          DISABLE_AUTOUPDATER: "1",
          DISABLE_ERROR_REPORTING: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        },
        files: [],
      };
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A TOML basic string: JSON's escapes are TOML's. */
function toml(value: string): string {
  return JSON.stringify(value);
}

/**
 * Codex: a custom model provider (the built-in one ignores `OPENAI_BASE_URL` in 0.169), the Responses wire, the
 * key read from `MOCKLLM_API_KEY`; update checks, analytics and feedback off.
 */
function codexConfig(base: string, websocket: boolean, wire: "responses" | "chat"): string {
  return [
    "# Written by `mockllm env codex`: Codex talks to one mockllm session.",
    // 0.169's default model (gpt-6.1-sol) sends its tools inside an `additional_tools` input item behind a code-mode
    // `exec` tool; gpt-5.5 offers `exec_command` and the rest as plain function tools, as scripts expect. Codex 0.94
    // offers `shell_command` for gpt-5.2-codex (for a model it does not know, a `shell` tool taking an argv array).
    `model = ${toml(wire === "chat" ? CODEX_CHAT_MODEL : CODEX_MODEL)}`,
    'model_provider = "mockllm"',
    `openai_base_url = ${toml(base)}`,
    "check_for_update_on_startup = false",
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[feedback]",
    "enabled = false",
    "",
    "[model_providers.mockllm]",
    'name = "mockllm"',
    `base_url = ${toml(base)}`,
    'env_key = "MOCKLLM_API_KEY"',
    `wire_api = ${toml(wire)}`,
    `supports_websockets = ${String(websocket)}`,
    "",
  ].join("\n");
}

/** Gemini CLI and Qwen Code share the settings layout (Qwen Code is a fork of Gemini CLI). */
function geminiSettings(authType: string): Record<string, unknown> {
  return {
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    // Without `selectedType` Gemini CLI exits 41 "Invalid auth method selected."
    security: { auth: { selectedType: authType }, folderTrust: { enabled: false } },
    ide: { enabled: false },
  };
}

function qwenSettings(): Record<string, unknown> {
  const base = geminiSettings("openai");
  return {
    ...base,
    model: { name: AGENT_MODEL },
    // The non-interactive shell returns the command's output to the model (the PTY shell may not, headless).
    tools: { shell: { enableInteractiveShell: false } },
  };
}

/** opencode: an OpenAI-compatible provider whose only model is the session; titles and the main loop both use it. */
function opencodeConfig(base: string): Record<string, unknown> {
  return {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    model: `mockllm/${AGENT_MODEL}`,
    small_model: `mockllm/${AGENT_MODEL}`,
    enabled_providers: ["mockllm"],
    provider: {
      mockllm: {
        npm: "@ai-sdk/openai-compatible",
        name: "mockllm",
        options: { baseURL: base, apiKey: "{env:MOCKLLM_API_KEY}" },
        models: { [AGENT_MODEL]: { name: "mockllm", tool_call: true } },
      },
    },
  };
}
