/**
 * The request's side of rendering: an HTTP request's `Exec` over its runtime's `RequestContext`
 * (src/runtime/types.ts), and the same Exec rescheduled from a later instant.
 */
import type { BodyPipe } from "../http/sse";
import type { Exec, RequestContext } from "../runtime/types";

/**
 * An HTTP request's Exec. Its abort signal is made only when something waits on it (a delay, a web stream, a paced
 * writer): the adapter creates an AbortController the first time `request.signal` is read, which a JSON turn
 * answered at once never needs. The context's functions, too, are wrapped when read (a stream, a scripted break),
 * not in the constructor: with three closures made there for every request, V8 tenured node:http's allocation sites
 * (each request's objects then outlived scavenges; docs/performance.md, fourth pass).
 */
export class RequestExec implements Exec {
  constructor(
    private readonly request: Request,
    private readonly ctx: RequestContext,
    readonly arrivedAt: number,
  ) {}

  get waitUntil(): (p: Promise<unknown>) => void {
    const ctx = this.ctx;
    return (p) => ctx.waitUntil(p);
  }

  get breakConnection(): (() => void) | undefined {
    const ctx = this.ctx;
    return ctx.breakConnection ? () => ctx.breakConnection!() : undefined;
  }

  get playsPlans(): boolean {
    return this.ctx.playsPlans === true;
  }

  get bodyPipe(): (() => BodyPipe) | undefined {
    const ctx = this.ctx;
    return ctx.bodyPipe ? () => ctx.bodyPipe!() : undefined;
  }

  get signal(): AbortSignal {
    return this.request.signal;
  }

  /** The same request's Exec with its schedule counting from `arrivedAt`. */
  at(arrivedAt: number): RequestExec {
    return new RequestExec(this.request, this.ctx, arrivedAt);
  }

  /** The same request's Exec over `wrap(ctx)` (src/turn/otel.ts watches what a body does later); its signal still lazy. */
  over(wrap: (ctx: RequestContext) => RequestContext): RequestExec {
    return new RequestExec(this.request, wrap(this.ctx), this.arrivedAt);
  }
}

/**
 * `exec` whose host context is `wrap`'s: a RequestExec stays one (its signal made only when read), any other Exec is
 * rebuilt over the wrapped functions.
 */
export function execOver(exec: Exec, wrap: (ctx: RequestContext) => RequestContext): Exec {
  if (exec instanceof RequestExec) return exec.over(wrap);
  const ctx: RequestContext = { waitUntil: exec.waitUntil };
  if (exec.breakConnection) ctx.breakConnection = exec.breakConnection;
  if (exec.playsPlans) ctx.playsPlans = true;
  if (exec.bodyPipe) ctx.bodyPipe = exec.bodyPipe;
  const wrapped = wrap(ctx);
  const out: Exec = { waitUntil: (p) => wrapped.waitUntil(p) };
  if (exec.signal) out.signal = exec.signal;
  if (exec.arrivedAt !== undefined) out.arrivedAt = exec.arrivedAt;
  if (wrapped.breakConnection) out.breakConnection = () => wrapped.breakConnection!();
  if (wrapped.playsPlans) out.playsPlans = true;
  if (wrapped.bodyPipe) out.bodyPipe = () => wrapped.bodyPipe!();
  return out;
}

/** `exec` with its schedule counting from `arrivedAt` (a RequestExec keeps its signal lazy). */
export function execAt(exec: Exec, arrivedAt: number): Exec {
  return exec instanceof RequestExec ? exec.at(arrivedAt) : { ...exec, arrivedAt };
}
