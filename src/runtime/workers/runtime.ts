/**
 * The Workers runtime: session state in Durable Objects, scenarios in KV over the bundled defaults.
 */
import type { Session } from "../../session/types";
import type { RequestLog, Runtime } from "../types";
import type { WorkerEnv } from "./env";
import { KvScenarioStore } from "./kv-scenarios";

/** The runtime over a Worker's bindings; cheap enough to build per request. */
export function workersRuntime(env: WorkerEnv): Runtime {
  return {
    sessions: { get: (name): Session => env.SESSIONS.getByName(name) },
    scenarios: new KvScenarioStore(env.SCENARIOS),
    vars: env,
    ...(env.REQUEST_LOG?.trim().toLowerCase() === "json"
      ? { log: (entry: RequestLog) => console.log(JSON.stringify({ mockllm: "request", ...entry })) }
      : {}),
  };
}
