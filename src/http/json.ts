/** JSON in and out, shared by every route. */

/** A JSON response; `headers` may override the content type (Gemini and Ollama name a charset). */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** JSON.parse that answers undefined for text that is not JSON (stored values the caller validates). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
