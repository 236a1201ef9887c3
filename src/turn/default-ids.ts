/**
 * Ids of the default responder's answers. They derive from where the request sits, never from its
 * content alone: the namespace, the session, and — for an answer the server keeps, whose ids a later request can
 * look up (a Responses `store`, an Anthropic thread) — the request's number in that session's default-responder
 * object (`__responses/{session}`, the object that stores the answer anyway). So two requests never share a stored
 * id, and the same run against a fresh session replays the same ids. An answer nothing keeps takes a hash of the
 * whole request (wire body and conversation) instead of a number: no Durable Object call on its path.
 */
import { conversationHash, type CanonicalRequest } from "../canonical/request";
import { stableHash } from "../util/hash";
import { stateObjectName } from "../providers/openai/responses/state";
import type { ProviderSurface } from "../providers/types";
import { resolveSurface } from "../providers/surface";
import type { Runtime } from "../runtime/types";

/** The counter of `__responses/{session}` that numbers its stored default answers. */
const COUNTER = "ids";

/**
 * The id seed of a default answer to `wire` in `session` ("|" appears in no scenario or session name, so no
 * scripted seed — `{scenario}/{session}/{step}/{attempt}` — equals one).
 * @example await defaultIdSeed(openaiResponses, rt, wire, request, "run-1", bodyText) // "default|run-1|3"
 */
export async function defaultIdSeed<W>(surface: ProviderSurface<W>, rt: Runtime, wire: W, request: CanonicalRequest, session: string, bodyText: string): Promise<string> {
  const where = rt.caller ? `${rt.caller.namespace.space}|${session}` : session;
  if (resolveSurface(surface).stores(wire)) {
    const n = await rt.sessions.get(stateObjectName(undefined, session)).increment(COUNTER);
    return `default|${where}|${n}`;
  }
  return `default|${where}|${conversationHash(request)}|${stableHash(bodyText)}`;
}

/** Bumps counter `key` of the session's default-responder object (`__responses/{session}`) and returns it, from 1. */
export function defaultCounter(rt: Runtime, session: string, key: string): Promise<number> {
  return Promise.resolve(rt.sessions.get(stateObjectName(undefined, session)).increment(key));
}
