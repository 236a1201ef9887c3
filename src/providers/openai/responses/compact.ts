/**
 * `POST /v1/responses/compact` (protocols.md 10.1.1): a turn like any other (selection, the session's compaction
 * step or the default compaction, failures, the journal), answered with the `response.compaction` object — the user
 * messages of the conversation, then one `compaction` item. Never streamed, never stored.
 */
import type { Reply } from "../../../canonical/outcome";
import { stableHex } from "../../../util/hash";
import type { ParseResult, ProviderSurface, RenderContext, RequestTarget } from "../../types";
import { checkOpenAIAuth, openAIFailureHeaders, renderOpenAIError } from "../errors";
import { openAIRateLimitHeaders } from "../rate-limits";
import { compactionBlob, responseCompaction } from "./compaction";
import { parseResponsesRequest } from "./parse";
import { responseUsage } from "./render-json";
import { prepareResponsesRequest } from "./state";
import type { ResponsesRequest } from "./wire";
import { isRecord } from "../../../http/json";

/** The model a `model: null` compact request is answered as. */
const NULL_MODEL = "gpt-5";

/**
 * The compact body: `model` is a required key (null allowed), `input` optional; every other field as on
 * `/v1/responses` (Codex also sends `tools`, `reasoning`, `text`, …), accepted and not streamed.
 */
export function parseCompactRequest(raw: unknown, headers: Headers, _target?: RequestTarget): ParseResult<ResponsesRequest> {
  if (isRecord(raw) && !Object.hasOwn(raw, "model")) {
    return { ok: false, error: { code: "invalid_request", message: "Missing required parameter: 'model'.", param: "model", providerCode: "missing_required_parameter" } };
  }
  const body = isRecord(raw) ? { ...raw, model: raw.model ?? NULL_MODEL, input: raw.input ?? [], stream: false } : raw;
  const parsed = parseResponsesRequest(body, headers);
  if (!parsed.ok) return parsed;
  return { ok: true, wire: parsed.wire, request: { ...parsed.request, compactionRequested: true } };
}

/** Keeps the request a compaction request once `previous_response_id` is resolved. */
async function prepareCompact(...args: Parameters<typeof prepareResponsesRequest>): Promise<ParseResult<ResponsesRequest>> {
  const prepared = await prepareResponsesRequest(...args);
  return prepared.ok ? { ...prepared, request: { ...prepared.request, compactionRequested: true } } : prepared;
}

/**
 * The `response.compaction` object.
 * @example renderCompactJson(reply, ctx).output.at(-1).type // "compaction"
 */
export function renderCompactJson(reply: Reply, ctx: RenderContext<ResponsesRequest>) {
  const root = stableHex(`compact|${reply.idSeed}`, 48);
  const itemId = (prefix: string, n: number) => `${prefix}_${root}${n.toString(16).padStart(2, "0")}`;
  const users = ctx.request.messages.flatMap((m) => (m.role === "user" ? [m.text] : []));
  const retained = users.map((text, i) => ({
    type: "message",
    id: itemId("msg", i),
    role: "user",
    status: "completed",
    content: [{ type: "input_text", text }],
  }));
  const summary = responseCompaction(reply, ctx.request) ?? "";
  return {
    id: `cmp_${root}`,
    object: "response.compaction",
    created_at: ctx.created,
    output: [...retained, { type: "compaction", id: itemId("cmp", retained.length), encrypted_content: compactionBlob(summary) }],
    usage: responseUsage(reply),
  };
}

/** OpenAI `POST /v1/responses/compact` (and `/responses/compact`). */
export const openaiResponsesCompact: ProviderSurface<ResponsesRequest> = {
  provider: "openai",
  endpoint: "responses",
  paths: ["/v1/responses/compact", "/responses/compact"],
  requestIdHeader: "x-request-id",
  checkHeaders: checkOpenAIAuth,
  parse: parseCompactRequest,
  prepare: prepareCompact,
  renderError: renderOpenAIError,
  failureHeaders: openAIFailureHeaders,
  rateLimitHeaders: openAIRateLimitHeaders,
  renderJson: renderCompactJson,
  // The request is never a stream (parse sets `stream: false`), so there is no transcript to render.
  renderEvents: () => [],
  renderStreamError: () => [],
};
