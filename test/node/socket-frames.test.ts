/**
 * Malformed WebSocket frames at the Node server (issue 34), written byte by byte after a real upgrade: an unmasked
 * client frame, a reserved opcode, reserved bits, text that is not UTF-8, a fragmented control frame, a close frame
 * with an invalid code, a length past the 100 MiB message limit. Each closes that socket with the code RFC 6455 gives
 * it; the server stays up and the next socket answers a turn.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/hosts/node/server";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({});
});
afterAll(async () => {
  await server.close();
});

const MASK = Buffer.from([1, 2, 3, 4]);

/** A client frame: FIN and opcode in the first byte, masked unless told, with a 7-bit, 16-bit or 64-bit length. */
function frame(first: number, payload: Buffer, opts: { masked?: boolean; length?: bigint } = {}): Buffer {
  const masked = opts.masked ?? true;
  const len = opts.length ?? BigInt(payload.length);
  const head: number[] = [first];
  const bit = masked ? 0x80 : 0;
  if (len < 126n) head.push(bit | Number(len));
  else if (len < 65536n) head.push(bit | 126, Number(len >> 8n), Number(len & 0xffn));
  else {
    head.push(bit | 127);
    for (let i = 7; i >= 0; i--) head.push(Number((len >> BigInt(i * 8)) & 0xffn));
  }
  const body = masked ? Buffer.from(payload.map((b, i) => b ^ MASK[i % 4]!)) : payload;
  return Buffer.concat([Buffer.from(head), masked ? MASK : Buffer.alloc(0), body]);
}

/** Opens a Realtime socket over raw TCP; resolves once the 101 and the first server frame (session.created) arrived. */
function upgrade(port: number): Promise<{ sock: Socket; frames: Buffer[]; ended: Promise<Buffer> }> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, "127.0.0.1");
    const frames: Buffer[] = [];
    let all = Buffer.alloc(0);
    let opened = false;
    let done!: (b: Buffer) => void;
    const ended = new Promise<Buffer>((r) => (done = r));
    sock.on("error", () => {});
    sock.on("close", () => done(all));
    sock.on("data", (d: Buffer) => {
      all = Buffer.concat([all, d]);
      frames.push(d);
      if (!opened && all.includes("\r\n\r\n") && all.length > all.indexOf("\r\n\r\n") + 4) {
        opened = true;
        if (!all.toString("latin1").startsWith("HTTP/1.1 101")) reject(new Error(all.toString("latin1").slice(0, 200)));
        else resolve({ sock, frames, ended });
      }
    });
    sock.write(
      "GET /v1/realtime?model=gpt-realtime HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer sk\r\n\r\n",
    );
  });
}

/** The close code in the last close frame (opcode 8) the server sent, if any. */
function closeCode(bytes: Buffer): number | undefined {
  let code: number | undefined;
  let i = bytes.indexOf("\r\n\r\n") + 4;
  while (i + 2 <= bytes.length) {
    const op = bytes[i]! & 0x0f;
    let len = bytes[i + 1]! & 0x7f;
    let at = i + 2;
    if (len === 126) {
      len = bytes.readUInt16BE(at);
      at += 2;
    } else if (len === 127) {
      len = Number(bytes.readBigUInt64BE(at));
      at += 8;
    }
    if (op === 8 && len >= 2) code = bytes.readUInt16BE(at);
    i = at + len;
  }
  return code;
}

const CASES: [string, Buffer, number][] = [
  ["an unmasked client frame", frame(0x81, Buffer.from('{"type":"x"}'), { masked: false }), 1002],
  ["a reserved opcode (0x3)", frame(0x83, Buffer.from("x")), 1002],
  ["a reserved bit (RSV1 without an extension)", frame(0xc1, Buffer.from("x")), 1002],
  ["a text frame that is not UTF-8", frame(0x81, Buffer.from([0xc3, 0x28, 0xff])), 1007],
  ["a fragmented ping", frame(0x09, Buffer.from("x")), 1002],
  ["a continuation with nothing to continue", frame(0x80, Buffer.from("x")), 1002],
  ["a close frame with code 1005 on the wire", frame(0x88, Buffer.from([0x03, 0xed])), 1002],
  ["a length past the 100 MiB message limit", frame(0x81, Buffer.alloc(0), { length: 200n * 1024n * 1024n }), 1009],
  ["a 64-bit length with the top bit set", frame(0x81, Buffer.alloc(0), { length: 1n << 63n }), 1009],
];

describe("malformed WebSocket frames at the Node server", () => {
  for (const [what, bytes, code] of CASES) {
    it(`${what}: close ${code}; the server answers the next socket`, async () => {
      const { sock, ended } = await upgrade(server.port);
      sock.write(bytes);
      const all = await ended;
      expect(closeCode(all)).toBe(code);
      const next = await upgrade(server.port);
      next.sock.write(frame(0x81, Buffer.from('{"type":"response.create"}')));
      while (!Buffer.concat(next.frames).includes('"type":"response.done"')) await new Promise((r) => next.sock.once("data", r));
      next.sock.write(frame(0x88, Buffer.from([0x03, 0xe8])));
      expect(closeCode(await next.ended)).toBe(1000);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    });
  }
});
