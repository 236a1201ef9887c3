/**
 * The Workers runtime: session state in Durable Objects, scenarios in KV over the bundled defaults.
 */
import type { Session } from "../../session/types";
import type { RequestLog, Runtime } from "../types";
import type { WorkerEnv } from "./env";
import { KvScenarioStore } from "./kv-scenarios";
import { SOCKET_INIT_HEADER, SOCKET_NAME_HEADER } from "./sockets";

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
    ...(env.REQUEST_LOG?.trim().toLowerCase() === "json"
      ? { log: (entry: RequestLog) => console.log(JSON.stringify({ mockllm: "request", ...entry })) }
      : {}),
  };
}
