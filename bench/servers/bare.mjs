// The floor: node:http reads the body and writes a fixed Chat Completions answer. Prints its URL on stdout.
import { createServer } from "node:http";
const answer = JSON.stringify({
  id: "chatcmpl-bench", object: "chat.completion", created: 1735689600, model: "gpt-4o",
  choices: [{ index: 0, message: { role: "assistant", content: "Hello from the floor.", refusal: null }, finish_reason: "stop", logprobs: null }],
  usage: { prompt_tokens: 64, completion_tokens: 32, total_tokens: 96 },
});
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    Buffer.concat(chunks);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) });
    res.end(answer);
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
