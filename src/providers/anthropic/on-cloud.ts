/**
 * Claude on the clouds: Bedrock's InvokeModel and Vertex AI's rawPredict take an Anthropic Messages body with the
 * model in the path and `anthropic_version` in the body. Shared here, with Anthropic, by both clouds.
 */
import type { MessagesRequest } from "./wire";
import type { ParseResult } from "../types";
import { parseMessagesRequest } from "./parse";

/**
 * An Anthropic Messages body sent to Claude on a cloud (Bedrock InvokeModel, Vertex rawPredict), parsed as the
 * Anthropic surface would, with the model and `stream` from the path; `provider` is the cloud's (`bedrock`, `vertex`).
 */
export function parseAnthropicOnCloud(body: unknown, headers: Headers, cloud: { provider: "bedrock" | "vertex"; model: string; stream: boolean; version: string }): ParseResult<MessagesRequest> {
  const obj = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  if (typeof obj.anthropic_version !== "string" || obj.anthropic_version === "") {
    return {
      ok: false,
      error: {
        code: "invalid_request",
        message: `Malformed input request: #: required key [anthropic_version] not found (mockllm: send "anthropic_version": "${cloud.version}"), please reformat your input and try again.`,
      },
    };
  }
  const parsed = parseMessagesRequest({ ...obj, model: cloud.model, stream: cloud.stream }, headers);
  if (!parsed.ok) return parsed;
  return { ok: true, wire: parsed.wire, request: { ...parsed.request, provider: cloud.provider } };
}
