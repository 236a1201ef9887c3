/**
 * The Runtime a socket's turns run with. The router's Runtime (possibly scoped to a namespace) decides the upgrade, but
 * the socket lives on in its host (Node's upgrade handler; the session Durable Object on Workers), which rebuilds a
 * Runtime from its own bindings and the socket's plain-data `SocketInit`. This is the one place that rebuild happens:
 * whatever scoping the router applied to the upgrade's Runtime must be applied here again from `init` (a scoped
 * SessionStore's `connect` records what it needs in the init it forwards).
 */
import type { Runtime } from "../runtime/types";
import type { SocketInit } from "../session/socket";
import { scopeRuntime } from "../tenancy/scope";

/**
 * @example const rt = socketRuntime(workersRuntime(env), init)
 */
export function socketRuntime(base: Runtime, init: SocketInit): Runtime {
  return init.caller !== undefined && base.tenancy ? scopeRuntime(base, init.caller) : base;
}
