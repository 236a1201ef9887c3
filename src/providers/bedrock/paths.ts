/**
 * Bedrock Runtime paths: `/model/{modelId}/{operation}`, the model id percent-encoded as the SDKs send it
 * (`anthropic.claude-3-5-haiku-20241022-v1%3A0`, ARNs with `%2F`).
 */
import { safeDecode } from "../../http/url";

export type BedrockOperation = "converse" | "converse-stream" | "invoke" | "invoke-with-response-stream";

const PATH = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/;

/**
 * The model and operation a path names, if it is a Bedrock Runtime path.
 * @example bedrockTarget("/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream") // { modelId: "us.anthropic.claude-sonnet-4-20250514-v1:0", operation: "converse-stream" }
 */
export function bedrockTarget(path: string): { modelId: string; operation: BedrockOperation } | undefined {
  const m = PATH.exec(path);
  if (!m) return undefined;
  return { modelId: safeDecode(m[1]!), operation: m[2] as BedrockOperation };
}
