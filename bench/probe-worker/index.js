// The Worker path's floor (issue 15): a bare Worker that reads the request body, makes one Durable Object round trip
// with it (the object keeps a count in SQLite, as a session keeps its journal), and answers a fixed body. mockllm's
// JSON turn is measured against this in the same bench run.
import { DurableObject } from "cloudflare:workers";

const ANSWER = JSON.stringify({
  id: "chatcmpl-probe",
  object: "chat.completion",
  created: 1735689600,
  model: "gpt-4o",
  choices: [{ index: 0, message: { role: "assistant", content: "Hello from the bench.", refusal: null }, finish_reason: "stop", logprobs: null }],
  usage: { prompt_tokens: 64, completion_tokens: 32, total_tokens: 96 },
});

export class Probe extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS seen (n INTEGER PRIMARY KEY AUTOINCREMENT, size INTEGER)");
  }
  take(body) {
    this.ctx.storage.sql.exec("INSERT INTO seen (size) VALUES (?)", body.length);
    return body.length;
  }
}

export default {
  async fetch(request, env) {
    const body = await request.text();
    await env.PROBE.getByName("probe").take(body);
    return new Response(ANSWER, { headers: { "content-type": "application/json" } });
  },
};
