// The floor: node:http reads the body and writes a fixed answer (a Chat Completions body, or for a stream request
// a fixed 200-word SSE transcript) — no parsing, no routing. Prints its URL.
import { createServer } from "node:http";
import { JSON_TEXT, WORDS_200 } from "../workload.mjs";

const json = JSON.stringify({
  id: "chatcmpl-floor",
  object: "chat.completion",
  created: 1735689600,
  model: "gpt-4o",
  choices: [{ index: 0, message: { role: "assistant", content: JSON_TEXT, refusal: null }, finish_reason: "stop", logprobs: null }],
  usage: { prompt_tokens: 64, completion_tokens: 32, total_tokens: 96 },
});
const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: "chatcmpl-floor", object: "chat.completion.chunk", created: 1735689600, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const sse = [chunk({ role: "assistant", content: "" }), ...WORDS_200.split(" ").map((w, i) => chunk({ content: i === 0 ? w : ` ${w}` })), chunk({}, "stop"), "data: [DONE]\n\n"].join("");

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const stream = Buffer.concat(chunks).includes('"stream":true');
    const body = stream ? sse : json;
    res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
