/**
 * The Workers runtime: session state in Durable Objects, scenarios in KV over the bundled defaults.
 */
import { R2ObjectStore } from "./r2-objects";
import { dropPrefix } from "../../objects/store";
import type { Session, SessionStore } from "../../session/types";
import type { SocketInit } from "../../session/socket";
import type { ScenarioStore } from "../../scenario/store";
import type { RequestLog, Runtime } from "../../runtime/types";
import type { WorkerEnv } from "./env";
import { dropNamespaceKeys, KvScenarioStore, namespacePrefix } from "./kv-scenarios";
import { SOCKET_INIT_HEADER, SOCKET_NAME_HEADER } from "./sockets";
import { REGISTRY_NAME } from "./registry-object";
import type { Registry, Tenancy } from "../../tenancy/types";
import { directoryName, sessionPrefix } from "../../tenancy/scope";
import { BodyBudget, ISOLATE_BODY_BUDGET } from "../../http/body-budget";
import { webhookObjectName } from "./webhook-object";
import type { WebhookHub } from "../../webhooks/hub";

/**
 * Namespaces over the bindings: the registry object, a KV prefix per namespace. A deleted namespace's sessions are
 * out of reach at once (a re-created name gets a new storage name); its directory object then purges every object
 * the namespace wrote to, in batches on its alarm (session-object.ts `purgeListed`); its uploads are deleted here.
 * (Classes, like the sessions below: a runtime is built per request, and an object literal with a getter or closures
 * costs more to make than an instance whose methods sit on the prototype.)
 */
class WorkersTenancy implements Tenancy {
  private stub: Registry | undefined;

  constructor(private readonly env: WorkerEnv) {}

  // Built on first use: a request in the default namespace never makes a stub.
  get registry(): Registry {
    this.stub ??= this.env.REGISTRY.getByName(REGISTRY_NAME) as unknown as Registry;
    return this.stub;
  }

  scenarios(space: string): ScenarioStore {
    return new KvScenarioStore(this.env.SCENARIOS, namespacePrefix(space));
  }

  async dropSpace(space: string): Promise<void> {
    await this.env.SESSIONS.getByName(directoryName(space)).purgeListed();
    await dropNamespaceKeys(this.env.SCENARIOS, space);
    if (this.env.FILES) await dropPrefix(new R2ObjectStore(this.env.FILES), sessionPrefix(space));
    await this.env.WEBHOOKS?.getByName(webhookObjectName(space)).drop();
  }
}

class WorkersSessions implements SessionStore {
  /** A body crosses the RPC as its text: a string is copied, an object graph serialised and rebuilt (~270 µs of a 25 KB turn). */
  readonly sendsBodyText = true;

  constructor(private readonly env: WorkerEnv) {}

  get(name: string): Session {
    return this.env.SESSIONS.getByName(name);
  }

  // The session's Durable Object accepts the socket (hibernation API); its init travels in a header.
  connect(name: string, request: Request, init: SocketInit): Promise<Response> {
    const headers = new Headers(request.headers);
    headers.set(SOCKET_INIT_HEADER, JSON.stringify(init));
    headers.set(SOCKET_NAME_HEADER, name);
    return this.env.SESSIONS.getByName(name).fetch(new Request(request.url, { method: "GET", headers }));
  }
}

function logJson(entry: RequestLog): void {
  console.log(JSON.stringify({ mockllm: "request", ...entry }));
}

/**
 * `Runtime.webhooks` on Workers: the namespace's `WebhookObject`. One function for every runtime (no closure made per
 * request), called as the runtime's method: its `vars` are the Worker's bindings.
 */
function webhooksOf(this: Runtime, space: string): WebhookHub {
  return (this.vars as WorkerEnv).WEBHOOKS!.getByName(webhookObjectName(space)) as unknown as WebhookHub;
}

/** The isolate's budget of large request bodies served at once (a number, shared by the isolate's requests). */
const ISOLATE_BODIES = new BodyBudget(ISOLATE_BODY_BUDGET);

/** The runtime over a Worker's bindings; cheap enough to build per request. */
export function workersRuntime(env: WorkerEnv): Runtime {
  const rt: Runtime = { sessions: new WorkersSessions(env), scenarios: new KvScenarioStore(env.SCENARIOS), vars: env, bodies: ISOLATE_BODIES };
  if (env.REGISTRY) rt.tenancy = new WorkersTenancy(env);
  if (env.FILES) rt.objects = new R2ObjectStore(env.FILES);
  if (env.WEBHOOKS) rt.webhooks = webhooksOf;
  if (env.REQUEST_LOG?.trim().toLowerCase() === "json") rt.log = logJson;
  return rt;
}
