// The floor: node:http reads the body and writes a fixed answer (bench/floor-answers.mjs: a Chat Completions body, or
// for a stream request a fixed 200-word SSE transcript; the SDK conversation's tool call to a first request offering
// tools) — no parsing, no routing. Prints its URL.
import { createServer } from "node:http";
import { FLOOR_SSE, floorJsonAnswer, STREAM_MARK } from "../floor-answers.mjs";

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const text = Buffer.concat(chunks);
    const stream = text.includes(STREAM_MARK);
    const body = stream ? FLOOR_SSE : floorJsonAnswer(text);
    res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
// A clean exit on SIGTERM, so `--cpu-prof` (bench/node-profile.mjs --target floor) gets to write its profile.
process.on("SIGTERM", () => process.exit(0));
