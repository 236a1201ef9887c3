/**
 * The default responder (contract section 7): answers when no scenario is selected.
 */
import type { CanonicalRequest } from "../canonical/request";
import { lastUserMessage } from "../canonical/request";
import type { Reply } from "../canonical/outcome";
import { stableHash } from "../http/hash";
import { resolveReply } from "../scenario/engine";

export interface DefaultOptions {
  wordsPerSecond: number;
}

/** A deterministic placeholder answer: echoes the last user message. */
export function defaultReply(req: CanonicalRequest, _opts: DefaultOptions): Reply {
  const last = lastUserMessage(req) ?? "";
  const seed = `default/${stableHash(JSON.stringify(req.messages))}`;
  return { ...resolveReply(undefined, { respond: { text: last } }, req, seed) };
}
