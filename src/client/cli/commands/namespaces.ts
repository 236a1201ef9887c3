/**
 * `mockllm ns create|list|delete` and `mockllm key create|list|revoke`: teams on one hosted URL (root token).
 */
import { adminFrom, SERVER_HELP, SERVER_OPTIONS, stringOption, type Command } from "../command";
import { EXIT, UsageError } from "../io";
import type { KeyScope, NamespaceLimits, Quotas } from "../../admin/namespace-types";

const QUOTA_FLAGS = { sessions: "sessions", rpm: "requestsPerMinute", "scenario-bytes": "scenarioBytes", "journal-bytes": "journalBytes" } as const;

function quotasFrom(values: Record<string, unknown>): Quotas | undefined {
  const out: Record<string, number> = {};
  for (const [flag, field] of Object.entries(QUOTA_FLAGS)) {
    const text = stringOption(values[flag] as string | undefined);
    if (text === undefined) continue;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${flag} must be a whole number (0 or more), got "${text}"`);
    out[field] = n;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

const LIMIT_FLAGS = { "limit-rpm": "requestsPerMinute", "limit-tpm": "tokensPerMinute" } as const;

/** `--limit-rpm`, `--limit-tpm`: the namespace's `limits` (a provider's 429 and headers over all its sessions). */
function limitsFrom(values: Record<string, unknown>): NamespaceLimits | undefined {
  const out: Record<string, number> = {};
  for (const [flag, field] of Object.entries(LIMIT_FLAGS)) {
    const text = stringOption(values[flag] as string | undefined);
    if (text === undefined) continue;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${flag} must be a whole number (1 or more), got "${text}"`);
    out[field] = n;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** What `create` sends besides the quotas. */
function createOptions(values: Record<string, unknown>): { ttlSeconds?: number; limits?: NamespaceLimits } {
  const ttlText = stringOption(values.ttl as string | undefined);
  const limits = limitsFrom(values);
  return { ...(ttlText !== undefined ? { ttlSeconds: ttlSeconds(ttlText) } : {}), ...(limits !== undefined ? { limits } : {}) };
}

const TTL_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** `--ttl`: `90s`, `30m`, `12h`, `7d`, `2w` (a bare number is seconds), as seconds. */
export function ttlSeconds(text: string): number {
  const m = /^(\d+)([smhdw]?)$/.exec(text.trim());
  const seconds = m ? Number(m[1]) * TTL_UNITS[m[2] || "s"]! : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > 366 * 86400) throw new UsageError(`--ttl must be a duration such as 90s, 30m, 12h, 7d or 2w (at most 366d), got "${text}"`);
  return seconds;
}

/** What a system under test sets to reach the server with a namespace key (the key selects the namespace). */
export function baseUrls(url: string): Record<string, string> {
  const root = url.replace(/\/+$/, "");
  return { OPENAI_BASE_URL: `${root}/v1`, ANTHROPIC_BASE_URL: root, GOOGLE_GEMINI_BASE_URL: root, OLLAMA_HOST: root };
}

function one(positionals: string[], what: string, from = 1): string {
  const v = positionals[from];
  if (v === undefined) throw new UsageError(`missing <${what}>`);
  return v;
}

export const ns: Command = {
  name: "ns",
  summary: "create, list or delete namespaces (teams) on a shared server",
  help: `Usage: mockllm ns create <name> [--sessions n] [--rpm n] [--scenario-bytes n] [--journal-bytes n] [--ttl <duration>]
                          [--limit-rpm n] [--limit-tpm n]
       mockllm ns list [--json]
       mockllm ns delete <name>
       [--url <url>] [--token <token>]

A namespace owns its scenarios, sessions (journals, recordings, stored Responses) and keys. Deleting
one refuses its keys at once and removes its data. Needs the root (ADMIN_TOKEN) token. "mockllm namespace"
is the full name; its "create" also mints an admin and a run key and prints base URLs.

Options:
${SERVER_HELP}
  --sessions <n>         most sessions in use at once
  --rpm <n>              most provider requests per minute
  --scenario-bytes <n>   most bytes of uploaded scenarios
  --journal-bytes <n>    most bytes of journaled requests
  --limit-rpm <n>        rate limit: requests per minute over all its sessions, answered with the
                         provider's own 429 and rate-limit headers (docs/guide/budgets-and-limits.md)
  --limit-tpm <n>        rate limit: tokens per minute over all its sessions, likewise
  --ttl <duration>       expire after 90s, 30m, 12h, 7d or 2w: keys refused from then on, the namespace
                         deleted when next listed (default: never)
  --json                 list: one JSON array

Example:
  mockllm ns create team-a --rpm 600`,
  options: {
    ...SERVER_OPTIONS,
    sessions: { type: "string" },
    rpm: { type: "string" },
    "scenario-bytes": { type: "string" },
    "journal-bytes": { type: "string" },
    "limit-rpm": { type: "string" },
    "limit-tpm": { type: "string" },
    ttl: { type: "string" },
    json: { type: "boolean" },
  },
  async run(values, positionals, io) {
    const admin = await adminFrom(values, io);
    switch (positionals[0]) {
      case "create": {
        const created = await admin.createNamespace(one(positionals, "name"), quotasFrom(values), createOptions(values));
        io.stdout(JSON.stringify(created));
        return EXIT.ok;
      }
      case "list": {
        const all = await admin.namespaces();
        if (values.json === true) io.stdout(JSON.stringify(all));
        else
          for (const n of all)
            io.stdout(`${n.name}\t${JSON.stringify(n.quotas)}${n.limits !== undefined ? `\tlimits ${JSON.stringify(n.limits)}` : ""}${n.expiresAt !== undefined ? `\texpires ${n.expiresAt}` : ""}`);
        return EXIT.ok;
      }
      case "delete":
        await admin.deleteNamespace(one(positionals, "name"));
        io.stdout(`deleted ${positionals[1]}`);
        return EXIT.ok;
      default:
        throw new UsageError(`expected create, list or delete, got "${positionals[0] ?? ""}"`);
    }
  },
};

export const key: Command = {
  name: "key",
  summary: "create, list or revoke a namespace's keys (admin, read, run)",
  help: `Usage: mockllm key create <namespace> --scope admin|read|run [--label <text>]
       mockllm key list <namespace>
       mockllm key revoke <namespace> <id>
       [--url <url>] [--token <token>]

A key (mk_{id}_{secret}) goes where the system under test puts its API key (OPENAI_API_KEY,
ANTHROPIC_API_KEY, …) and selects its namespace. Scopes: admin = the admin API inside the namespace,
read = its GETs, run = provider routes only. "create" prints the key once; only its hash is kept.
Rotate: create a new key, deploy it, revoke the old id (refused everywhere within 5 s).

Options:
${SERVER_HELP}
  --scope <scope>   admin, read or run
  --label <text>    a note shown in listings

Example:
  mockllm key create team-a --scope run --label preview`,
  options: { ...SERVER_OPTIONS, scope: { type: "string" }, label: { type: "string" } },
  async run(values, positionals, io) {
    const admin = await adminFrom(values, io);
    const namespace = one(positionals, "namespace");
    switch (positionals[0]) {
      case "create": {
        const scope = stringOption(values.scope);
        if (scope !== "admin" && scope !== "read" && scope !== "run") throw new UsageError("--scope must be admin, read or run");
        const created = await admin.createKey(namespace, scope as KeyScope, stringOption(values.label));
        io.stderr(`mockllm: key ${created.id} (${created.scope}) for ${namespace}; shown only now:`);
        io.stdout(created.key);
        return EXIT.ok;
      }
      case "list":
        for (const k of await admin.keys(namespace)) io.stdout(`${k.id}\t${k.scope}\t${k.label ?? ""}\t${k.createdAt ?? ""}`);
        return EXIT.ok;
      case "revoke":
        await admin.revokeKey(namespace, one(positionals, "id", 2));
        io.stdout(`revoked ${positionals[2]}`);
        return EXIT.ok;
      default:
        throw new UsageError(`expected create, list or revoke, got "${positionals[0] ?? ""}"`);
    }
  },
};

/**
 * `mockllm namespace`: the full name of `ns`, for a namespace per pull request — `create` also mints the namespace's
 * admin and run keys and prints what a preview deployment sets (`--json`: one object).
 */
export const namespace: Command = {
  name: "namespace",
  summary: "a namespace per pull request: create it with keys and a TTL, list, delete",
  help: `Usage: mockllm namespace create <name> [--ttl <duration>] [--json] [--sessions n] [--rpm n] ...
       mockllm namespace list [--json]
       mockllm namespace delete <name>
       [--url <url>] [--token <token>]

"create" makes the namespace, an admin key and a run key (shown only now), and prints the base URLs
and keys a preview deployment or CI job sets: a run key goes where the code under test puts its API
key, and selects the namespace. With --ttl the namespace expires: from then on its keys are refused,
and it is deleted (its scenarios, sessions and keys) the next time namespaces are listed or the name
is created again. "ns" is the short name (its "create" makes the namespace only). Needs the root
(ADMIN_TOKEN) token.

Options:
${SERVER_HELP}
  --ttl <duration>       expire after 90s, 30m, 12h, 7d or 2w (default: never)
  --json                 print one JSON object (create) or array (list)
  --sessions <n>         most sessions in use at once
  --rpm <n>              most provider requests per minute
  --scenario-bytes <n>   most bytes of uploaded scenarios
  --journal-bytes <n>    most bytes of journaled requests
  --limit-rpm <n>        rate limit: requests per minute over all its sessions (the provider's 429)
  --limit-tpm <n>        rate limit: tokens per minute over all its sessions

Example:
  mockllm namespace create pr-57 --ttl 7d --json`,
  options: ns.options,
  async run(values, positionals, io) {
    if (positionals[0] !== "create") return ns.run(values, positionals, io);
    const admin = await adminFrom(values, io);
    const name = one(positionals, "name");
    const created = await admin.createNamespace(name, quotasFrom(values), createOptions(values));
    const adminKey = await admin.createKey(name, "admin", "namespace create");
    const runKey = await admin.createKey(name, "run", "namespace create");
    const url = (stringOption(values.url) ?? io.env.MOCKLLM_URL ?? "").replace(/\/+$/, "");
    const urls = baseUrls(url);
    if (values.json === true) {
      io.stdout(
        JSON.stringify({
          name,
          quotas: created.quotas,
          ...(created.limits !== undefined ? { limits: created.limits } : {}),
          expiresAt: created.expiresAt ?? null,
          url,
          adminKey: adminKey.key,
          runKey: runKey.key,
          baseUrls: urls,
        }),
      );
      return EXIT.ok;
    }
    io.stderr(`mockllm: namespace ${name} created${created.expiresAt !== undefined ? `, expires ${created.expiresAt}` : ""}; its keys are shown only now:`);
    io.stdout(`MOCKLLM_NAMESPACE=${name}`);
    io.stdout(`MOCKLLM_ADMIN_KEY=${adminKey.key}`);
    io.stdout(`MOCKLLM_RUN_KEY=${runKey.key}`);
    for (const [k, v] of Object.entries(urls)) io.stdout(`${k}=${v}`);
    return EXIT.ok;
  },
};
