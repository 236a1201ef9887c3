/**
 * The small JSON body of a Gemini side route (`auth_tokens`, a Files upload's `start`): empty is `{}`, more than
 * `limit` bytes is refused, and text that is no JSON gets the API's `Invalid JSON payload received.`
 */
import { apiError, type ApiError } from "../../http/errors";
import { readLimited } from "../../http/body";

export async function readSideBody(request: Request, limit: number): Promise<{ ok: true; value: unknown } | { ok: false; error: ApiError }> {
  const text = await readLimited(request, limit);
  if (text === undefined) return { ok: false, error: apiError("payload_too_large", "The request body is too large.") };
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: apiError("invalid_json", "Invalid JSON payload received.") };
  }
}
