/**
 * OTLP/HTTP's binary body (`application/x-protobuf`): an `ExportTraceServiceRequest` encoded by hand from the same
 * objects the JSON body is written from, so the Worker bundle carries no protobuf library. Only what the mock's spans
 * use is written, field numbers as in the official definitions (opentelemetry-proto,
 * `opentelemetry/proto/collector/trace/v1/trace_service.proto`, `trace/v1/trace.proto`, `common/v1/common.proto`,
 * `resource/v1/resource.proto`; copies in test/fixtures/opentelemetry-proto, which the tests decode with):
 *
 * - ExportTraceServiceRequest: resource_spans = 1
 * - ResourceSpans: resource = 1, scope_spans = 2 · Resource: attributes = 1
 * - ScopeSpans: scope = 1, spans = 2 · InstrumentationScope: name = 1, version = 2
 * - Span: trace_id = 1 (bytes), span_id = 2 (bytes), parent_span_id = 4 (bytes), name = 5, kind = 6 (enum),
 *   start_time_unix_nano = 7 (fixed64), end_time_unix_nano = 8 (fixed64), attributes = 9, status = 15
 * - Status: message = 2, code = 3 (enum)
 * - KeyValue: key = 1, value = 2 · AnyValue: string_value = 1, bool_value = 2, int_value = 3 (int64),
 *   double_value = 4, array_value = 5 · ArrayValue: values = 1
 *
 * Ids are hex in the JSON encoding and raw bytes here (OTLP specification, "JSON Protobuf Encoding"); fields at their
 * default value (empty, zero) are left out, as proto3 writers do.
 */

/** An attribute value as OTLP/JSON writes it (the subset the mock sends). */
export type OtlpAnyValue = { stringValue: string } | { boolValue: boolean } | { intValue: string | number } | { doubleValue: number } | { arrayValue: { values: OtlpAnyValue[] } };

export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

/** One span as OTLP/JSON writes it: ids as lower-case hex, times as decimal nanosecond strings. */
export interface OtlpJsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  status: { code: number; message?: string };
}

/** An `ExportTraceServiceRequest` as OTLP/JSON writes it. */
export interface OtlpTraceRequest {
  resourceSpans: {
    resource: { attributes: OtlpKeyValue[] };
    scopeSpans: { scope: { name: string; version?: string }; spans: OtlpJsonSpan[] }[];
  }[];
}

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LEN = 2;

const utf8 = new TextEncoder();

/** Each hex digit's value by char code. */
const HEX: Record<number, number> = {};
for (let i = 0; i < 16; i++) {
  HEX["0123456789abcdef".charCodeAt(i)] = i;
  HEX["0123456789ABCDEF".charCodeAt(i)] = i;
}

/** Bytes of `n` as a varint. */
function varintSize(n: number): number {
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** A growing byte buffer with protobuf's primitive writes. */
class Writer {
  buf = new Uint8Array(256);
  len = 0;

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  varint(v: number): void {
    this.room(10);
    while (v > 0x7f) {
      this.buf[this.len++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.len++] = v;
  }

  /** A 64-bit varint (int64: negatives as their two's complement, ten bytes). */
  varint64(v: bigint): void {
    let u = BigInt.asUintN(64, v);
    this.room(10);
    while (u > 0x7fn) {
      this.buf[this.len++] = Number(u & 0x7fn) | 0x80;
      u >>= 7n;
    }
    this.buf[this.len++] = Number(u);
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  bytes(field: number, b: Uint8Array): void {
    this.tag(field, WIRE_LEN);
    this.varint(b.length);
    this.room(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /** A string field; an empty one is left out unless `keepEmpty` (a oneof member set to ""). */
  string(field: number, s: string, keepEmpty = false): void {
    if (s === "" && !keepEmpty) return;
    this.tag(field, WIRE_LEN);
    const n = s.length;
    if (n < 128) {
      // Short ASCII (attribute keys, models, outcomes): byte by byte, the length known up front.
      this.room(1 + n);
      const buf = this.buf;
      let at = this.len + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[at++] = c;
      }
      if (i === n) {
        buf[this.len] = n;
        this.len = at;
        return;
      }
    }
    // At most 3 UTF-8 bytes per UTF-16 unit: encoded in place after room for that length, the length fixed after.
    const max = n * 3;
    const reserved = varintSize(max);
    this.room(reserved + max);
    const at = this.len;
    const { written } = utf8.encodeInto(s, this.buf.subarray(at + reserved, at + reserved + max));
    this.len = at + reserved + written;
    this.putLength(at, reserved, written);
  }

  /** A bytes field from hex (an id); an empty or malformed id is left out rather than sent wrong. */
  hex(field: number, hex: string): void {
    const n = hex.length >> 1;
    if (n === 0 || hex.length % 2 !== 0) return;
    const tagAt = this.len;
    this.tag(field, WIRE_LEN);
    this.varint(n);
    this.room(n);
    for (let i = 0; i < n; i++) {
      const hi = HEX[hex.charCodeAt(2 * i)] ?? 16;
      const lo = HEX[hex.charCodeAt(2 * i + 1)] ?? 16;
      if (hi > 15 || lo > 15) {
        this.len = tagAt;
        return;
      }
      this.buf[this.len + i] = (hi << 4) | lo;
    }
    this.len += n;
  }

  /** Starts a nested message: five bytes kept for its length (up to 2^35); `end` with what this returns. */
  begin(field: number): number {
    this.tag(field, WIRE_LEN);
    this.room(5);
    const at = this.len;
    this.len += 5;
    return at;
  }

  /** Ends the nested message `begin` started: its length put before it, the body moved back over the spare bytes. */
  end(at: number): void {
    this.putLength(at, 5, this.len - at - 5);
  }

  /** Writes `size` as a minimal varint at `at`, where `reserved` bytes were kept for it, moving what follows back. */
  private putLength(at: number, reserved: number, size: number): void {
    const n = varintSize(size);
    let v = size;
    for (let i = 0; i < n; i++) {
      this.buf[at + i] = (v & 0x7f) | (i < n - 1 ? 0x80 : 0);
      v = Math.floor(v / 128);
    }
    if (n < reserved) {
      this.buf.copyWithin(at + n, at + reserved, this.len);
      this.len -= reserved - n;
    }
  }

  /** fixed64, little-endian, from a non-negative decimal string of up to 20 digits (nanoseconds since the epoch). */
  fixed64(field: number, v: string): void {
    // value = high · 10^9 + low, high = h1 · 2^16 + h0: every product below 2^53, so Number math is exact.
    const cut = Math.max(0, v.length - 9);
    const high = cut === 0 ? 0 : Number(v.slice(0, cut));
    const low = Number(cut === 0 ? v : v.slice(cut));
    const h0 = high % 65536;
    const y = ((high - h0) / 65536) * 1e9; // h1 · 10^9
    const t = (y % 65536) * 65536 + h0 * 1e9 + low;
    const lo = t % 4294967296;
    const hi = (Math.floor(y / 65536) + Math.floor(t / 4294967296)) % 4294967296;
    if (hi === 0 && lo === 0) return;
    this.tag(field, WIRE_FIXED64);
    this.room(8);
    const buf = this.buf;
    const at = this.len;
    for (let i = 0; i < 4; i++) buf[at + i] = (lo >>> (8 * i)) & 0xff;
    for (let i = 0; i < 4; i++) buf[at + 4 + i] = (hi >>> (8 * i)) & 0xff;
    this.len += 8;
  }

  double(field: number, v: number): void {
    this.tag(field, WIRE_FIXED64);
    this.room(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.len, 8).setFloat64(0, v, true);
    this.len += 8;
  }

  enumOrInt(field: number, v: number): void {
    if (v === 0) return;
    this.tag(field, WIRE_VARINT);
    this.varint(v);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

/** Hex (an id) as bytes; an odd or non-hex string gives no bytes. */
export function hexBytes(hex: string): Uint8Array {
  const w = new Writer();
  w.hex(1, hex);
  return w.len === 0 ? new Uint8Array(0) : w.finish().subarray(2);
}

function anyValue(w: Writer, v: OtlpAnyValue): void {
  if ("stringValue" in v) {
    // An empty string is still the oneof's value: written, not left out.
    w.string(1, v.stringValue, true);
  } else if ("intValue" in v) {
    w.tag(3, WIRE_VARINT);
    const n = Number(v.intValue);
    if (Number.isSafeInteger(n) && n >= 0) w.varint(n);
    else w.varint64(BigInt(v.intValue));
  } else if ("arrayValue" in v) {
    const at = w.begin(5);
    for (const x of v.arrayValue.values) {
      const item = w.begin(1);
      anyValue(w, x);
      w.end(item);
    }
    w.end(at);
  } else if ("boolValue" in v) {
    w.tag(2, WIRE_VARINT);
    w.varint(v.boolValue ? 1 : 0);
  } else if ("doubleValue" in v) w.double(4, v.doubleValue);
}

function keyValues(w: Writer, field: number, attributes: readonly OtlpKeyValue[]): void {
  for (const a of attributes) {
    const kv = w.begin(field);
    w.string(1, a.key);
    const value = w.begin(2);
    anyValue(w, a.value);
    w.end(value);
    w.end(kv);
  }
}

function span(w: Writer, s: OtlpJsonSpan): void {
  w.hex(1, s.traceId);
  w.hex(2, s.spanId);
  if (s.parentSpanId !== undefined) w.hex(4, s.parentSpanId);
  w.string(5, s.name);
  w.enumOrInt(6, s.kind);
  w.fixed64(7, s.startTimeUnixNano);
  w.fixed64(8, s.endTimeUnixNano);
  keyValues(w, 9, s.attributes);
  const status = w.begin(15);
  if (s.status.message !== undefined) w.string(2, s.status.message);
  w.enumOrInt(3, s.status.code);
  w.end(status);
}

/**
 * The protobuf encoding of an `ExportTraceServiceRequest` given as its OTLP/JSON object.
 * @example const body = encodeTraceRequest({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [] }] })
 */
export function encodeTraceRequest(request: OtlpTraceRequest): Uint8Array {
  const w = new Writer();
  for (const rs of request.resourceSpans) {
    const r = w.begin(1);
    const res = w.begin(1);
    keyValues(w, 1, rs.resource.attributes);
    w.end(res);
    for (const ss of rs.scopeSpans) {
      const s = w.begin(2);
      const scope = w.begin(1);
      w.string(1, ss.scope.name);
      if (ss.scope.version !== undefined) w.string(2, ss.scope.version);
      w.end(scope);
      for (const x of ss.spans) {
        const sp = w.begin(2);
        span(w, x);
        w.end(sp);
      }
      w.end(s);
    }
    w.end(r);
  }
  return w.finish();
}
