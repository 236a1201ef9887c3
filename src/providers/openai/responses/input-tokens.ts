/**
 * `POST /v1/responses/input_tokens` (protocols.md 10.1.3): `{ object: "response.input_tokens", input_tokens }`, counted
 * as the default responder reports a Responses turn's `usage.input_tokens` (words of the instructions and the
 * conversation, `previous_response_id` resolved). Every body field is optional; nothing is journaled.
 */
import type { Runtime } from "../../../runtime/types";
import { requestWords } from "../../../default/responder";
import { readJsonBody } from "../../../http/body";
import { apiError, type ApiError } from "../../../http/errors";
import { makeRequestId } from "../../../http/ids";
import { checkOpenAIAuth, OPENAI_HEADERS, renderOpenAIError } from "../errors";
import { parseResponsesRequest } from "./parse";
import { prepareResponsesRequest } from "./state";
import { Response } from "../../../http/web";
import { responsesInputTokens } from "../usage/surfaces";

const INPUT_TOKENS_PATH = /^\/(?:v1\/)?responses\/input_tokens$/;

/** Whether `path` (below any `/s/…` prefix) is the input-token count. */
export function isInputTokensPath(path: string): boolean {
  return INPUT_TOKENS_PATH.test(path);
}

/** Whether the scenario `name` (if any) counts usage. */
async function scenarioCounts(rt: Runtime, name: string | undefined): Promise<boolean> {
  if (name === undefined || name === "") return false;
  return (await rt.scenarios.get(name))?.scenario.usage === "count";
}

function reply(body: unknown, status: number, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-request-id": requestId, ...OPENAI_HEADERS, ...headers },
  });
}

function fail(error: ApiError, requestId: string): Response {
  const r = renderOpenAIError(error, requestId);
  return reply(r.body, r.status, requestId, r.headers);
}

/**
 * Answers the count.
 * @example await countInputTokens(request, rt) // 200 {"object":"response.input_tokens","input_tokens":3}
 */
export async function countInputTokens(request: Request, rt: Runtime, prefix?: { scenario?: string }): Promise<Response> {
  const early = makeRequestId(`input_tokens|${request.method} ${request.url}`);
  const auth = checkOpenAIAuth(request.headers);
  if (auth) return fail(auth, early);
  if (request.method !== "POST") return fail(apiError("method_not_allowed", `Use POST for ${new URL(request.url).pathname}.`), early);
  const body = await readJsonBody(request);
  if (!body.ok) return fail(body.error, early);
  const requestId = makeRequestId(`input_tokens|${body.text}`);
  const raw = body.value;
  const first = parseResponsesRequest({ ...raw, model: raw.model ?? "gpt-5", input: raw.input ?? [], stream: false }, request.headers);
  if (!first.ok) return fail(first.error, requestId);
  const parsed = await prepareResponsesRequest(first.wire, first.request, rt);
  if (!parsed.ok) return fail(parsed.error, requestId);
  // The tokenizer's count where a turn's `usage.input_tokens` would be counted (docs/reference/usage.md): `USAGE=count`,
  // or a scenario with `"usage": "count"` named by the `/s/…` prefix or `x-mock-scenario`.
  const counted = rt.vars.USAGE?.trim().toLowerCase() === "count" || (await scenarioCounts(rt, prefix?.scenario ?? request.headers.get("x-mock-scenario")?.trim()));
  const inputTokens = counted ? await responsesInputTokens(parsed.request, parsed.wire.body.tools) : requestWords(parsed.request);
  return reply({ object: "response.input_tokens", input_tokens: inputTokens }, 200, requestId);
}
