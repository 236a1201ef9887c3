/**
 * RFC 6455 close handshakes over raw TCP, on both runtimes (the Worker under workerd, the Node server): a client's
 * close frame with a legal code is echoed; one with a code no endpoint may send (999, 1004, 5000, 65535) is answered
 * with 1002 and the connection ends. A client library refuses to send such codes, so the frames are written by hand.
 */
import net from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  // The Worker's first socket (a cold session object) can take seconds: not what the cases below measure.
  await closeWith("/s/close-codes/warm/v1/responses", 1000);
});
afterAll(() => h?.stop());

/** A masked client frame. */
function frame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, masked]);
}

function closeFrame(code: number): Buffer {
  const payload = Buffer.alloc(2);
  payload.writeUInt16BE(code);
  return frame(0x8, payload);
}

/** The server's frames after the handshake, until the connection ends (or 10 s pass). */
async function closeWith(path: string, code: number): Promise<{ frames: { opcode: number; payload: Buffer }[]; ended: boolean }> {
  const { hostname, port } = new URL(h.url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  let data = Buffer.alloc(0);
  let upgraded = false;
  const frames: { opcode: number; payload: Buffer }[] = [];
  const ended = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 10_000);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  socket.on("error", () => {});
  socket.on("data", (chunk: Buffer) => {
    data = Buffer.concat([data, chunk]);
    if (!upgraded) {
      const end = data.indexOf("\r\n\r\n");
      if (end < 0) return;
      expect(data.subarray(0, 12).toString()).toBe("HTTP/1.1 101");
      upgraded = true;
      data = data.subarray(end + 4);
      socket.write(closeFrame(code));
    }
    // Server frames are unmasked; lengths of 126 and more take 2 more bytes (none here needs 8).
    for (;;) {
      if (data.length < 2) break;
      const short = data[1]! & 0x7f;
      const head = short === 126 ? 4 : 2;
      if (data.length < head) break;
      const length = short === 126 ? data.readUInt16BE(2) : short;
      if (data.length < head + length) break;
      frames.push({ opcode: data[0]! & 0x0f, payload: data.subarray(head, head + length) });
      data = data.subarray(head + length);
    }
  });
  socket.write(
    [
      `GET ${path} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      "Upgrade: websocket",
      "Connection: Upgrade",
      `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}`,
      "Sec-WebSocket-Version: 13",
      "Authorization: Bearer sk-test",
      "",
      "",
    ].join("\r\n"),
  );
  const done = await ended;
  socket.destroy();
  return { frames, ended: done };
}

const closes = (frames: { opcode: number; payload: Buffer }[]) => frames.filter((f) => f.opcode === 0x8).map((f) => f.payload.readUInt16BE(0));

describe("a client's close frame", () => {
  it.each([999, 1004, 5000, 65535])("with the illegal code %i: answered with 1002, and the connection ends", async (code) => {
    const { frames, ended } = await closeWith("/s/close-codes/illegal/v1/responses", code);
    expect(closes(frames)).toEqual([1002]);
    expect(ended).toBe(true);
  });

  it.each([1000, 4000])("with the legal code %i: echoed, and the connection ends", async (code) => {
    const { frames, ended } = await closeWith("/s/close-codes/legal/v1/responses", code);
    expect(closes(frames)).toEqual([code]);
    expect(ended).toBe(true);
  });

  it("on a Realtime socket: answered with 1002 after session.created", async () => {
    const { frames, ended } = await closeWith("/s/close-codes/rt/v1/realtime?model=gpt-realtime", 5000);
    expect(JSON.parse(frames[0]!.payload.toString()).type).toBe("session.created");
    expect(closes(frames)).toEqual([1002]);
    expect(ended).toBe(true);
  });
});
