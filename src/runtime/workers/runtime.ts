/**
 * The Workers runtime: session state in Durable Objects, scenarios in KV over the bundled defaults.
 */
import type { Session } from "../../session/types";
import type { RequestLog, Runtime } from "../types";
import type { WorkerEnv } from "./env";
import { dropNamespaceKeys, KvScenarioStore, namespacePrefix } from "./kv-scenarios";
import { SOCKET_INIT_HEADER, SOCKET_NAME_HEADER } from "./sockets";
import { REGISTRY_NAME } from "./registry-object";
import type { Registry, Tenancy } from "../../tenancy/types";
import { directoryName } from "../../tenancy/scope";

/**
 * Namespaces over the bindings: the registry object, a KV prefix per namespace. A deleted namespace's sessions are
 * out of reach at once (a re-created name gets a new storage name); its directory object then purges every object
 * the namespace wrote to, in batches on its alarm (session-object.ts `purgeListed`); its uploads are deleted here.
 */
function workersTenancy(env: WorkerEnv): Tenancy {
  let registry: Registry | undefined;
  return {
    // Built on first use: a request in the default namespace never makes a stub.
    get registry(): Registry {
      registry ??= env.REGISTRY.getByName(REGISTRY_NAME) as unknown as Registry;
      return registry;
    },
    scenarios: (space) => new KvScenarioStore(env.SCENARIOS, namespacePrefix(space)),
    dropSpace: async (space) => {
      await env.SESSIONS.getByName(directoryName(space)).purgeListed();
      await dropNamespaceKeys(env.SCENARIOS, space);
    },
  };
}

/** The runtime over a Worker's bindings; cheap enough to build per request. */
export function workersRuntime(env: WorkerEnv): Runtime {
  return {
    sessions: {
      get: (name): Session => env.SESSIONS.getByName(name),
      // The session's Durable Object accepts the socket (hibernation API); its init travels in a header.
      connect: (name, request, init) => {
        const headers = new Headers(request.headers);
        headers.set(SOCKET_INIT_HEADER, JSON.stringify(init));
        headers.set(SOCKET_NAME_HEADER, name);
        return env.SESSIONS.getByName(name).fetch(new Request(request.url, { method: "GET", headers }));
      },
    },
    scenarios: new KvScenarioStore(env.SCENARIOS),
    vars: env,
    ...(env.REGISTRY ? { tenancy: workersTenancy(env) } : {}),
    ...(env.REQUEST_LOG?.trim().toLowerCase() === "json" ? { log: (entry: RequestLog) => console.log(JSON.stringify({ mockllm: "request", ...entry })) } : {}),
  };
}
