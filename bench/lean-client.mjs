// A lean client for the one-connection rows: one kept-alive TCP socket, the request's bytes written whole, the next
// written as soon as the answer has all arrived (by its Content-Length, or its chunks' end). No HTTP library, no
// histogram, no timers but the run's own: at one connection a client's own cost is added to every round trip, and on
// this machine autocannon's was also quantised (docs/performance.md, "Wave 24": one floor server read 252 µs a
// request by autocannon and 97–267 by this client, in alternating runs).
//   const { rate, p50, p99, non2xx } = await leanRoundTrips(url, { method: "POST", headers, body, duration: 5 })
import net from "node:net";
import { pct } from "./launch.mjs";

/** The request's bytes: request line, the given headers, `host` and `content-length`, the body. */
function requestBytes(url, method, headers, body) {
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  if (body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n${body ?? ""}`);
}

/**
 * Where the answer starting at `buf[0]` ends (its length in bytes), or -1 while it has not all arrived; with its status.
 * A body is framed by Content-Length or chunked transfer coding (the peer's); an answer with neither is refused.
 */
export function answerEnd(buf) {
  const head = buf.indexOf("\r\n\r\n");
  if (head < 0) return { end: -1 };
  const lines = buf.toString("latin1", 0, head).split("\r\n");
  const status = Number(lines[0].split(" ")[1]);
  let length;
  let chunked = false;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-length") length = Number(value);
    else if (name === "transfer-encoding" && value.toLowerCase().includes("chunked")) chunked = true;
  }
  if (!chunked) {
    if (length === undefined) throw new Error(`an answer with neither Content-Length nor chunks (status ${status})`);
    const end = head + 4 + length;
    return { end: buf.length >= end ? end : -1, status };
  }
  // Chunks: a hex size line, that many bytes and CRLF, until the size 0 (no trailers: none of the targets sends any).
  let at = head + 4;
  for (;;) {
    const eol = buf.indexOf("\r\n", at);
    if (eol < 0) return { end: -1 };
    const line = buf.toString("latin1", at, eol);
    if (!/^[0-9a-fA-F]+(;.*)?$/.test(line)) throw new Error(`a chunk's size line reads ${JSON.stringify(line)}`);
    const size = Number.parseInt(line, 16);
    if (size === 0) return { end: buf.length >= eol + 4 ? eol + 4 : -1, status };
    at = eol + 2 + size + 2;
    if (at > buf.length) return { end: -1 };
    if (buf[at - 2] !== 0x0d || buf[at - 1] !== 0x0a) throw new Error(`a chunk of ${size} bytes is not followed by CRLF`);
  }
}

/**
 * Round trips one at a time on one socket for `duration` seconds: requests a second, the round trip's p50 and p99 in
 * µs, and how many answers were not 2xx.
 * @example await leanRoundTrips("http://127.0.0.1:8787/v1/chat/completions", { method: "POST", headers, body, duration: 5 })
 */
export async function leanRoundTrips(target, { method = "GET", headers = {}, body, duration = 5 } = {}) {
  const url = new URL(target);
  const bytes = requestBytes(url, method, headers, body);
  const socket = net.connect(Number(url.port || 80), url.hostname);
  socket.setNoDelay(true);
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const times = [];
  let non2xx = 0;
  let pending = Buffer.alloc(0);
  let sentAt = 0n;
  const started = process.hrtime.bigint();
  const stopAt = started + BigInt(Math.round(duration * 1e9));
  try {
    await new Promise((resolve, reject) => {
      socket.on("error", reject);
      socket.on("close", () => reject(new Error("the server closed the connection")));
      socket.on("data", (chunk) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        let answer;
        try {
          answer = answerEnd(pending);
        } catch (e) {
          return reject(e); // an answer that cannot be framed ends the run, through its promise (a caller's cleanup runs)
        }
        const { end, status } = answer;
        if (end < 0) return;
        const now = process.hrtime.bigint();
        times.push(Number(now - sentAt) / 1000);
        if (!(status >= 200 && status <= 299)) non2xx++; // a status line that is not one counts as not 2xx
        if (end !== pending.length) return reject(new Error("bytes after the answer: the server answered twice"));
        pending = Buffer.alloc(0);
        if (now >= stopAt) return resolve();
        sentAt = now;
        socket.write(bytes);
      });
      sentAt = process.hrtime.bigint();
      socket.write(bytes);
    });
  } finally {
    socket.removeAllListeners("close");
    socket.destroy();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { rate: times.length / seconds, p50: pct(times, 50), p99: pct(times, 99), non2xx, count: times.length };
}
