/**
 * Every provider module, in one list: adding a provider = its folder (with a `module/index.ts`) + a line here. What the
 * router, early errors, the journal's tool-call ids, socket acceptance and the recording flags need is derived from it.
 */
import type { Reply } from "../../canonical/outcome";
import type { Endpoint, ProviderName } from "../../canonical/request";
import { memoized } from "../../util/memo";
import type { SocketContext, SocketProtocol } from "../../sockets/types";
import { MAX_SOCKET_MESSAGE_BYTES } from "../../sockets/limits";
import { anthropicModule } from "../anthropic/module";
import { azureModule } from "../azure/module";
import { cohereModule } from "../cohere/module";
import { bedrockModule } from "../bedrock/module";
import { geminiModule } from "../gemini/module";
import type { ErrorPathRule, ProviderModule, SideRoute, SocketSurface } from "./module";
import { ollamaModule } from "../ollama/module";
import { openaiModule, openaiToolCallIds } from "../openai/module";
import type { ProviderSurface } from "../types";
import { resolveSurface } from "../surface";
import { vertexModule } from "../vertex/module";

export const PROVIDER_MODULES: ProviderModule[] = [openaiModule, anthropicModule, geminiModule, ollamaModule, bedrockModule, vertexModule, azureModule, cohereModule];

/** Every HTTP surface, in the order `surfaceFor` tries them (module order). */
export const SURFACES: ProviderSurface<any>[] = PROVIDER_MODULES.flatMap((m) => m.surfaces);

/** The surfaces serving `path` (already stripped of any `/s/…` prefix), in registry order: more than one where providers share a path. Memoised per path. */
const surfacesAt: (path: string) => ProviderSurface<any>[] = memoized((path) => SURFACES.filter((s) => s.paths.includes(path) || resolveSurface(s).matchPath(path)));

/** The first surface serving `path`, if any: the one that answers unless another serving it claims the request (`surfaceOf`). */
export function surfaceFor(path: string): ProviderSurface<any> | undefined {
  return surfacesAt(path)[0];
}

/**
 * The surface answering `request` at `path`: where providers share the path (`/v1/decisions`: OpenAI's, and Gemini's
 * where `@google/genai` posts it), the first whose `claims` holds for the request, else the first that claims none.
 * @example surfaceOf(new Request("http://x/v1/decisions", { headers: { "x-goog-api-key": "k" } }), "/v1/decisions")?.provider // "gemini"
 */
export function surfaceOf(request: Request, path: string): ProviderSurface<any> | undefined {
  const at = surfacesAt(path);
  if (at.length < 2) return at[0];
  return at.find((s) => s.claims?.(request) === true) ?? at.find((s) => s.claims === undefined);
}

/** Every side route, in the order the router tries them: ascending `order`, module order among equals. */
export const SIDE_ROUTES: SideRoute[] = PROVIDER_MODULES.flatMap((m) => m.sideRoutes ?? []).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));

/** Every WebSocket protocol. */
export const SOCKETS: SocketSurface[] = PROVIDER_MODULES.flatMap((m) => m.sockets ?? []);

/**
 * The WebSocket protocol a path (below any prefix) speaks, if any.
 * @example socketFor("/v1/realtime")?.kind // "realtime"
 */
export function socketFor(path: string): SocketSurface | undefined {
  return SOCKETS.find((s) => s.matchPath(path));
}

/**
 * The protocol for a socket (what a runtime's socket host opens, and re-opens from its saved state after a Durable
 * Object woke from hibernation); `saved` is what its `state()` returned before the host slept.
 * @example const protocol = openProtocol({ rt, init, sink }); protocol.open()
 */
export function openProtocol(socket: SocketContext, saved?: unknown): SocketProtocol {
  const surface = SOCKETS.find((s) => s.kind === socket.init.kind);
  if (surface === undefined) throw new Error(`mockllm: no socket protocol "${socket.init.kind}"`);
  return surface.open(socket, saved);
}

/**
 * The largest client message a socket of this kind takes (its surface's `maxMessageBytes`, else the runtimes' cap).
 * @example socketMessageCap("responses") // 10 MiB: what POST /v1/responses takes
 */
export function socketMessageCap(kind: string): number {
  return SOCKETS.find((s) => s.kind === kind)?.maxMessageBytes ?? MAX_SOCKET_MESSAGE_BYTES;
}

const ERROR_PATHS: ErrorPathRule[] = PROVIDER_MODULES.flatMap((m) => m.errorPaths ?? []).sort((a, b) => a.priority - b.priority);

/**
 * Whose error shape answers a request refused before any surface handles it (a bad `/s/…` name, an unknown path, a
 * wrong method): the surface its path belongs to, else the first error-path rule (by priority) that owns it —
 * Ollama's `/api/…`, Bedrock's `/model/…`, Anthropic's `messages`, Gemini's `v1beta` or key, Anthropic's headers —,
 * else OpenAI's.
 * @example errorSurfaceFor(new Request("http://x/s/;/api/tags"), "/api/tags") // ollamaChat: { "error": "…" }
 */
export function errorSurfaceFor(request: Request, path: string): ProviderSurface<any> {
  return surfaceOf(request, path) ?? ERROR_PATHS.find((r) => r.owns(request, path))?.surface ?? SURFACES[0]!;
}

const BY_NAME = new Map<string, ProviderModule>(PROVIDER_MODULES.map((m) => [m.name, m]));

/**
 * The tool-call ids a client sees in a reply, per provider, taken from the renderers themselves (a scripted id, else
 * the one each provider derives from the reply's idSeed), so the journal's canonical view never drifts from the wire.
 * `endpoint` tells a provider's surfaces apart (Bedrock Converse ids are `tooluse_…`, InvokeModel's Anthropic's).
 * @example wireToolCallIds("anthropic", reply) // ["toolu_01…"]
 */
export function wireToolCallIds(provider: ProviderName, reply: Reply, endpoint?: Endpoint): (string | null)[] {
  return (BY_NAME.get(provider)?.toolCallIds ?? openaiToolCallIds)(reply, endpoint);
}

const API_PREFIXES: string[] = PROVIDER_MODULES.flatMap((m) => m.apiPrefixes ?? []);

/** Whether `path` (below any `/s/…` prefix) is below a provider's API prefix (a module's `apiPrefixes`). */
export function isProviderApiPath(path: string): boolean {
  return API_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** Whether a request to `pathname` (prefix included) needs no API key (a module's `openPath`). */
export function isOpenProviderPath(pathname: string): boolean {
  return PROVIDER_MODULES.some((m) => m.openPath?.(pathname) === true);
}

/** Providers a recording proxy forwards to (the clouds' signed requests are not proxied), in registry order. */
export const RECORDABLE: ProviderName[] = PROVIDER_MODULES.filter((m) => m.recordable === true).map((m) => m.name);

/** Loads a reply counter by name (scenario `"usage": "count"`), for a session object (src/providers/reply-counters.ts). */
export { loadReplyCounter } from "../reply-counters";
