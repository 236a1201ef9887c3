// A provider is its folder plus one registry line: code outside src/providers/ does not name a provider (comments
// aside), so adding one touches no shared file. What must still name one is listed below, each with why; the list
// only shrinks (an entry whose file no longer names a provider fails too, so it is taken out).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../../src/canonical/request";
import { BANNER_SURFACES } from "../../src/client/cli/banner";
import { BANNER_SOCKET_ROWS } from "../../src/client/cli/banner-rows.gen";
import { bannerRows } from "../../src/providers/registry/module";
import { PROVIDER_MODULES } from "../../src/providers/registry";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

/** Shared files that name a provider in code, and why they may. */
const ALLOWED: Record<string, string> = {
  // The plain-data list below the providers layer; provider-registry.test.ts checks it against the modules.
  "canonical/request.ts": "the PROVIDERS list",
  // Model ids, not providers: the snapshot aliases of OpenAI's and Anthropic's model names, and the families a
  // `/v1/models` answer lists them under.
  "canonical/models.ts": "model-name families",
  "routes/models.ts": "model-name families",
  "scenario/prices.ts": "model ids in the price table",
  // Agent CLIs (the Gemini CLI, the AI SDK's openai-compatible package), not providers.
  "client/agents/profiles.ts": "agent CLI names",
  "client/builder/shell.ts": "agent CLI names",
  "scenario/side-calls.ts": "agent CLI names",
  "client/cli/commands/env.ts": "agent CLI names",
  // The client package may import only the scenario schema (layers.test.ts): its banner rows are plain data generated
  // from the modules' `banner` declarations (npm run generate); the last tests below check they agree.
  "client/cli/banner-rows.gen.ts": "banner rows generated from the modules",
  // The help's example upstream URL (the list itself comes from the record schema, client/cli/upstreams.ts).
  "client/cli/commands/record.ts": "an example --upstream",
  "client/cli/commands/serve.ts": "an example --upstream",
  // The record schema's upstream keys written out, so the CLI starts without zod (cli-imports.test.ts checks them).
  "client/cli/upstreams.ts": "the record schema's upstream keys, for --upstream's help",
  // Descriptions naming a provider's wire field (they are the reference docs), and the record schema's upstream keys
  // (checked against the modules in provider-registry.test.ts).
  "scenario/schema.ts": "wire-field descriptions and the record schema's upstream keys",
  "scenario/server-tools-schema.ts": "wire-field descriptions: which provider field each server-tool entry's value becomes",
  "scenario/reply-kinds.ts": "wire-field descriptions of the reply kinds, and each kind's docs page (docs/providers/…)",
  "scenario/message-schema.ts": "wire-field descriptions (Anthropic's thinking blocks)",
  "scenario/structured.ts": "wire-field descriptions",
  "scenario/limits-schema.ts": "wire-field descriptions",
  // A client's own format: the AI SDK's `providerMetadata.anthropic` in a seed transcript.
  "scenario/testllm.ts": "the AI SDK's providerMetadata key",
  // The doubled-/v1 hint names the SDK that adds /v1 itself.
  "router.ts": "a hint naming a client SDK",
  "webhooks/send.ts": "the deliveries' user agent: webhook endpoints and their events are OpenAI's API",
  // The object store's per-surface area for Anthropic's Files API.
  "tenancy/file-quota.ts": "an object store area",
  // The Realtime API's WebSocket subprotocol carrying the key.
  "tenancy/resolve.ts": "a WebSocket subprotocol name",
  // Default ids of stored Responses objects come from the Responses state module.
  "turn/default-ids.ts": "an import of the Responses state module",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === join(SRC, "providers") ? [] : sourceFiles(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

/** The file's code with its comments blanked (string contents kept: a `//` inside a URL is not a comment). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " ")).replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

describe("shared files do not name a provider", () => {
  const names = new RegExp(`\\b(${PROVIDER_MODULES.map((m) => m.name).join("|")})\\b`, "i");
  const naming = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const lines = code(readFileSync(file, "utf8"))
      .split("\n")
      .flatMap((l, i) => (names.test(l) ? [`${i + 1}: ${l.trim().slice(0, 120)}`] : []));
    if (lines.length > 0) naming.set(relative(SRC, file).split("\\").join("/"), lines);
  }

  it("the modules are the providers the check looks for", () => {
    expect(PROVIDER_MODULES.map((m) => m.name).sort()).toEqual([...PROVIDERS].sort());
  });

  it("only the allow-listed files name one", () => {
    const unlisted = [...naming].filter(([file]) => !(file in ALLOWED)).map(([file, lines]) => `${file}\n  ${lines.join("\n  ")}`);
    expect(unlisted, "declare it in the provider's module instead, or add the file to ALLOWED with why").toEqual([]);
  });

  it("every allow-listed file still names one (the list only shrinks)", () => {
    expect(Object.keys(ALLOWED).filter((file) => !naming.has(file))).toEqual([]);
  });

  it("the ready banner has a row for every registered provider", () => {
    const rows = BANNER_SURFACES.map(([name, , page]) => `${name} ${page}`.toLowerCase());
    expect(PROVIDER_MODULES.map((m) => m.name).filter((name) => !rows.some((row) => row.includes(name)))).toEqual([]);
  });

  it("the ready banner's rows are the ones the modules declare (npm run generate writes them)", () => {
    const declared = bannerRows(PROVIDER_MODULES).map((r) => [r.name, r.below, r.page]);
    expect([...BANNER_SURFACES, ...BANNER_SOCKET_ROWS]).toEqual(declared);
  });
});
