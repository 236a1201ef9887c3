/**
 * The runtime boundary: what the shared request path (router, routes, providers) gets from the runtime it runs in.
 * Workers builds it from its bindings (src/hosts/workers), Node from its options (src/hosts/node). Nothing above
 * this interface knows which runtime it runs in.
 */
import type { BodyBudget } from "../http/body-budget";
import type { BodyPipe } from "../http/sse";
import type { ScenarioStore } from "../scenario/store";
import type { SessionStore } from "../session/types";
import type { Caller, Tenancy } from "../tenancy/types";
import type { ObjectStore } from "../objects/store";
import type { WebhookHub } from "../webhooks/types";

/** Settings, under the Worker variables' names (`mockllm serve` reads them from its environment). */
export interface RuntimeVars {
  /** Admin bearer token. Unset: admin answers 503. */
  ADMIN_TOKEN?: string;
  /** Default responder pacing; 0 = no delay. */
  DEFAULT_WORDS_PER_SECOND?: string;
  /** "off": requests no scenario selects get a 404 instead of the default responder. */
  DEFAULT_RESPONDER?: string;
  /** "json" (the Worker's default in wrangler.toml): one JSON line per request in the log; "off": none. */
  REQUEST_LOG?: string;
  /** "deny": provider requests without a namespace key get 401 (default "allow"). */
  ANONYMOUS?: string;
  /** Seconds a session may stay idle before it is deleted (default 604800, 7 days). */
  SESSION_TTL?: string;
  /** Origins a browser page may call from (src/http/cors.ts): a comma list, or `*`. Unset: none (`mockllm serve`: `*`). */
  CORS_ORIGINS?: string;
  /** Signs Realtime ephemeral keys (src/util/ephemeral.ts); unset: the admin token. */
  EPHEMERAL_KEY_SECRET?: string;
  /** Most batch lines one read of a batch runs (default 1000); a bigger batch goes on at the next read (src/objects). */
  BATCH_LINES_PER_READ?: string;
  /** Seeded faults for the default responder: `seed=42,rate=0.1,kinds=rate_limit+overloaded` (src/scenario/chaos.ts). */
  CHAOS?: string;
  /** `count`: the default responder's usage counted with the model's tokenizer where a surface can (docs/reference/usage.md). */
  USAGE?: string;
  /** OpenTelemetry: the OTLP/HTTP endpoint spans are sent to (`{endpoint}/v1/traces`); unset, no spans (src/turn/otel.ts). */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  /** `key=value,…` headers sent with each export. */
  OTEL_EXPORTER_OTLP_HEADERS?: string;
  /** `http/protobuf` (the default), `http/json`; `grpc` is not supported (a warning, then http/protobuf). */
  OTEL_EXPORTER_OTLP_PROTOCOL?: string;
  /** The spans' `service.name` (default `mockllm`). */
  OTEL_SERVICE_NAME?: string;
  /** Milliseconds an export POST may take before it is given up (default 10000). */
  OTEL_EXPORTER_OTLP_TIMEOUT?: string;
  /** The traces endpoint, used as it is (no `/v1/traces` added); each `…_TRACES_*` overrides its general setting. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_HEADERS?: string;
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: string;
  OTEL_EXPORTER_OTLP_TRACES_TIMEOUT?: string;
  /** Most spans waiting to be sent; newer ones are dropped (default 2048). */
  OTEL_BSP_MAX_QUEUE_SIZE?: string;
  /** Most spans one export POST carries (default 512). */
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE?: string;
  /** Hosts a remote MCP call may reach (`host` or `host:port`, comma list); unset: the request's own host (src/turn/mcp-client.ts). */
  MCP_ALLOWED_HOSTS?: string;
  /** Bound on each remote MCP JSON-RPC call, in ms (default 10000). */
  MCP_TIMEOUT_MS?: string;
  /** Hosts a webhook endpoint may name (`host` or `host:port`, comma list; `*`: any); unset: loopback and the request's own host (src/webhooks/hosts.ts). */
  WEBHOOK_ALLOWED_HOSTS?: string;
  /** A webhook delivery not taken is tried again after 1, 2, 4 and 8 of these ms (default 1000). */
  WEBHOOK_RETRY_MS?: string;
}

export interface Runtime {
  sessions: SessionStore;
  scenarios: ScenarioStore;
  vars: RuntimeVars;
  /** Namespaces (src/tenancy): the key registry and per-namespace scenario stores. Absent: no namespaces. */
  tenancy?: Tenancy;
  /** Set on a namespace-scoped runtime (tenancy/scope.ts): whose key this request carries. */
  caller?: Caller;
  /** Files and batches (src/objects): memory on Node, an R2 bucket on Workers. Absent: those routes answer 404. */
  objects?: ObjectStore;
  /** Where one structured line per request goes (Workers: the log `wrangler tail` shows); absent: not logged. */
  log?(entry: RequestLog): void;
  /** Large request bodies served at once (src/http/body-budget.ts): the Worker isolate's; absent on Node (no bound). */
  bodies?: BodyBudget;
  /** A namespace's webhooks (src/webhooks; `""`: the default namespace). Absent: the endpoint routes answer 404, no event is sent. */
  webhooks?(space: string): WebhookHub;
}

/** One request, as logged: why it got what it got, without admin access. */
export interface RequestLog {
  method: string;
  path: string;
  status: number;
  /** `response` | `failure` | `mismatch` | `default` | `error` (x-mockllm-outcome); absent for non-provider routes. */
  outcome?: string;
  scenario?: string;
  session?: string;
  step?: string;
  /** From arrival to the response's headers (a stream goes on after). */
  ms: number;
}

/** What one request's handling may ask of its host: work that outlives the response (a stream's writer). */
export interface RequestContext {
  waitUntil(promise: Promise<unknown>): void;
  /**
   * Breaks this request's connection at once (a scripted `network_error`). Where absent (Workers), erroring the
   * response body breaks it; a Node server would instead report the error and write it into the body.
   */
  breakConnection?(): void;
  /**
   * The runtime plays this request's paced stream itself (Node over HTTP/1.1: one shared timer for every open stream,
   * writes straight to the socket): a response that streams on a schedule is returned as a `PlannedResponse`
   * (src/http/planned.ts) — status, headers and the plan of its events as a value — which the runtime sends. Absent
   * (Workers, HTTP/2): the body is a web stream written on `waitUntil`.
   */
  playsPlans?: boolean;
  /**
   * A byte pipe for a body written from `waitUntil` (a paced stream, a scripted break): the readable goes in the
   * Response; a write settles once the runtime has taken the chunk. Absent: a web TransformStream with a high-water
   * mark of 0 (sse.ts `bodyPipe`). Workers: workerd's IdentityTransformStream, whose writes reach the response
   * without a JavaScript stream queue.
   */
  bodyPipe?(): BodyPipe;
}

/** What the Worker's execution context offers a response that outlives the handler. */
export interface Exec {
  waitUntil: (p: Promise<unknown>) => void;
  signal?: AbortSignal;
  /** See RequestContext.breakConnection. */
  breakConnection?: () => void;
  /** Epoch ms the request arrived: `latencyMs` and stream pacing count from here, not from when rendering starts. */
  arrivedAt?: number;
  /** See RequestContext.playsPlans. */
  playsPlans?: boolean;
  /** See RequestContext.bodyPipe. */
  bodyPipe?: () => BodyPipe;
}
