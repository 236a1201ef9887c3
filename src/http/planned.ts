/**
 * A paced stream answered as a value: the status and headers of a Response, and the plan of its events instead of a
 * body, for a runtime that plays plans itself (RequestContext.playsPlans: Node over HTTP/1.1, one shared timer for
 * every open stream). A runtime that does not play plans is never given one.
 */
import type { PacedPlan } from "./sse";
import { Response } from "./web";

export class PlannedResponse extends Response {
  constructor(
    readonly plan: PacedPlan,
    init: ResponseInit,
  ) {
    super(null, init);
  }
}
