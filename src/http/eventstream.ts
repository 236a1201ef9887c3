/**
 * The AWS event stream framing (`application/vnd.amazon.eventstream`), as Bedrock streams use it. One message:
 * total length (u32), headers length (u32), prelude CRC32, headers, payload, message CRC32 (over everything
 * before it). A header is a name (u8 length + UTF-8), a type byte and a value. Pure: no I/O, no runtime.
 */
import { crc32 } from "../util/crc32";

/** A header value and its wire type (the codes 0-9 of the format; `boolean` is 0 for true, 1 for false). */
export type HeaderValue =
  | { type: "boolean"; value: boolean }
  | { type: "byte"; value: number }
  | { type: "short"; value: number }
  | { type: "integer"; value: number }
  | { type: "long"; value: bigint }
  | { type: "binary"; value: Uint8Array }
  | { type: "string"; value: string }
  /** Epoch milliseconds. */
  | { type: "timestamp"; value: number }
  /** 32 hex digits, dashes allowed. */
  | { type: "uuid"; value: string };

/** Headers in wire order; a plain string is a `string` header (type 7). */
export type EventHeaders = Record<string, HeaderValue | string>;

export interface EventMessage {
  headers: Record<string, HeaderValue>;
  body: Uint8Array;
}

const utf8 = new TextEncoder();
const PRELUDE = 12;
const TRAILER = 4;

const TYPE_CODES = { byte: 2, short: 3, integer: 4, long: 5, binary: 6, string: 7, timestamp: 8, uuid: 9 } as const;

function headerBytes(name: string, header: HeaderValue): Uint8Array {
  const nameBytes = utf8.encode(name);
  if (nameBytes.length > 255) throw new Error(`event stream header name too long: ${name}`);
  let value: Uint8Array;
  const fixed = (size: number, write: (v: DataView) => void) => {
    const b = new Uint8Array(size);
    write(new DataView(b.buffer));
    return b;
  };
  const sized = (bytes: Uint8Array) => {
    if (bytes.length > 0xffff) throw new Error(`event stream header value too long: ${name}`);
    const b = fixed(2 + bytes.length, (v) => v.setUint16(0, bytes.length));
    b.set(bytes, 2);
    return b;
  };
  switch (header.type) {
    case "boolean":
      value = new Uint8Array(0);
      break;
    case "byte":
      value = fixed(1, (v) => v.setInt8(0, header.value));
      break;
    case "short":
      value = fixed(2, (v) => v.setInt16(0, header.value));
      break;
    case "integer":
      value = fixed(4, (v) => v.setInt32(0, header.value));
      break;
    case "long":
      value = fixed(8, (v) => v.setBigInt64(0, header.value));
      break;
    case "timestamp":
      value = fixed(8, (v) => v.setBigInt64(0, BigInt(header.value)));
      break;
    case "binary":
      value = sized(header.value);
      break;
    case "string":
      value = sized(utf8.encode(header.value));
      break;
    case "uuid": {
      const hex = header.value.replace(/-/g, "");
      if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`not a UUID: ${header.value}`);
      value = Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16)));
      break;
    }
  }
  const code = header.type === "boolean" ? (header.value ? 0 : 1) : TYPE_CODES[header.type];
  const out = new Uint8Array(1 + nameBytes.length + 1 + value.length);
  out[0] = nameBytes.length;
  out.set(nameBytes, 1);
  out[1 + nameBytes.length] = code;
  out.set(value, 2 + nameBytes.length);
  return out;
}

/**
 * One message as bytes, both CRCs included.
 * @example encodeMessage({ ":message-type": "event", ":event-type": "messageStop" }, utf8.encode('{"stopReason":"end_turn"}'))
 */
export function encodeMessage(headers: EventHeaders, body: Uint8Array | string): Uint8Array {
  const payload = typeof body === "string" ? utf8.encode(body) : body;
  const parts = Object.entries(headers).map(([name, h]) => headerBytes(name, typeof h === "string" ? { type: "string", value: h } : h));
  const headersLength = parts.reduce((n, p) => n + p.length, 0);
  const total = PRELUDE + headersLength + payload.length + TRAILER;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  let at = PRELUDE;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  out.set(payload, at);
  view.setUint32(total - TRAILER, crc32(out.subarray(0, total - TRAILER)));
  return out;
}

function readHeaders(bytes: Uint8Array): Record<string, HeaderValue> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = new TextDecoder();
  const out: Record<string, HeaderValue> = {};
  let at = 0;
  while (at < bytes.length) {
    const nameLength = bytes[at]!;
    const name = text.decode(bytes.subarray(at + 1, at + 1 + nameLength));
    at += 1 + nameLength;
    const code = bytes[at++];
    const sized = () => {
      const n = view.getUint16(at);
      const v = bytes.slice(at + 2, at + 2 + n);
      at += 2 + n;
      return v;
    };
    const take = <T>(size: number, read: () => T): T => {
      const v = read();
      at += size;
      return v;
    };
    switch (code) {
      case 0:
      case 1:
        out[name] = { type: "boolean", value: code === 0 };
        break;
      case 2:
        out[name] = { type: "byte", value: take(1, () => view.getInt8(at)) };
        break;
      case 3:
        out[name] = { type: "short", value: take(2, () => view.getInt16(at)) };
        break;
      case 4:
        out[name] = { type: "integer", value: take(4, () => view.getInt32(at)) };
        break;
      case 5:
        out[name] = { type: "long", value: take(8, () => view.getBigInt64(at)) };
        break;
      case 6:
        out[name] = { type: "binary", value: sized() };
        break;
      case 7:
        out[name] = { type: "string", value: text.decode(sized()) };
        break;
      case 8:
        out[name] = { type: "timestamp", value: Number(take(8, () => view.getBigInt64(at))) };
        break;
      case 9: {
        const hex = Array.from(bytes.subarray(at, at + 16), (b) => b.toString(16).padStart(2, "0")).join("");
        at += 16;
        out[name] = { type: "uuid", value: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` };
        break;
      }
      default:
        throw new Error(`event stream: unknown header type ${String(code)}`);
    }
  }
  if (at !== bytes.length) throw new Error("event stream: headers overrun their length");
  return out;
}

/**
 * Splits `bytes` into messages, checking lengths and both CRCs; throws on a corrupt or cut-off message.
 * @example decodeMessages(encodeMessage({ a: "b" }, "{}"))[0].headers.a // { type: "string", value: "b" }
 */
export function decodeMessages(bytes: Uint8Array): EventMessage[] {
  const out: EventMessage[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (bytes.length - at < PRELUDE + TRAILER) throw new Error("event stream: message cut off in its prelude");
    const view = new DataView(bytes.buffer, bytes.byteOffset + at, bytes.length - at);
    const total = view.getUint32(0);
    const headersLength = view.getUint32(4);
    if (view.getUint32(8) !== crc32(bytes.subarray(at, at + 8))) throw new Error("event stream: prelude CRC mismatch");
    if (total < PRELUDE + TRAILER + headersLength || at + total > bytes.length) throw new Error("event stream: bad message length");
    if (view.getUint32(total - TRAILER) !== crc32(bytes.subarray(at, at + total - TRAILER))) {
      throw new Error("event stream: message CRC mismatch");
    }
    const headers = readHeaders(bytes.subarray(at + PRELUDE, at + PRELUDE + headersLength));
    out.push({ headers, body: bytes.slice(at + PRELUDE + headersLength, at + total - TRAILER) });
    at += total;
  }
  return out;
}
