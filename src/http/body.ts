/**
 * Reading a client's JSON body strictly: size limit, content type, real JSON, an object.
 */
import { apiError, type ApiError } from "./errors";
import { concatBytes } from "../util/bytes";
import { headerRecord } from "./headers";
import { jsonDepthExceeded, tooDeepMessage } from "./json-depth";

/** Largest request body accepted. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/**
 * Most bytes of a refused body read and thrown away before answering, so that a client which writes its whole
 * body before reading gets the answer rather than a reset (what mature HTTP servers do). Past it, the
 * connection is closed.
 */
export const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * Reads and discards what is left of `reader`, at most `limit` more bytes; true when the body ended within it.
 * @example if (!(await discardRest(request.body.getReader()))) res.headers.set("connection", "close")
 */
export async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, limit = MAX_DRAIN_BYTES): Promise<boolean> {
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      size += value.byteLength;
      if (size > limit) break;
    }
  } catch {
    return false;
  }
  await reader.cancel().catch(() => {});
  return false;
}

/**
 * A read body: the value `parse` is given and the text the journal keeps. `summary` marks a text that is not the
 * body as sent (a multipart form's summary, src/http/multipart.ts): it is journalled but never forwarded upstream.
 */
export type BodyResult = { ok: true; value: Record<string, unknown>; text: string; summary?: true } | { ok: false; error: ApiError };

function tooLarge(): BodyResult {
  return { ok: false, error: apiError("payload_too_large", `Request body is larger than ${MAX_BODY_BYTES} bytes.`) };
}

/** Reads at most `limit` bytes; undefined when the body is larger. */
export async function readLimited(request: Request, limit: number): Promise<string | undefined> {
  const bytes = await readLimitedBytes(request, limit);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

/** Reads at most `limit` bytes as bytes; undefined when the body is larger (the rest is drained). */
export async function readLimitedBytes(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await discardRest(reader);
      return undefined;
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}

/**
 * A body of at most `limit` bytes, bounded as JSON bodies are: a larger declared length is refused before reading,
 * a declared length within it is read in one call, a body of unknown length chunk by chunk up to the limit.
 * Undefined when the body is larger.
 */
export async function readBoundedBytes(request: Request, limit: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    if (Number(declared) > limit) return undefined;
    return new Uint8Array(await request.arrayBuffer());
  }
  return readLimitedBytes(request, limit);
}

export function isJsonContentType(type: string | null): boolean {
  if (type === "application/json") return true; // what the SDKs send: no split, trim or lower-casing to read it
  if (type === null || type.trim() === "") return true; // liberal: parse it and see
  const media = type.split(";")[0]!.trim().toLowerCase();
  return media === "application/json" || media.endsWith("+json");
}

/**
 * The request's JSON object body, or the error the client should get. The nesting limit (json-depth.ts) is
 * checked on the text before it is parsed.
 * `anyContentType` reads the body as JSON whatever its declared type (Ollama's server does).
 * @example const body = await readJsonBody(request); if (!body.ok) return render(body.error);
 */
export async function readJsonBody(request: Request, opts: { anyContentType?: boolean } = {}): Promise<BodyResult> {
  const headers = headerRecord(request.headers); // every parser reads it next: one lookup table for the three below
  const declared = headers["content-length"];
  if (Number(declared ?? "0") > MAX_BODY_BYTES) return tooLarge();
  const type = headers["content-type"] ?? null;
  if (opts.anyContentType !== true && !isJsonContentType(type)) {
    return {
      ok: false,
      error: apiError("unsupported_media_type", `Unsupported content type "${type}": send the body as application/json.`),
    };
  }
  // A declared length within the limit is read in one call (the runtime holds the body to that length; on Node this
  // is also the adapter's fast path); a body of unknown length is read chunk by chunk up to the limit.
  const text = declared !== undefined ? await request.text() : await readLimited(request, MAX_BODY_BYTES);
  if (text === undefined) return tooLarge();
  if (text.trim() === "") {
    return { ok: false, error: apiError("invalid_json", "The request body is empty: send a JSON object.") };
  }
  const deep = jsonDepthExceeded(text);
  if (deep >= 0) {
    return { ok: false, error: apiError("invalid_request", tooDeepMessage("The request body", deep)) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return {
      ok: false,
      error: apiError("invalid_json", `We could not parse the JSON body of your request. (${(e as Error).message}) Send a valid JSON object.`),
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, error: apiError("invalid_request", "The request body must be a JSON object.") };
  }
  return { ok: true, value: value as Record<string, unknown>, text };
}

/** Largest request body kept in the journal; longer ones are truncated with a marker. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;

/** Whether the journal keeps a body of this text whole (as its parsed value), not cut to a marked string. */
export function journalsWhole(text: string): boolean {
  return text.length <= JOURNAL_BODY_LIMIT;
}

/** The body as the journal keeps it: parsed JSON, or a truncated string with a marker. */
export function journalBody(text: string, value: unknown): unknown {
  if (journalsWhole(text)) return value;
  return `${text.slice(0, JOURNAL_BODY_LIMIT)}…[mockllm: truncated ${text.length - JOURNAL_BODY_LIMIT} of ${text.length} characters]`;
}

/** `sec-websocket-protocol` may carry an API key (`openai-insecure-api-key.{key}`, as browsers send it). */
const SECRET_HEADERS = ["authorization", "x-api-key", "api-key", "x-goog-api-key", "cookie", "sec-websocket-protocol"] as const;

/** The journaled header naming the namespace key a request came with (src/tenancy); never taken from a client. */
export const KEY_ID_HEADER = "x-mockllm-key-id";

/**
 * One copy of each short header value seen so far (`host`, `user-agent`, `content-type`, … repeat on every request),
 * for header records kept as objects for a connection's life (a WebSocket's handshake headers), so a thousand of them
 * keep one string per distinct value. Bounded: once full, new values are kept as they come. A turn's journal entry
 * does not need it: the journal keeps each entry's JSON text, so the record it is made from dies with the request.
 */
const headerValues = new Map<string, string>();
const HEADER_VALUES_LIMIT = 1024;

function shared(value: string): string {
  const have = headerValues.get(value);
  if (have !== undefined) return have;
  if (value.length <= 256 && headerValues.size < HEADER_VALUES_LIMIT) headerValues.set(value, value);
  return value;
}

/**
 * Request headers for the journal, secrets redacted; a client's own KEY_ID_HEADER is dropped (mockllm notes it).
 * @example redactHeaders(new Headers({ authorization: "Bearer sk-1", "x-a": "b" })) // { authorization: "[redacted]", "x-a": "b" }
 */
export function redactHeaders(headers: Headers): Record<string, string> {
  const record = headerRecord(headers);
  if (KEY_ID_HEADER in record) {
    const { [KEY_ID_HEADER]: _dropped, ...rest } = record;
    return redacted(rest);
  }
  // A copy of the record (V8 clones an object of one shape whole, a third of the time of copying it key by key).
  return redacted({ ...record });
}

/** `copy` with its secret headers' values replaced, in place. */
function redacted(copy: Record<string, string>): Record<string, string> {
  for (const k of SECRET_HEADERS) if (k in copy) copy[k] = "[redacted]";
  return copy;
}

/**
 * `redactHeaders` for a record kept as long as a connection lives: each short value the one copy seen so far.
 * @example const init = { headers: redactHeadersKept(request.headers) } // kept by the socket's session
 */
export function redactHeadersKept(headers: Headers): Record<string, string> {
  const out = redactHeaders(headers);
  for (const k in out) out[k] = shared(out[k]!);
  return out;
}
