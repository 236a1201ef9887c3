/**
 * The recording proxy (contract section 8): a request no step answers, in a scenario that names an upstream for its
 * provider, is forwarded there with the client's own credentials; the answer streams back to the client as it
 * arrives (each upstream chunk written on as it comes) while a copy is split into frames; when the upstream body has
 * ended (read to its end even after the client has gone) the session journals the request and keeps the answer as a
 * recorded step. Upstreams come only from scenario documents (admin API, files) or server flags, never from a request.
 */
import type { CanonicalRequest, ProviderName } from "../canonical/request";
import { breakAfterFlush } from "../http/sse";
import type { ProviderSurface } from "../providers/types";
import { recordedMatch } from "../record/document";
import { FrameSplitter, frameFormatOf } from "../record/splitter";
import type { RecordedFrames, Scenario } from "../scenario/schema";
import type { NextInput } from "../session/core";
import { RECORDING_MAX_BYTES } from "../session/recording";
import type { Recordings } from "../session/types";
import { errorResponse } from "./render";
import type { Exec } from "../runtime/types";
import { carriesNamespaceKey } from "../tenancy/keys";
import { Headers, Response } from "../http/web";

/** The upstream base URL a scenario names for a provider, if any (none for the clouds: Bedrock and Vertex are not recorded). */
export function upstreamFor(scenario: Scenario, provider: ProviderName): string | undefined {
  const upstream: Partial<Record<ProviderName, string>> = scenario.record?.upstream ?? {};
  return upstream[provider];
}

/** Request headers never forwarded: hop-by-hop, length and encoding (recomputed), mockllm's own, and the edge's. */
const DROP_REQUEST = new Set([
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "content-length",
  "accept-encoding",
  "x-mock-scenario",
  "x-mock-session",
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
  "x-real-ip",
  "cdn-loop",
  "x-mockllm-key-id",
]);

export function forwardHeaders(headers: Headers): Headers {
  const out = new Headers();
  for (const [k, v] of headers) {
    const name = k.toLowerCase();
    if (DROP_REQUEST.has(name) || name.startsWith("cf-") || name.startsWith("proxy-")) continue;
    if (carriesNamespaceKey(v)) continue; // a mockllm namespace key is never sent upstream
    out.set(name, v);
  }
  // Uncompressed, so chunks arrive as the upstream writes them and frames are the wire text.
  out.set("accept-encoding", "identity");
  return out;
}

/** Response headers kept (and replayed): content type, request ids, rate-limit and retry headers. */
export function keptHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of headers) {
    const name = k.toLowerCase();
    const keep =
      name === "content-type" ||
      name === "request-id" ||
      name.endsWith("-request-id") ||
      name === "x-request-id" ||
      name.includes("ratelimit") ||
      name === "retry-after" ||
      name === "retry-after-ms" ||
      name === "x-should-retry";
    if (keep) out[name] = v;
  }
  return out;
}

/** The upstream URL: base (trailing slashes dropped) + the path below any `/s/…` prefix + the client's query. */
export function upstreamUrl(base: string, path: string, requestUrl: string): string {
  const url = new URL(requestUrl);
  if (carriesNamespaceKey(url.searchParams.get("key") ?? "")) url.searchParams.delete("key");
  return `${base.replace(/\/+$/, "")}${path}${url.search}`;
}

export interface ProxyInput {
  request: Request;
  /** The client's body, exactly as sent. */
  bodyText: string;
  /** Path below any `/s/{scenario}[/{session}]` prefix. */
  path: string;
  canonical: CanonicalRequest;
  /** The request as journaled (secrets redacted). */
  wire: NextInput["wire"];
  session: Recordings;
  upstream: string;
  exec: Exec;
  /** mockllm's own headers (`x-mockllm-scenario`, …) for the client. */
  extra: Record<string, string>;
  requestId: string;
}

/**
 * Proxies one request to its upstream and records the answer in the session.
 * @example if (result.proxy) return recordThrough(surface, { request, bodyText, path, canonical, wire, session, upstream, exec, extra, requestId })
 */
export async function recordThrough<W>(surface: ProviderSurface<W>, input: ProxyInput): Promise<Response> {
  const start = Date.now();
  const record = async (status: number, reasons: string[], frames?: RecordedFrames) =>
    input.session.record({
      request: input.canonical,
      wire: input.wire,
      at: start,
      status,
      reasons,
      ...(frames ? { step: { match: recordedMatch(input.canonical), frames } } : {}),
    });

  let upstream: Response;
  try {
    upstream = await fetch(upstreamUrl(input.upstream, input.path, input.request.url), {
      method: input.request.method,
      headers: forwardHeaders(input.request.headers),
      body: input.bodyText,
      redirect: "manual",
    });
  } catch (e) {
    const origin = new URL(input.upstream).origin;
    const why = `upstream ${origin} unreachable: ${(e as Error).message || String(e)}`;
    await record(502, [why]);
    return errorResponse(surface, { code: "upstream_unavailable", message: `mockllm: ${why}` }, input.requestId, input.extra);
  }

  const headers = keptHeaders(upstream.headers);
  const base = { status: upstream.status, headers };
  if (!upstream.body || [204, 205, 304].includes(upstream.status)) {
    await upstream.body?.cancel().catch(() => {});
    await record(upstream.status, [], { ...base, frames: [] });
    return new Response(null, { status: upstream.status, headers: { ...headers, ...input.extra } });
  }

  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const client = writable.getWriter();
  const format = frameFormatOf(upstream.headers.get("content-type"));
  input.exec.waitUntil(
    (async () => {
      const { frames, truncated, overflow, lastWrite } = await tee(upstream.body!, client, format, start);
      // Stored before the client sees the end: once a client has its whole answer, the recording has it too.
      await (overflow
        ? record(upstream.status, [`not recorded: the answer is larger than ${RECORDING_MAX_BYTES} bytes`])
        : record(upstream.status, truncated ? ["upstream stream cut off"] : [], { ...base, frames, ...(truncated ? { truncated: true } : {}) })
      ).catch(() => {});
      await lastWrite;
      if (!truncated) return client.close();
      // What arrived reaches the client first; then its connection breaks as the upstream's did.
      await breakAfterFlush(client, input.exec.breakConnection);
    })().catch(() => {}),
  );
  return new Response(readable, { status: upstream.status, headers: { ...headers, ...input.extra } });
}

/**
 * Reads the upstream body to its end: each chunk is written on to the client at once (not awaited, so a slow or
 * gone client never delays the reading, nor the recording) and split into frames stamped with their arrival.
 */
async function tee(
  body: ReadableStream<Uint8Array>,
  client: WritableStreamDefaultWriter<Uint8Array>,
  format: ReturnType<typeof frameFormatOf>,
  start: number,
): Promise<{ frames: RecordedFrames["frames"]; truncated: boolean; overflow: boolean; lastWrite: Promise<void> }> {
  const splitter = new FrameSplitter(format);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let lastWrite: Promise<void> = Promise.resolve();
  let clientGone = false;
  let truncated = false;
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      truncated = true;
      break;
    }
    if (chunk.done) break;
    if (!clientGone) {
      lastWrite = client.write(chunk.value).catch(() => {
        clientGone = true;
      });
    }
    size += chunk.value.byteLength;
    if (size <= RECORDING_MAX_BYTES) splitter.push(decoder.decode(chunk.value, { stream: true }), Date.now() - start);
  }
  const at = Date.now() - start;
  if (size <= RECORDING_MAX_BYTES) {
    splitter.push(decoder.decode(), at);
    splitter.end(at);
  }
  return { frames: splitter.all(), truncated, overflow: size > RECORDING_MAX_BYTES, lastWrite };
}
