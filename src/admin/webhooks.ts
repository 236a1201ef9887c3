/**
 * `GET /admin/webhooks`: the caller's project's webhooks as they stand — its endpoints (no secrets), how many
 * deliveries wait, and the last attempts with what each endpoint answered — where a shared deployment's logs are out
 * of a team's reach.
 */
import type { IRequest } from "itty-router";
import type { Runtime } from "../runtime/types";
import { hubOf } from "../webhooks/hub";
import type { AdminAnswers } from "./answers";
import { adminError, json } from "./http";

export async function webhooksRoute(_req: IRequest, rt: Runtime): Promise<Response> {
  const hub = hubOf(rt);
  if (hub === undefined) return adminError(404, "this runtime keeps no webhooks");
  return json((await hub.report()) satisfies AdminAnswers["GET /admin/webhooks"]);
}
