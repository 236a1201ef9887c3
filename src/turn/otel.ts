/**
 * OpenTelemetry GenAI spans: with `OTEL_EXPORTER_OTLP_ENDPOINT` set (Worker var or `mockllm serve`'s
 * environment), every provider call the mock answers is exported as one OTLP/HTTP span carrying the GenAI
 * semantic-convention attributes (`gen_ai.operation.name`, `gen_ai.provider.name`, `gen_ai.request.model`,
 * `gen_ai.response.model`, `gen_ai.usage.*`, `gen_ai.response.finish_reasons`) and `mockllm.outcome`, parented to
 * the request's `traceparent`, so the mock's spans sit inside the application's own trace.
 *
 * Off the request path: spans are buffered per isolate (plain data only) and sent by the first request's
 * `waitUntil` that finds none in flight, all buffered spans in one POST. Bounded: at most MAX_BUFFER spans wait
 * (newer ones are dropped), each POST gives up after POST_TIMEOUT_MS, and after a failed POST spans are dropped for
 * BACKOFF_MS, so a collector that is down costs one timed-out POST per backoff, never memory. Only OTLP/HTTP with
 * JSON bodies is sent (`OTEL_EXPORTER_OTLP_PROTOCOL` `http/json`; `http/protobuf`, the spec's default, is answered
 * with JSON too, which the OpenTelemetry Collector accepts on the same path).
 */
import type { Outcome } from "../canonical/outcome";
import type { CanonicalRequest } from "../canonical/request";
import { OTEL_PROVIDER_NAMES } from "../providers/types";
import type { RuntimeVars } from "../runtime/types";
import { deliveredReply } from "./render";

export const MAX_BUFFER = 1000;
export const POST_TIMEOUT_MS = 5000;
export const BACKOFF_MS = 30_000;

type AnyValue = { stringValue: string } | { intValue: string } | { arrayValue: { values: { stringValue: string }[] } };

/** One span as OTLP/JSON writes it (ids as lower-case hex). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: AnyValue }[];
  status: { code: number; message?: string };
}

interface Exporter {
  url: string;
  headers: Record<string, string>;
  service: string;
}

/** Spans waiting to be sent, and the exporter state: plain data (no promise, stream or body at module scope). */
const buffer: { exporter: Exporter; span: OtlpSpan }[] = [];
let sending = false;
let downUntil = 0;
/** Spans dropped (buffer full, collector down), for `mockllm serve --log-requests` readers and tests. */
export const dropped = { count: 0 };

/** The exporter `vars` configure, or undefined when `OTEL_EXPORTER_OTLP_ENDPOINT` is unset. */
export function exporterOf(vars: RuntimeVars): Exporter | undefined {
  const endpoint = vars.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return undefined;
  const protocol = vars.OTEL_EXPORTER_OTLP_PROTOCOL?.trim();
  if (protocol === "grpc") return undefined;
  const headers: Record<string, string> = { "content-type": "application/json" };
  // `key=value` pairs, comma-separated, values percent-encoded (the OTLP exporter specification).
  for (const pair of (vars.OTEL_EXPORTER_OTLP_HEADERS ?? "").split(",")) {
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    try {
      headers[pair.slice(0, eq).trim().toLowerCase()] = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      headers[pair.slice(0, eq).trim().toLowerCase()] = pair.slice(eq + 1).trim();
    }
  }
  return { url: `${endpoint.replace(/\/+$/, "")}/v1/traces`, headers, service: vars.OTEL_SERVICE_NAME?.trim() || "mockllm" };
}

/** `traceparent` (W3C Trace Context) as trace and parent span ids; undefined when absent or malformed. */
export function parseTraceparent(value: string | null): { traceId: string; parentSpanId: string } | undefined {
  const m = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(value?.trim().toLowerCase() ?? "");
  if (!m || /^0+$/.test(m[1]!) || /^0+$/.test(m[2]!)) return undefined;
  return { traceId: m[1]!, parentSpanId: m[2]! };
}

function randomHex(bytes: number): string {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  let out = "";
  for (const x of b) out += x.toString(16).padStart(2, "0");
  return out;
}

type Attribute = OtlpSpan["attributes"][number];
const str = (key: string, value: string): Attribute => ({ key, value: { stringValue: value } });
const int = (key: string, value: number): Attribute => ({ key, value: { intValue: String(value) } });

/** `gen_ai.operation.name` of an endpoint. */
function operationOf(endpoint: string): string {
  if (endpoint === "embeddings") return "embeddings";
  if (endpoint === "generateContent") return "generate_content";
  return "chat";
}

const NANOS = 1_000_000n;

/**
 * The span of one answered call.
 * @example spanOf(request, outcome, "response", headers, 1700000000000, 1700000000005)
 */
export function spanOf(request: CanonicalRequest, outcome: Outcome, mockOutcome: string, traceparent: string | null, start: number, end: number): OtlpSpan {
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
  const error = outcome.kind === "failure" && reply === undefined ? outcome.failure.kind : outcome.kind === "mismatch" ? "mismatch" : undefined;
  if (error !== undefined) attributes.push(str("error.type", error));
  const span: OtlpSpan = {
    traceId: parent?.traceId ?? randomHex(16),
    spanId: randomHex(8),
    name: `${operation} ${request.model}`,
    kind: 2,
    startTimeUnixNano: String(BigInt(Math.floor(start)) * NANOS),
    endTimeUnixNano: String(BigInt(Math.floor(Math.max(start, end))) * NANOS),
    attributes,
    status: error === undefined ? { code: 0 } : { code: 2, message: error },
  };
  if (parent !== undefined) span.parentSpanId = parent.parentSpanId;
  return span;
}

/** The OTLP/JSON body of `spans`, for one exporter. */
function body(exporter: Exporter, spans: OtlpSpan[]): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [str("service.name", exporter.service)] },
        scopeSpans: [{ scope: { name: "mockllm" }, spans }],
      },
    ],
  });
}

/** Sends what is buffered, one POST per exporter, until the buffer is empty. */
async function flush(): Promise<void> {
  try {
    // Let the requests arriving together add their spans first: one POST for them all.
    await new Promise((resolve) => setTimeout(resolve, 0));
    while (buffer.length > 0) {
      const batch = buffer.splice(0, buffer.length);
      const byUrl = new Map<string, { exporter: Exporter; spans: OtlpSpan[] }>();
      for (const { exporter, span } of batch) {
        const key = `${exporter.url}\n${JSON.stringify(exporter.headers)}\n${exporter.service}`;
        const group = byUrl.get(key) ?? { exporter, spans: [] };
        group.spans.push(span);
        byUrl.set(key, group);
      }
      for (const { exporter, spans } of byUrl.values()) {
        try {
          const res = await fetch(exporter.url, { method: "POST", headers: exporter.headers, body: body(exporter, spans), signal: AbortSignal.timeout(POST_TIMEOUT_MS) });
          await res.body?.cancel();
          if (!res.ok) throw new Error(`collector answered ${res.status}`);
        } catch {
          dropped.count += spans.length;
          downUntil = Date.now() + BACKOFF_MS;
        }
      }
    }
  } finally {
    sending = false;
  }
}

/**
 * Queues the span of one answered call and, when no flush is in flight, sends the queue from `waitUntil`.
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
  const now = Date.now();
  if (now < downUntil || buffer.length >= MAX_BUFFER) {
    dropped.count++;
    return;
  }
  buffer.push({ exporter, span: spanOf(request, outcome, mockOutcome, traceparent, start, now) });
  if (sending) return;
  sending = true;
  waitUntil(flush());
}
