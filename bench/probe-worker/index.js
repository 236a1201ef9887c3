// The Worker path's floor (issue 15): a bare Worker that reads the request body, makes one Durable Object round trip
// with it (the object keeps a count in SQLite, as a session keeps its journal), and answers a fixed body — the same
// answers as the Node floor (bench/floor-answers.mjs): a Chat Completions body, or for a stream request the fixed
// 200-word SSE transcript, so its client reads as many bytes as mockllm's on the stream row. (Until wave 6 it answered
// the stream row with the JSON body: ~300 bytes against mockllm's ~22 KB transcript.) mockllm's Worker is measured
// against this in the same bench run.
import { DurableObject } from "cloudflare:workers";
import { FLOOR_JSON, FLOOR_SSE, STREAM_MARK } from "../floor-answers.mjs";

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
    const stream = body.includes(STREAM_MARK);
    return new Response(stream ? FLOOR_SSE : FLOOR_JSON, { headers: { "content-type": stream ? "text/event-stream" : "application/json" } });
  },
};
