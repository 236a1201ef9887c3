/**
 * An OTLP/HTTP trace receiver for the tests, built on the official protobuf definitions (opentelemetry-proto v1.11.0,
 * `test/fixtures/opentelemetry-proto`, Apache-2.0) read by protobufjs: `POST /v1/traces` with
 * `application/x-protobuf` is decoded as an `ExportTraceServiceRequest`, `application/json` parsed as OTLP/JSON (as
 * the OpenTelemetry Collector's OTLP receiver does), and both given back in one shape: ids as lower-case hex, 64-bit
 * numbers as decimal strings, each attribute value as its one set member. A receiver can also be told to refuse
 * (answer 503) or to never answer, to test the exporter's bounds.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

const PROTO_ROOT = fileURLToPath(new URL("../fixtures/opentelemetry-proto/", import.meta.url));

let root: protobuf.Root | undefined;

/** The official `ExportTraceServiceRequest` type. */
export function exportTraceServiceRequest(): protobuf.Type {
  if (root === undefined) {
    root = new protobuf.Root();
    root.resolvePath = (_origin, target) => (target.startsWith(PROTO_ROOT) ? target : PROTO_ROOT + target);
    root.loadSync("opentelemetry/proto/collector/trace/v1/trace_service.proto", { keepCase: false });
    root.resolveAll();
  }
  return root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, unknown>;
  status: { code: number; message: string };
}

export interface ReceivedExport {
  path: string;
  headers: IncomingHttpHeaders;
  contentType: string;
  resource: Record<string, unknown>;
  scope: { name: string; version: string };
  spans: ReceivedSpan[];
}

type Value = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number; arrayValue?: { values?: Value[] } };

function plainValue(v: Value | undefined): unknown {
  if (v === undefined) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return String(v.intValue);
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(plainValue);
  return undefined;
}

const attrs = (list: { key: string; value?: Value }[] | undefined) => Object.fromEntries((list ?? []).map((a) => [a.key, plainValue(a.value)]));

/** An `ExportTraceServiceRequest` (protobuf bytes or its OTLP/JSON object) in the one shape above. */
export function decodeExport(body: Uint8Array | object, protobufBody: boolean): Omit<ReceivedExport, "path" | "headers" | "contentType">[] {
  type Obj = {
    resourceSpans?: {
      resource?: { attributes?: { key: string; value?: Value }[] };
      scopeSpans?: { scope?: { name?: string; version?: string }; spans?: Record<string, unknown>[] }[];
    }[];
  };
  const type = exportTraceServiceRequest();
  const obj: Obj = protobufBody ? (type.toObject(type.decode(body as Uint8Array), { longs: String, enums: Number, bytes: String, defaults: true, oneofs: false }) as Obj) : (body as Obj);
  const hex = (v: unknown) => (protobufBody ? Buffer.from(String(v ?? ""), "base64").toString("hex") : String(v ?? ""));
  return (obj.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).map((ss) => ({
      resource: attrs(rs.resource?.attributes),
      scope: { name: ss.scope?.name ?? "", version: ss.scope?.version ?? "" },
      spans: (ss.spans ?? []).map((s) => ({
        traceId: hex(s.traceId),
        spanId: hex(s.spanId),
        parentSpanId: hex(s.parentSpanId),
        name: String(s.name ?? ""),
        kind: Number(s.kind ?? 0),
        startTimeUnixNano: String(s.startTimeUnixNano ?? "0"),
        endTimeUnixNano: String(s.endTimeUnixNano ?? "0"),
        attributes: attrs(s.attributes as { key: string; value?: Value }[]),
        status: { code: Number((s.status as { code?: number } | undefined)?.code ?? 0), message: String((s.status as { message?: string } | undefined)?.message ?? "") },
      })),
    })),
  );
}

export type ReceiverMode = "ok" | "refuse" | "hang";

export interface OtlpReceiver {
  url: string;
  exports: ReceivedExport[];
  /** POSTs seen (answered or not). */
  posts: number;
  mode: ReceiverMode;
  /** Every span received so far, waiting up to `ms` for `n` of them. */
  spans(n: number, ms?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

/** A receiver on an ephemeral port of 127.0.0.1. */
export async function startOtlpReceiver(mode: ReceiverMode = "ok"): Promise<OtlpReceiver> {
  const hanging: ServerResponse[] = [];
  const receiver: OtlpReceiver = {
    url: "",
    exports: [],
    posts: 0,
    mode,
    async spans(n, ms = 5000) {
      const all = () => receiver.exports.flatMap((e) => e.spans);
      for (const until = Date.now() + ms; all().length < n && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
      return all();
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      receiver.posts++;
      if (receiver.mode === "hang") return void hanging.push(res);
      if (receiver.mode === "refuse") return void res.writeHead(503, { "content-type": "application/json" }).end('{"code":14,"message":"unavailable"}');
      const contentType = String(req.headers["content-type"] ?? "");
      const raw = Buffer.concat(chunks);
      const isProtobuf = contentType === "application/x-protobuf";
      const decoded = decodeExport(isProtobuf ? new Uint8Array(raw) : (JSON.parse(raw.toString("utf8")) as object), isProtobuf);
      for (const d of decoded) receiver.exports.push({ path: req.url ?? "", headers: req.headers, contentType, ...d });
      // An empty ExportTraceServiceResponse, in the request's encoding.
      if (isProtobuf) res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      else res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
