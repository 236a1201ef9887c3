/**
 * The Agents API's vaults and their credentials (`client.beta.agents.vaults`, `/v1/vaults`, beta `agents=v1`): secrets
 * an agent session uses without the app handing them to the agent. A credential's secret is kept and never answered
 * back (its `auth` shows what the API shows: the kind, the MCP server's URL, the OAuth refresh settings, the secret's
 * name). A session's `vault_ids` must name the caller's vaults; its MCP tools take their bearer token from the
 * credential `credential_id` names, or from the one `static_bearer` / `mcp_oauth` credential of its vaults whose
 * `mcp_server_url` is the server's.
 */
import { z } from "zod";
import { apiError, type ApiError, isApiError } from "../../../../http/errors";
import { safeDecode } from "../../../../http/url";
import type { Runtime } from "../../../../runtime/types";
import { childKind } from "../../../../session/responses";
import { lazily } from "../../../../util/memo";
import { echoed } from "../../../../util/text";
import { bodyOrError, byMethod, invalid, listedPage, metadataFilters, nowSeconds, objectRoute, type PlatformAnswer, parsedBody } from "../../platform";
import { metadataOf, newId, type AgentTool } from "./objects";
import { agentsHome, loadAll, loadOne, MAX_OBJECTS, saveAll } from "./store";

type Json = Record<string, unknown>;

const VAULT_KIND = "vault";
const credentialsKind = (vaultId: string): string => childKind(VAULT_KIND, vaultId);
/** Most credentials one vault keeps; one more forgets the oldest. */
const MAX_CREDENTIALS = 100;

const vaultsWire = lazily(() => {
  const obj = z.strictObject;
  const TokenAuth = obj({ type: z.enum(["none", "client_secret_basic", "client_secret_post"]), client_secret: z.string().optional() });
  const Auth = z.discriminatedUnion("type", [
    obj({
      type: z.literal("mcp_oauth"),
      access_token: z.string().min(1),
      mcp_server_url: z.string().min(1),
      expires_at: z.string().nullish(),
      refresh: obj({
        client_id: z.string(),
        refresh_token: z.string(),
        token_endpoint: z.string(),
        token_endpoint_auth: TokenAuth,
        resource: z.string().nullish(),
        scope: z.string().nullish(),
      }).nullish(),
    }),
    obj({ type: z.literal("static_bearer"), token: z.string().min(1), mcp_server_url: z.string().min(1) }),
    obj({
      type: z.literal("environment_variable"),
      secret_name: z.string().min(1),
      secret_value: z.string(),
      networking: z.discriminatedUnion("type", [obj({ type: z.literal("unrestricted") }), obj({ type: z.literal("limited"), allowed_hosts: z.array(z.string()) })]),
    }),
  ]);
  const Rotate = z.discriminatedUnion("type", [
    obj({ type: z.literal("mcp_oauth"), access_token: z.string().nullish(), expires_at: z.string().nullish(), refresh: z.looseObject({}).nullish() }),
    obj({ type: z.literal("static_bearer"), token: z.string().min(1) }),
    obj({ type: z.literal("environment_variable"), secret_value: z.string() }),
  ]);
  const Vault = z.object({ name: z.string().max(256).nullish(), metadata: z.unknown().optional() });
  const CredentialCreate = z.object({ auth: Auth, name: z.string().min(1).max(256), metadata: z.unknown().optional() });
  const CredentialUpdate = z.object({ auth: Rotate.optional(), name: z.string().min(1).max(256).optional(), metadata: z.unknown().optional() });
  return { Vault, CredentialCreate, CredentialUpdate };
});

export interface Vault {
  id: string;
  created_at: number;
  metadata: Record<string, string>;
  name: string | null;
  object: "vault";
}

/** A credential as kept: the API's object, and its secret (never answered back). */
interface StoredCredential {
  id: string;
  auth: Json;
  created_at: number;
  metadata: Record<string, string>;
  name: string;
  object: "vault.credential";
  updated_at: number;
  vault_id: string;
  mock: { secret: string };
}

const vaultNotFound = (id: string): ApiError => apiError("not_found", `No vault found with id '${echoed(id)}'.`, { param: "vault_id" });
const credentialNotFound = (id: string): ApiError => apiError("not_found", `No credential found with id '${echoed(id)}' in this vault.`, { param: "credential_id" });

/** A credential's `auth` as the API answers it (no secret), and the secret kept beside it. */
function authOf(auth: z.infer<ReturnType<typeof vaultsWire>["CredentialCreate"]>["auth"]): { shown: Json; secret: string } {
  if (auth.type === "static_bearer") return { shown: { mcp_server_url: auth.mcp_server_url, type: auth.type }, secret: auth.token };
  if (auth.type === "environment_variable") return { shown: { networking: auth.networking, secret_name: auth.secret_name, type: auth.type }, secret: auth.secret_value };
  const r = auth.refresh;
  return {
    shown: {
      expires_at: auth.expires_at ?? null,
      mcp_server_url: auth.mcp_server_url,
      refresh:
        r === undefined || r === null
          ? null
          : { client_id: r.client_id, resource: r.resource ?? null, scope: r.scope ?? null, token_endpoint: r.token_endpoint, token_endpoint_auth: { type: r.token_endpoint_auth.type } },
      type: auth.type,
    },
    secret: auth.access_token,
  };
}

function shownCredential(c: StoredCredential): Json {
  const { mock: _m, ...shown } = c;
  return shown;
}

/** Objects the list's `metadata[…]` and `status` filters keep (every vault and credential is `active`). */
function filtered<T extends { metadata: Record<string, string> }>(request: Request, items: T[]): T[] {
  const query = new URL(request.url).searchParams;
  const statuses = [...query.getAll("status"), ...query.getAll("status[]")];
  if (statuses.length > 0 && !statuses.includes("active")) return [];
  const pairs = metadataFilters(query);
  return items.filter((i) => pairs.every(([k, v]) => i.metadata[k] === v));
}

async function serveVault(request: Request, path: string, id: string | undefined, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const home = agentsHome(rt);
  const write = async (base: Vault | undefined): Promise<Response> => {
    const b = await bodyOrError(request);
    if (isApiError(b)) return a.fail(b);
    const parsed = parsedBody(vaultsWire().Vault, b);
    if (isApiError(parsed)) return a.fail(parsed);
    const metadata = parsed.metadata === undefined ? (base?.metadata ?? {}) : metadataOf(parsed.metadata);
    if (isApiError(metadata)) return a.fail(metadata);
    const vault: Vault = {
      id: base?.id ?? newId("vault_"),
      created_at: base?.created_at ?? nowSeconds(),
      metadata,
      name: parsed.name === undefined ? (base?.name ?? null) : parsed.name,
      object: "vault",
    };
    await saveAll(home, VAULT_KIND, [vault], MAX_OBJECTS);
    return a.json(vault);
  };
  if (id === undefined) {
    return byMethod(request, path, a, { GET: async () => listedPage(request, a, filtered(request, await loadAll<Vault>(home, VAULT_KIND))), POST: () => write(undefined) });
  }
  const vault = await loadOne<Vault>(home, VAULT_KIND, id);
  if (vault === undefined) return a.fail(vaultNotFound(id));
  return byMethod(request, path, a, {
    GET: () => a.json(vault),
    POST: () => write(vault),
    async DELETE() {
      await home.deleteObject(VAULT_KIND, id);
      return a.json({ id, deleted: true, object: "vault.deleted" });
    },
  });
}

async function serveCredential(request: Request, path: string, vaultId: string, id: string | undefined, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const home = agentsHome(rt);
  if ((await loadOne<Vault>(home, VAULT_KIND, vaultId)) === undefined) return a.fail(vaultNotFound(vaultId));
  const kind = credentialsKind(vaultId);
  if (id === undefined) {
    return byMethod(request, path, a, {
      GET: async () =>
        listedPage(
          request,
          a,
          filtered(request, await loadAll<StoredCredential>(home, kind)).map((c) => shownCredential(c) as Json & { id: string }),
        ),
      async POST() {
        const b = await bodyOrError(request);
        if (isApiError(b)) return a.fail(b);
        const parsed = parsedBody(vaultsWire().CredentialCreate, b);
        if (isApiError(parsed)) return a.fail(parsed);
        const metadata = metadataOf(parsed.metadata);
        if (isApiError(metadata)) return a.fail(metadata);
        const { shown, secret } = authOf(parsed.auth);
        const now = nowSeconds();
        const c: StoredCredential = { id: newId("cred_"), auth: shown, created_at: now, metadata, name: parsed.name, object: "vault.credential", updated_at: now, vault_id: vaultId, mock: { secret } };
        await saveAll(home, kind, [c], MAX_CREDENTIALS);
        return a.json(shownCredential(c));
      },
    });
  }
  const c = await loadOne<StoredCredential>(home, kind, id);
  if (c === undefined) return a.fail(credentialNotFound(id));
  return byMethod(request, path, a, {
    GET: () => a.json(shownCredential(c)),
    async POST() {
      const b = await bodyOrError(request);
      if (isApiError(b)) return a.fail(b);
      const parsed = parsedBody(vaultsWire().CredentialUpdate, b);
      if (isApiError(parsed)) return a.fail(parsed);
      if (parsed.auth !== undefined && parsed.auth.type !== c.auth.type)
        return a.fail(invalid(`Invalid 'auth.type': credential ${echoed(id)} is '${String(c.auth.type)}'; a rotation keeps its type.`, "auth.type"));
      const metadata = parsed.metadata === undefined ? c.metadata : metadataOf(parsed.metadata);
      if (isApiError(metadata)) return a.fail(metadata);
      const rotated = parsed.auth === undefined ? undefined : "token" in parsed.auth ? parsed.auth.token : "secret_value" in parsed.auth ? parsed.auth.secret_value : parsed.auth.access_token;
      const updated: StoredCredential = { ...c, metadata, name: parsed.name ?? c.name, updated_at: nowSeconds(), mock: { secret: rotated ?? c.mock.secret } };
      await saveAll(home, kind, [updated], MAX_CREDENTIALS);
      return a.json(shownCredential(updated));
    },
    async DELETE() {
      await home.deleteObject(kind, id);
      return a.json({ id, deleted: true, object: "vault.credential.deleted" });
    },
  });
}

/** `/v1/vaults[/{id}[/credentials[/{id}]]]`. */
const ROUTE = /^\/(?:v1\/)?vaults(?:\/([^/]+)(?:\/credentials(?:\/([^/]+))?)?)?\/?$/;
const KNOWN = /^\/v1\/vaults(?:\/.*)?$/;

export const openaiVaults = objectRoute(
  ROUTE,
  ([, rawVault, rawCredential], request, path, a, ctx) => {
    const vaultId = rawVault === undefined ? undefined : safeDecode(rawVault);
    if (vaultId !== undefined && path.includes("/credentials")) return serveCredential(request, path, vaultId, rawCredential === undefined ? undefined : safeDecode(rawCredential), a, ctx.rt);
    return serveVault(request, path, vaultId, a, ctx.rt);
  },
  // Anthropic's clients name vaults on the same path: theirs are not served, and get Anthropic's 404, not OpenAI's 401.
  { knows: KNOWN, declines: (_m, request) => request.headers.has("anthropic-version") || request.headers.has("x-api-key") },
);

/**
 * The vaults a session names, checked, and its MCP tools with their bearer tokens from those vaults' credentials:
 * the one `credential_id` names, else the single bearer credential for the server's URL.
 */
export async function withVaultCredentials(rt: Runtime, vaultIds: readonly string[], tools: AgentTool[]): Promise<AgentTool[] | ApiError> {
  const home = agentsHome(rt);
  const credentials: StoredCredential[] = [];
  for (const id of vaultIds) {
    if ((await loadOne<Vault>(home, VAULT_KIND, id)) === undefined) return vaultNotFound(id);
    credentials.push(...(await loadAll<StoredCredential>(home, credentialsKind(id))));
  }
  const bearer = credentials.filter((c) => c.auth.type === "static_bearer" || c.auth.type === "mcp_oauth");
  const out: AgentTool[] = [];
  for (const t of tools) {
    if (t.type !== "mcp" || t.transport.authorization !== undefined) {
      out.push(t);
      continue;
    }
    let chosen: StoredCredential | undefined;
    if (t.credential_id !== null) {
      chosen = credentials.find((c) => c.id === t.credential_id);
      if (chosen === undefined) return invalid(`Invalid 'credential_id': no credential '${echoed(t.credential_id)}' in the session's vaults.`, "credential_id");
    } else {
      const matching = bearer.filter((c) => c.auth.mcp_server_url === t.transport.server_url);
      if (matching.length === 1) chosen = matching[0];
    }
    out.push(chosen === undefined ? t : { ...t, transport: { ...t.transport, authorization: chosen.mock.secret } });
  }
  return out;
}
