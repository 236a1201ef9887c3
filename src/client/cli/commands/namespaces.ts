/**
 * `mockllm ns create|list|delete` and `mockllm key create|list|revoke`: teams on one hosted URL (root token).
 */
import { adminFrom, SERVER_HELP, SERVER_OPTIONS, stringOption, type Command } from "../command";
import { EXIT, UsageError } from "../io";
import type { KeyScope, Quotas } from "../../admin/namespace-types";

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

function one(positionals: string[], what: string, from = 1): string {
  const v = positionals[from];
  if (v === undefined) throw new UsageError(`missing <${what}>`);
  return v;
}

export const ns: Command = {
  name: "ns",
  summary: "create, list or delete namespaces (teams) on a shared server",
  help: `Usage: mockllm ns create <name> [--sessions n] [--rpm n] [--scenario-bytes n] [--journal-bytes n]
       mockllm ns list
       mockllm ns delete <name>
       [--url <url>] [--token <token>]

A namespace owns its scenarios, sessions (journals, recordings, stored Responses) and keys. Deleting
one refuses its keys at once and removes its data. Needs the root (ADMIN_TOKEN) token.

Options:
${SERVER_HELP}
  --sessions <n>         most sessions in use at once
  --rpm <n>              most provider requests per minute
  --scenario-bytes <n>   most bytes of uploaded scenarios
  --journal-bytes <n>    most bytes of journaled requests

Example:
  mockllm ns create team-a --rpm 600`,
  options: { ...SERVER_OPTIONS, sessions: { type: "string" }, rpm: { type: "string" }, "scenario-bytes": { type: "string" }, "journal-bytes": { type: "string" } },
  async run(values, positionals, io) {
    const admin = adminFrom(values, io);
    switch (positionals[0]) {
      case "create": {
        const created = await admin.createNamespace(one(positionals, "name"), quotasFrom(values));
        io.stdout(JSON.stringify(created));
        return EXIT.ok;
      }
      case "list":
        for (const n of await admin.namespaces()) io.stdout(`${n.name}\t${JSON.stringify(n.quotas)}`);
        return EXIT.ok;
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
    const admin = adminFrom(values, io);
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
