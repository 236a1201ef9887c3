/**
 * A provider module: everything one provider adds to the server, declared in its folder (`providers/<name>/module/index.ts`)
 * and listed once in `PROVIDER_MODULES` (registry.ts). The router, early errors, the journal's tool-call ids, socket
 * acceptance and the recording flags loop over the registry; none of them names a provider.
 * Only `name` and `surfaces` are required: `{ name: "cohere", surfaces: [cohereRerank] }` is a whole module.
 */
import type { Reply } from "../../canonical/outcome";
import type { Endpoint, ProviderName } from "../../canonical/request";
import type { ApiError } from "../../http/errors";
import type { SocketContext, SocketProtocol } from "../../sockets/types";
import type { ProviderSurface, SideRoute } from "../types";
import type { Runtime } from "../../runtime/types";
import type { Prefix } from "../../turn/select";

export type { SideRoute, SideRouteContext } from "../types";

/**
 * Which early-error paths (a bad `/s/…` name, an unknown path, a wrong method) speak this provider's error shape.
 * Rules of every module are tried in ascending `priority`; the first that owns the request names the surface.
 */
export interface ErrorPathRule {
  priority: number;
  /** `path` is below any prefix; `request` gives the whole URL, the query and the headers. */
  owns(request: Request, path: string): boolean;
  /** Whose error shape answers. */
  surface: ProviderSurface<any>;
}

/** A WebSocket protocol a provider speaks: where, the checks answered as plain HTTP before the upgrade, the state machine. */
export interface SocketSurface {
  /** Kept in `SocketInit.kind` (plain data across Durable Object hibernation): unique over the registry. */
  kind: string;
  endpoint: Endpoint;
  /** Whether the path (below any prefix) speaks this protocol. */
  matchPath(path: string): boolean;
  /** Whose error shape answers a refused upgrade (and the gate's refusals on this path). */
  surface: ProviderSurface<any>;
  /** Auth and required parameters, after the session-name check; `offered` are the sub-protocols the client offered. */
  check(headers: Headers, query: URLSearchParams, offered: string[]): ApiError | undefined;
  /** The path kept in `SocketInit` (default: as requested). */
  initPath?(path: string): string;
  /**
   * What the socket plays when its URL names something kept (the Realtime API's `?call_id=` of an accepted SIP call):
   * the scenario and session, and the configuration it starts with; an error refuses the upgrade. Undefined: the
   * URL's own prefix. Not asked for a socket an ephemeral key opens (the key carries its binding).
   */
  bind?(query: URLSearchParams, rt: Runtime, asked: Prefix): Promise<{ prefix: Prefix; config: Record<string, unknown> } | ApiError | undefined>;
  /** The sub-protocol echoed to the client, if it offered one this protocol speaks. */
  subprotocol?(offered: string[]): string | undefined;
  /** The per-socket state machine; `saved` is what its `state()` returned before the host slept. */
  open(socket: SocketContext, saved: unknown): SocketProtocol;
  /**
   * The largest client message (bytes) this protocol takes; one over it closes the socket 1009 "message too big".
   * Default MAX_SOCKET_MESSAGE_BYTES (src/sockets/limits.ts, 32 MiB).
   */
  maxMessageBytes?: number;
}

export interface ProviderModule {
  name: ProviderName;
  /** Its HTTP surfaces, in the order `surfaceFor` tries them. */
  surfaces: ProviderSurface<any>[];
  sideRoutes?: SideRoute[];
  sockets?: SocketSurface[];
  /** Endpoints it journals besides its surfaces' and sockets' (a side route that parses a canonical request). */
  endpoints?: Endpoint[];
  errorPaths?: ErrorPathRule[];
  /**
   * The tool-call ids a client sees in a reply (a scripted id, else the one the renderer derives), one per call in
   * order, null where the wire carries none. Default: OpenAI's (what OpenAI-compatible surfaces render).
   */
  toolCallIds?(reply: Reply, endpoint: Endpoint | undefined): (string | null)[];
  /**
   * Path prefixes that are this provider's API (`/v1` for OpenAI's, `/model/` for Bedrock's, `/openai/` for Azure's):
   * an unknown path below one is refused in the API's error shape, not as a plain 404.
   */
  apiPrefixes?: string[];
  /**
   * Whether a request to `pathname` (the whole path, any `/s/…` prefix included) needs no API key, even when
   * `ANONYMOUS=deny` (files the API hands out by URL, like OpenAI's image files).
   */
  openPath?(pathname: string): boolean;
  /**
   * Whether a scenario's `record.upstream.{name}` proxies this provider's requests and records them (contract
   * section 8). The key must exist in `RecordSchema` (src/scenario/schema.ts); test/unit/provider-registry.test.ts
   * checks both agree.
   */
  recordable?: boolean;
  /** Its rows in the ready banner `mockllm serve` prints (generated into src/client/cli/banner-rows.gen.ts). */
  banner?: BannerRow[];
}

/** A row of the ready banner: what the surfaces are called, the base URL their clients take below the server's, the docs page. */
export interface BannerRow {
  name: string;
  /** Below the server's base URL (`/v1` for OpenAI's clients, empty for those that add their own version). */
  below: string;
  /** Under the package's `docs/`. */
  page: string;
  /**
   * `beside`: surfaces beside the chat APIs (moderations, rerank), listed after every chat API's row; `socket`:
   * WebSocket protocols, listed last, below the server's `ws://` URL.
   */
  group?: "beside" | "socket";
}

/** The ready banner's rows, as the modules declare them: the chat APIs' in module order, then those beside them, then the sockets'. */
export function bannerRows(modules: ProviderModule[]): BannerRow[] {
  const rows = modules.flatMap((m) => m.banner ?? []);
  return [undefined, "beside", "socket"].flatMap((group) => rows.filter((r) => r.group === group));
}

/** Every endpoint a module serves: its surfaces', its sockets' and the extra ones it declares. */
export function moduleEndpoints(m: ProviderModule): Endpoint[] {
  return [...new Set([...m.surfaces.map((s) => s.endpoint), ...(m.sockets ?? []).map((s) => s.endpoint), ...(m.endpoints ?? [])])];
}
