/**
 * OpenTelemetry GenAI spans: with `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) set (Worker var or `mockllm serve`'s
 * environment), every provider call the mock answers is exported as one OTLP/HTTP span carrying the GenAI
 * semantic-convention attributes (`gen_ai.operation.name`, `gen_ai.provider.name`, `gen_ai.request.model`,
 * `gen_ai.response.model`, `gen_ai.usage.*`, `gen_ai.response.finish_reasons`) and `mockllm.outcome`, parented to
 * the request's `traceparent`, so the mock's spans sit inside the application's own trace.
 *
 * The span starts at the request's arrival and ends when the answer's body is done: a stream's last event, or the
 * client going away (status ERROR, `error.type` `client_disconnected`). Bodies are `http/protobuf` (the OTLP
 * exporter specification's default, ./otlp-protobuf.ts) or `http/json` (`OTEL_EXPORTER_OTLP_PROTOCOL`); `grpc` is
 * not offered (a Worker cannot speak it): one warning, and OTLP/HTTP protobuf to the same endpoint instead.
 *
 * Off the request path: spans are buffered per isolate (plain data only) and sent from `waitUntil` by the first
 * call that finds no POST in flight, at most OTEL_BSP_MAX_EXPORT_BATCH_SIZE spans a POST. Bounded: at most
 * OTEL_BSP_MAX_QUEUE_SIZE spans wait (newer ones are dropped), each POST gives up after OTEL_EXPORTER_OTLP_TIMEOUT,
 * and after a failed POST spans are dropped for BACKOFF_MS, so a collector that is down or slow costs one POST per
 * backoff, never memory or a request's time; the first span dropped in an outage is told once on the console.
 */
import type { Outcome } from "../canonical/outcome";
import type { CanonicalRequest } from "../canonical/request";
import { PlannedResponse } from "../http/planned";
import { BODY_ABORTED } from "../http/sse";
import { OTEL_PROVIDER_NAMES } from "../providers/types";
import type { Exec, RequestContext, RuntimeVars } from "../runtime/types";
import { execOver } from "./exec";
import { encodeTraceRequest, type OtlpJsonSpan, type OtlpKeyValue, type OtlpTraceRequest } from "./otlp-protobuf";
import { deliveredReply } from "./render";

/** Spans that may wait to be sent (the specification's OTEL_BSP_MAX_QUEUE_SIZE default). */
export const MAX_BUFFER = 2048;
/** Spans one POST carries at most (OTEL_BSP_MAX_EXPORT_BATCH_SIZE's default). */
export const MAX_BATCH = 512;
/** A POST gives up after this (OTEL_EXPORTER_OTLP_TIMEOUT's default, 10 s). */
export const POST_TIMEOUT_MS = 10_000;
export const BACKOFF_MS = 30_000;

/** One span as OTLP/JSON writes it (ids as lower-case hex). */
export type OtlpSpan = OtlpJsonSpan;

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface Exporter {
  url: string;
  headers: Record<string, string>;
  service: string;
  protocol: OtlpProtocol;
  timeoutMs: number;
  maxQueue: number;
  maxBatch: number;
}

/** Spans waiting to be sent, and the exporter state: plain data (no promise, stream or body at module scope). */
const buffer: { exporter: Exporter; span: OtlpSpan }[] = [];
let sending = false;
/** Each collector URL's backoff: until when its spans are dropped after a failed POST. */
const downUntil = new Map<string, number>();
/** Spans dropped (queue full, collector down or slow), for tests and `--log-requests` readers. */
export const dropped = { count: 0 };
/** Collectors whose outage (spans dropped) has been told on the console; one leaves when an export to it succeeds. */
const told = new Set<string>();
/** Warnings already given in this isolate (each once). */
const warned = new Set<string>();
/** Each `vars` object's exporter (null: none): settings are read once, not per request. */
const exporters = new WeakMap<RuntimeVars, Exporter | null>();

/** Writes `line` once per isolate (Node: per process). */
function warnOnce(line: string, warn: (line: string) => void): void {
  if (warned.has(line)) return;
  warned.add(line);
  warn(line);
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value?.trim());
  return value !== undefined && value.trim() !== "" && Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}

/**
 * The exporter `vars` configure, or undefined when neither `OTEL_EXPORTER_OTLP_ENDPOINT` nor
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set (each `OTEL_EXPORTER_OTLP_TRACES_*` overrides its general setting). A setting it cannot
 * honour (`grpc`, an unknown protocol) is told through `warn`, once per isolate: `mockllm serve` calls this at
 * start-up with its log; a Worker, on its first call.
 */
export function exporterOf(vars: RuntimeVars, warn: (line: string) => void = console.warn): Exporter | undefined {
  const known = exporters.get(vars);
  if (known !== undefined) return known ?? undefined;
  const made = makeExporter(vars, warn);
  exporters.set(vars, made ?? null);
  return made;
}

function makeExporter(vars: RuntimeVars, warn: (line: string) => void): Exporter | undefined {
  // The signal's own endpoint is used as it is; the general one gets `/v1/traces` (the OTLP exporter specification).
  const tracesEndpoint = vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const endpoint = vars.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!tracesEndpoint && !endpoint) return undefined;
  const url = tracesEndpoint || `${endpoint!.replace(/\/+$/, "")}/v1/traces`;
  const name = vars.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const asked = (vars.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || vars.OTEL_EXPORTER_OTLP_PROTOCOL?.trim()) ?? "";
  let protocol: OtlpProtocol = "http/protobuf";
  if (asked === "http/json") protocol = "http/json";
  else if (asked === "grpc") {
    warnOnce(`mockllm: ${name}=grpc is not supported; spans go to ${url} as OTLP/HTTP protobuf instead (a Collector's OTLP receiver takes it on port 4318)`, warn);
  } else if (asked !== "" && asked !== "http/protobuf") {
    warnOnce(`mockllm: ${name}=${asked} is not one of grpc, http/protobuf, http/json; spans go to ${url} as http/protobuf`, warn);
  }
  const headers: Record<string, string> = { "content-type": protocol === "http/json" ? "application/json" : "application/x-protobuf" };
  // `key=value` pairs, comma-separated, values percent-encoded (the OTLP exporter specification).
  for (const pair of `${vars.OTEL_EXPORTER_OTLP_HEADERS ?? ""},${vars.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? ""}`.split(",")) {
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    try {
      headers[pair.slice(0, eq).trim().toLowerCase()] = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      headers[pair.slice(0, eq).trim().toLowerCase()] = pair.slice(eq + 1).trim();
    }
  }
  return {
    url,
    headers,
    service: vars.OTEL_SERVICE_NAME?.trim() || "mockllm",
    protocol,
    timeoutMs: positive(vars.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT, positive(vars.OTEL_EXPORTER_OTLP_TIMEOUT, POST_TIMEOUT_MS)),
    maxQueue: positive(vars.OTEL_BSP_MAX_QUEUE_SIZE, MAX_BUFFER),
    maxBatch: positive(vars.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, MAX_BATCH),
  };
}

/** `traceparent` (W3C Trace Context) as trace and parent span ids; undefined when absent or malformed. */
export function parseTraceparent(value: string | null): { traceId: string; parentSpanId: string } | undefined {
  const m = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(value?.trim().toLowerCase() ?? "");
  if (!m || /^0+$/.test(m[1]!) || /^0+$/.test(m[2]!)) return undefined;
  return { traceId: m[1]!, parentSpanId: m[2]! };
}

const HEX_PAIRS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
/** Random bytes drawn 4 KiB at a time (one getRandomValues call serves ~170 spans), used once each. */
const pool = new Uint8Array(4096);
let poolAt = pool.length;

function randomHex(bytes: number): string {
  if (poolAt + bytes > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  let out = "";
  for (let i = 0; i < bytes; i++) out += HEX_PAIRS[pool[poolAt++]!]!;
  return out;
}

/** Epoch ms as OTLP's decimal nanoseconds. */
function nanos(ms: number): string {
  const whole = Math.floor(ms);
  return whole <= 0 ? "0" : `${whole}000000`;
}

type Attribute = OtlpKeyValue;
const str = (key: string, value: string): Attribute => ({ key, value: { stringValue: value } });
const int = (key: string, value: number): Attribute => ({ key, value: { intValue: String(value) } });

/** `gen_ai.operation.name` of an endpoint. */
function operationOf(endpoint: string): string {
  if (endpoint === "embeddings") return "embeddings";
  if (endpoint === "generateContent") return "generate_content";
  // The semantic conventions' name for a prompt completed (OpenAI's legacy `/v1/completions`).
  if (endpoint === "completions") return "text_completion";
  return "chat";
}

/** `error.type` of a body the client stopped reading before its end. */
export const CLIENT_DISCONNECTED = "client_disconnected";

/**
 * The span of one answered call; `aborted`: the client went away before the body's end.
 * @example spanOf(request, outcome, "response", headers, 1700000000000, 1700000000005)
 */
export function spanOf(request: CanonicalRequest, outcome: Outcome, mockOutcome: string, traceparent: string | null, start: number, end: number, aborted = false): OtlpSpan {
  const parent = parseTraceparent(traceparent);
  const operation = operationOf(request.endpoint);
  const reply = deliveredReply(outcome);
  const attributes: Attribute[] = [
    str("gen_ai.operation.name", operation),
    str("gen_ai.provider.name", OTEL_PROVIDER_NAMES[request.provider] ?? request.provider),
    str("gen_ai.request.model", request.model),
    str("mockllm.outcome", mockOutcome),
  ];
  if (reply !== undefined) {
    attributes.push(str("gen_ai.response.model", reply.model), int("gen_ai.usage.input_tokens", reply.usage.inputTokens), int("gen_ai.usage.output_tokens", reply.usage.outputTokens));
    attributes.push({ key: "gen_ai.response.finish_reasons", value: { arrayValue: { values: [{ stringValue: reply.finishReason }] } } });
  }
  const scripted = outcome.kind === "failure" && reply === undefined ? outcome.failure.kind : outcome.kind === "mismatch" ? "mismatch" : undefined;
  const error = scripted ?? (aborted ? CLIENT_DISCONNECTED : undefined);
  if (error !== undefined) attributes.push(str("error.type", error));
  // One draw for both ids: the span's own 8 bytes, then a trace's 16 when there is no parent.
  const ids = randomHex(parent === undefined ? 24 : 8);
  const span: OtlpSpan = {
    traceId: parent?.traceId ?? ids.slice(16),
    spanId: ids.slice(0, 16),
    name: `${operation} ${request.model}`,
    kind: 2,
    startTimeUnixNano: nanos(start),
    endTimeUnixNano: nanos(Math.max(start, end)),
    attributes,
    status: error === undefined ? { code: 0 } : { code: 2, message: error },
  };
  if (parent !== undefined) span.parentSpanId = parent.parentSpanId;
  return span;
}

/** The ExportTraceServiceRequest of `spans`, for one exporter, as OTLP/JSON's object. */
function traceRequest(exporter: Exporter, spans: OtlpSpan[]): OtlpTraceRequest {
  return {
    resourceSpans: [
      {
        resource: { attributes: [str("service.name", exporter.service)] },
        scopeSpans: [{ scope: { name: "mockllm" }, spans }],
      },
    ],
  };
}

/** The POST body of `spans` in the exporter's protocol. */
export function exportBody(exporter: Exporter, spans: OtlpSpan[]): string | Uint8Array {
  const request = traceRequest(exporter, spans);
  return exporter.protocol === "http/json" ? JSON.stringify(request) : encodeTraceRequest(request);
}

/** Counts `n` dropped spans; the first of an outage of `exporter`'s collector is told once (`reason`). */
function drop(exporter: Exporter, n: number, reason: string): void {
  dropped.count += n;
  if (told.has(exporter.url)) return;
  told.add(exporter.url);
  console.warn(`mockllm: OpenTelemetry spans dropped (${reason}); more are dropped silently until an export succeeds`);
}

/** Sends what is buffered, one POST per exporter and batch, until the buffer is empty. */
async function flush(): Promise<void> {
  try {
    // Let the requests ending together add their spans first: one POST for them all.
    await new Promise((resolve) => setTimeout(resolve, 0));
    while (buffer.length > 0) {
      const { exporter } = buffer[0]!;
      const spans: OtlpSpan[] = [];
      // The oldest exporter's spans, up to a batch (one process normally has one exporter).
      for (let i = 0; i < buffer.length && spans.length < exporter.maxBatch; ) {
        if (buffer[i]!.exporter === exporter) spans.push(buffer.splice(i, 1)[0]!.span);
        else i++;
      }
      if (Date.now() < (downUntil.get(exporter.url) ?? 0)) {
        drop(exporter, spans.length, `the collector at ${exporter.url} failed`);
        continue;
      }
      try {
        const res = await fetch(exporter.url, { method: "POST", headers: exporter.headers, body: exportBody(exporter, spans), signal: AbortSignal.timeout(exporter.timeoutMs) });
        await res.body?.cancel();
        if (!res.ok) throw new Error(`answered ${res.status}`);
        told.delete(exporter.url);
      } catch (e) {
        downUntil.set(exporter.url, Date.now() + BACKOFF_MS);
        const why = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError") ? `no answer within ${exporter.timeoutMs} ms` : e instanceof Error ? e.message : String(e);
        drop(exporter, spans.length, `the collector at ${exporter.url}: ${why}; retried in ${BACKOFF_MS / 1000} s`);
      }
    }
  } finally {
    sending = false;
  }
}

/**
 * Queues one finished span; the flush to run when no POST is in flight (for the caller's `waitUntil`), else undefined.
 */
function queue(exporter: Exporter, span: () => OtlpSpan): Promise<void> | undefined {
  if (Date.now() < (downUntil.get(exporter.url) ?? 0)) {
    drop(exporter, 1, `the collector at ${exporter.url} failed`);
    return undefined;
  }
  if (buffer.length >= exporter.maxQueue) {
    drop(exporter, 1, `${exporter.maxQueue} spans already wait to be sent to ${exporter.url} (OTEL_BSP_MAX_QUEUE_SIZE)`);
    return undefined;
  }
  buffer.push({ exporter, span: span() });
  if (sending) return undefined;
  sending = true;
  return flush();
}

/**
 * Queues the span of one answered call ending now and, when no flush is in flight, sends the queue from `waitUntil`.
 * @example exportCall(rt.vars, exec.waitUntil, request, outcome, "response", traceparent, arrivedAt)
 */
export function exportCall(
  vars: RuntimeVars,
  waitUntil: (p: Promise<unknown>) => void,
  request: CanonicalRequest,
  outcome: Outcome,
  mockOutcome: string,
  traceparent: string | null,
  start: number,
): void {
  const exporter = exporterOf(vars);
  if (exporter === undefined) return;
  const sent = queue(exporter, () => spanOf(request, outcome, mockOutcome, traceparent, start, Date.now()));
  if (sent !== undefined) waitUntil(sent);
}

/** One call being traced: render with `exec`, then `answered` with the Response; the span ends with its body. */
export interface TracedCall {
  exec: Exec;
  answered(res: Response, outcome: Outcome, mockOutcome: string): void;
}

/**
 * Traces one call when `vars` configure an exporter: the Exec to render with sees which bodies are written later (a
 * paced stream, recorded frames, a broken body: each a `waitUntil` promise), and `answered` ends the span when they are
 * done — when the runtime says the stream it plays is over (a `PlannedResponse`), or at once for a body given whole.
 * @example const call = traceCall(rt.vars, exec, request, traceparent); res = await render(call?.exec ?? exec); call?.answered(res, outcome, "response")
 */
export function traceCall(vars: RuntimeVars, exec: Exec, request: CanonicalRequest, traceparent: string | null): TracedCall | undefined {
  const exporter = exporterOf(vars);
  if (exporter === undefined) return undefined;
  const start = exec.arrivedAt ?? Date.now();
  const bodies: Promise<unknown>[] = [];
  const watched = execOver(exec, (ctx) => {
    const seen: RequestContext = {
      waitUntil(p) {
        bodies.push(p);
        ctx.waitUntil(p);
      },
    };
    if (ctx.breakConnection) seen.breakConnection = () => ctx.breakConnection!();
    if (ctx.bodyPipe) seen.bodyPipe = () => ctx.bodyPipe!();
    if (ctx.playsPlans) seen.playsPlans = true;
    return seen;
  });
  return {
    exec: watched,
    answered(res, outcome, mockOutcome) {
      const end = (aborted: boolean) => queue(exporter, () => spanOf(request, outcome, mockOutcome, traceparent, start, Date.now(), aborted));
      let ended: Promise<boolean> | undefined;
      // A stream the runtime plays itself: it says when the plan is over (src/hosts/node/paced.ts).
      if (res instanceof PlannedResponse) ended = new Promise<boolean>((resolve) => (res.plan.ended = resolve));
      else if (bodies.length > 0) ended = Promise.all(bodies).then((results) => results.includes(BODY_ABORTED));
      if (ended === undefined) {
        const sent = end(false);
        if (sent !== undefined) exec.waitUntil(sent);
        return;
      }
      // Kept alive by the host until the body is done and its span sent.
      exec.waitUntil(ended.then(end, () => end(true)));
    },
  };
}

/** Forgets the queue, the backoff and the warnings given (tests start each case from a fresh isolate's state). */
export function resetExporter(): void {
  buffer.length = 0;
  sending = false;
  downUntil.clear();
  told.clear();
  warned.clear();
  dropped.count = 0;
}
