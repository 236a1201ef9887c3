/**
 * Writes a Fetch `Response` onto node:http (HTTP/1.1) or node:http2's compatibility response: a fixed body in one
 * call with its length, a web stream chunk by chunk as the socket drains (cancelled when the client goes). A record of
 * headers the shared code gave is written as it is (its names' case and order); a Headers object as the spec iterates
 * it (lower-case, sorted, `set-cookie` one line each).
 */
import type { ServerResponse } from "node:http";
import type { Http2ServerResponse } from "node:http2";
import { LightHeaders, LightResponse } from "./web";

export type Outgoing = ServerResponse | Http2ServerResponse;
type HeaderRecord = Record<string, string | number | string[]>;

/** What a response whose body has no declared type is sent as. */
const DEFAULT_TYPE = "text/plain; charset=UTF-8";

/** A Headers object as lines to write: lower-case names, `set-cookie` as a list. */
function headerLines(headers: Iterable<[string, string]>, defaultType: string | undefined): HeaderRecord {
  const out: HeaderRecord = {};
  let cookies: string[] | undefined;
  for (const [k, v] of headers) {
    if (k === "set-cookie") (cookies ??= []).push(v);
    else out[k] = v;
  }
  if (cookies) out["set-cookie"] = cookies;
  if (defaultType !== undefined) out["content-type"] ??= defaultType;
  return out;
}

/**
 * On HTTP/1.1, lets node:http write `Content-Length` itself (after its own `Date` and `Connection` lines, where a
 * fixed answer has always had it) when nothing else decides the framing; false where it cannot (HTTP/2, a status
 * without a body, a header already present).
 */
function autoLength(outgoing: Outgoing, status: number, length: number): boolean {
  const http1 = outgoing as ServerResponse & { _contentLength: number | null; _hasBody: boolean; _removedContLen: boolean };
  if (
    http1._contentLength === null &&
    http1._hasBody &&
    http1.useChunkedEncodingByDefault &&
    !http1._removedContLen &&
    status >= 200 &&
    status !== 204 &&
    status !== 304 &&
    !outgoing.hasHeader("content-length") &&
    !outgoing.hasHeader("transfer-encoding") &&
    !outgoing.hasHeader("trailer")
  ) {
    http1._contentLength = length;
    return true;
  }
  return false;
}

function byteLength(body: string | Uint8Array): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
}

/** Copies `stream` to `outgoing` as it drains; ends it at the stream's end, destroys it on a stream error. */
function pipe(stream: ReadableStream<Uint8Array>, outgoing: Outgoing): Promise<void> {
  if ("flushHeaders" in outgoing && outgoing.writable) outgoing.flushHeaders();
  if (outgoing.destroyed) {
    stream.cancel().catch(() => {});
    return Promise.resolve();
  }
  const reader = stream.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  outgoing.on("close", cancel);
  outgoing.on("error", cancel);
  return new Promise<void>((resolve) => {
    const finish = () => {
      outgoing.off("close", cancel);
      outgoing.off("error", cancel);
      resolve();
    };
    const failed = (e: unknown) => {
      outgoing.destroy(e instanceof Error ? e : new Error(String(e)));
      finish();
    };
    const next = (): void => {
      reader.read().then(({ done, value }) => {
        try {
          if (done) {
            outgoing.end();
            return finish();
          }
          if ((outgoing as ServerResponse).write(value)) return next();
          outgoing.once("drain", next);
        } catch (e) {
          failed(e);
        }
      }, failed);
    };
    next();
  });
}

/** Writes a LightResponse; a fixed body at once (no promise), a stream as it drains (the promise of its end). */
function writeLight(res: LightResponse, to: Outgoing): Promise<void> | undefined {
  const outgoing = to as ServerResponse;
  const status = res.status;
  const { body, headers } = res.wire;
  const fixed = body === null || typeof body === "string" || body instanceof Uint8Array;
  if (headers === undefined) {
    if (body === null) {
      outgoing.writeHead(status);
      outgoing.end();
    } else if (fixed) {
      const length = byteLength(body);
      if (autoLength(outgoing, status, length)) outgoing.writeHead(status, { "Content-Type": DEFAULT_TYPE });
      else outgoing.writeHead(status, { "Content-Type": DEFAULT_TYPE, "Content-Length": length });
      outgoing.end(body);
    } else {
      outgoing.writeHead(status, { "Content-Type": DEFAULT_TYPE });
      return pipe(body, outgoing);
    }
    return undefined;
  }
  let lines: HeaderRecord;
  let hasLength = false;
  let plain = false;
  let canAutoLength = true;
  if (headers instanceof LightHeaders || Array.isArray(headers) || Symbol.iterator in (headers as object)) {
    const h = headers instanceof LightHeaders ? headers : new LightHeaders(headers);
    hasLength = h.has("content-length");
    lines = headerLines(h, body === null ? undefined : DEFAULT_TYPE);
  } else {
    plain = true;
    lines = headers as HeaderRecord;
    for (const key in lines) {
      const k = key.toLowerCase();
      if (k === "content-length") {
        hasLength = true;
        break;
      }
      if (k === "transfer-encoding" || k === "trailer") canAutoLength = false;
    }
  }
  if (!hasLength && body !== null && fixed) {
    const length = byteLength(body);
    if (!plain || !canAutoLength || !autoLength(outgoing, status, length)) lines = { ...lines, "Content-Length": length };
  }
  outgoing.writeHead(status, lines);
  if (body === null) outgoing.end();
  else if (fixed) outgoing.end(body);
  else return pipe(body, outgoing);
  return undefined;
}

/** Any other Response (the platform's own class): its headers as the spec iterates them. */
async function writeStreamed(res: { status: number; headers: Iterable<[string, string]>; body: ReadableStream<Uint8Array> | null }, to: Outgoing): Promise<void> {
  const outgoing = to as ServerResponse;
  const body = res.body;
  outgoing.writeHead(res.status, headerLines(res.headers, body === null ? undefined : DEFAULT_TYPE));
  if (body === null) outgoing.end();
  else await pipe(body, outgoing);
}

/** An error while writing: a 500 if nothing was sent yet, and the connection closed. */
export function writeFailed(e: unknown, to: Outgoing): void {
  const outgoing = to as ServerResponse;
  const err = e instanceof Error ? e : new Error("unknown error", { cause: e });
  if ((err as { code?: string }).code === "ERR_STREAM_PREMATURE_CLOSE") return;
  console.error(e);
  if (!outgoing.headersSent) {
    (outgoing as ServerResponse & { _contentLength: number | null })._contentLength = null;
    outgoing.writeHead(500, { "Content-Type": "text/plain" });
  }
  outgoing.end(`Error: ${err.message}`);
  outgoing.destroy(err);
}

/**
 * Writes `res` to `outgoing` (errors answered by writeFailed): a fixed body at once, without a promise (the JSON turn's
 * path); a stream's promise settles when it is written.
 */
export function writeResponse(res: Response, outgoing: Outgoing): Promise<void> | undefined {
  const light: unknown = res;
  try {
    const writing = light instanceof LightResponse ? writeLight(light, outgoing) : writeStreamed(res as unknown as Parameters<typeof writeStreamed>[0], outgoing);
    return writing?.catch((e: unknown) => writeFailed(e, outgoing));
  } catch (e) {
    writeFailed(e, outgoing);
    return undefined;
  }
}
