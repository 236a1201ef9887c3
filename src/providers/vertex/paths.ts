/**
 * Vertex AI publisher-model paths: `/{v1|v1beta1}/projects/{p}/locations/{l}/publishers/{google|anthropic}/models/{m}:{method}`
 * and, for Gemini in express mode (API key), `/{v1|v1beta1}/publishers/google/models/{m}:{method}`.
 */
import { safeDecode } from "../../http/url";

export type VertexMethod = "generateContent" | "streamGenerateContent" | "rawPredict" | "streamRawPredict";

export interface VertexTarget {
  publisher: "google" | "anthropic";
  model: string;
  method: VertexMethod;
}

const PATH =
  /^\/(?:v1|v1beta1)\/(?:projects\/[^/]+\/locations\/[^/]+\/)?publishers\/(google|anthropic)\/models\/([^/:]+?)(?::|%3A)(generateContent|streamGenerateContent|rawPredict|streamRawPredict)$/i;

/**
 * What a Vertex path names; undefined for other paths and for pairs Vertex does not serve (Gemini methods on
 * Anthropic models, Claude without a project).
 * @example vertexTarget("/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict") // { publisher: "anthropic", model: "claude-sonnet-4@20250514", method: "streamRawPredict" }
 */
export function vertexTarget(path: string): VertexTarget | undefined {
  const m = PATH.exec(path);
  if (!m) return undefined;
  const publisher = m[1]!.toLowerCase() as VertexTarget["publisher"];
  const method = (["generateContent", "streamGenerateContent", "rawPredict", "streamRawPredict"] as const).find((k) => k.toLowerCase() === m[3]!.toLowerCase())!;
  const gemini = method === "generateContent" || method === "streamGenerateContent";
  if (gemini !== (publisher === "google")) return undefined;
  if (publisher === "anthropic" && !path.includes("/projects/")) return undefined;
  return { publisher, model: safeDecode(m[2]!), method };
}

/** `…/publishers/anthropic/models/count-tokens:rawPredict`: Claude's token counting on Vertex. */
export function isVertexCountTokens(path: string): boolean {
  const t = vertexTarget(path);
  return t?.publisher === "anthropic" && t.model === "count-tokens" && t.method === "rawPredict";
}
