// The Worker path's floor (issue 15): a bare Worker that reads the request body, makes one Durable Object round trip
// with it (the object keeps a count in SQLite, as a session keeps its journal), and answers a fixed body — the same
// answers as the Node floor (bench/floor-answers.mjs): a Chat Completions body, or for a stream request the fixed
// 200-word SSE transcript, so its client reads as many bytes as mockllm's on the stream row. (Until wave 6 it answered
// the stream row with the JSON body: ~300 bytes against mockllm's ~22 KB transcript.) mockllm's Worker is measured
// against this in the same bench run. With the binding PROBE_MODE = "fetch" (bench/worker-cpu.mjs --probe-fetch) the
// Worker forwards the request to the object's fetch instead, which reads the body and answers: what one Durable Object
// crossing costs when a Request and a Response cross it rather than an RPC's arguments and result.
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
  async fetch(request) {
    const body = await request.text();
    this.take(body);
    return answer(body);
  }
}

function answer(body) {
  const stream = body.includes(STREAM_MARK);
  return new Response(stream ? FLOOR_SSE : FLOOR_JSON, { headers: { "content-type": stream ? "text/event-stream" : "application/json" } });
}

export default {
  async fetch(request, env) {
    if (env.PROBE_MODE === "fetch") return env.PROBE.getByName("probe").fetch(request);
    const body = await request.text();
    await env.PROBE.getByName("probe").take(body);
    return answer(body);
  },
};
