// The Worker path's floor (issue 15): a bare Worker that reads the request body, makes one Durable Object round trip
// with it (the object keeps a count in SQLite, as a session keeps its journal), and answers a fixed body — the same
// answers as the Node floor (bench/floor-answers.mjs): a Chat Completions body, or for a stream request the fixed
// 200-word SSE transcript, so its client reads as many bytes as mockllm's on the stream row. (Until wave 6 it answered
// the stream row with the JSON body: ~300 bytes against mockllm's ~22 KB transcript.) mockllm's Worker is measured
// against this in the same bench run. With the binding PROBE_MODE = "fetch" (bench/worker-cpu.mjs --probe-fetch) the
// Worker forwards the request to the object's fetch instead, which reads the body and answers: what one Durable Object
// crossing costs when a Request and a Response cross it rather than an RPC's arguments and result. With PROBE_MODE =
// "wire" (bench/compare.mjs's probe-wire target, bench/worker-cpu.mjs --probe-wire) it does what the contract obliges
// around the same round trip and nothing else: see `wire` below. The burst's paced stream (a body with BURST_MARK) it
// answers on mockllm's schedule (`pacedAnswer`): bench/worker-cpu.mjs --probe --load paced.
import { DurableObject } from "cloudflare:workers";
import { BURST_MARK, FLOOR_BURST_EVENTS, FLOOR_JSON, FLOOR_JSON_WIRE, FLOOR_SSE, FLOOR_SSE_WIRE, STREAM_MARK } from "../floor-answers.mjs";

export class Probe extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS seen (n INTEGER PRIMARY KEY AUTOINCREMENT, size INTEGER)");
  }
  take(body) {
    this.ctx.storage.sql.exec("INSERT INTO seen (size) VALUES (?)", body.length);
    return body.length;
  }
  /** PROBE_MODE "wire": the row is the request's headers and body as one JSON text, as a journal entry keeps them. */
  keep(entry) {
    this.ctx.storage.sql.exec("INSERT INTO seen (size) VALUES (?)", JSON.stringify(entry).length);
    return this.ctx.storage.sql.exec("SELECT last_insert_rowid() AS n").one().n;
  }
  async fetch(request) {
    const body = await request.text();
    this.take(body);
    return answer(body, this.ctx);
  }
}

const encoder = new TextEncoder();

/**
 * The burst's paced stream (FLOOR_BURST_EVENTS) as a Worker writes it with nothing else: workerd's
 * IdentityTransformStream (its cheapest byte stream), a timer per due time, a write per due time (events due together
 * in one, as mockllm's writer does), from `ctx.waitUntil`.
 */
function pacedAnswer(ctx) {
  const { readable, writable } = new IdentityTransformStream();
  const writer = writable.getWriter();
  const start = Date.now();
  const run = async () => {
    for (let i = 0; i < FLOOR_BURST_EVENTS.length; ) {
      const wait = FLOOR_BURST_EVENTS[i].at - (Date.now() - start);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      let text = "";
      const now = Date.now() - start;
      do text += FLOOR_BURST_EVENTS[i++].text;
      while (i < FLOOR_BURST_EVENTS.length && FLOOR_BURST_EVENTS[i].at <= now);
      await writer.write(encoder.encode(text));
    }
    await writer.close();
  };
  ctx.waitUntil(run().catch(() => writer.abort().catch(() => {})));
  return new Response(readable, { headers: { "content-type": "text/event-stream; charset=utf-8" } });
}

function answer(body, ctx) {
  if (body.includes(BURST_MARK)) return pacedAnswer(ctx);
  const stream = body.includes(STREAM_MARK);
  return new Response(stream ? FLOOR_SSE : FLOOR_JSON, { headers: { "content-type": stream ? "text/event-stream" : "application/json" } });
}

/**
 * PROBE_MODE "wire": the floor of mockllm's own wire, with no engine — every request header read into a record (the
 * journal keeps them) and sent with the body across the round trip; the answer in the real API's shape at mockllm's
 * length (FLOOR_JSON_WIRE, FLOOR_SSE_WIRE) with the headers mockllm sends on the bench rows: the six `x-mockllm-*` and
 * `x-request-id` (contract: every answer carries them) beside the content type, and `cache-control` on a stream.
 */
async function wire(request, env) {
  const headers = {};
  for (const [k, v] of request.headers) headers[k] = v;
  const body = await request.text();
  const seq = await env.PROBE.getByName("probe").keep({ headers, body });
  const stream = body.includes(STREAM_MARK);
  return new Response(stream ? FLOOR_SSE_WIRE : FLOOR_JSON_WIRE, {
    headers: {
      ...(stream ? { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" } : { "content-type": "application/json" }),
      "x-mockllm-outcome": "response",
      "x-mockllm-scenario": stream ? "bench-stream" : "bench",
      "x-mockllm-session": "b1",
      "x-mockllm-step": "step-1",
      "x-mockllm-version": "4a30bf94b65ded6e",
      "x-request-id": `req_${seq.toString(16).padStart(32, "0")}`,
    },
  });
}

export default {
  async fetch(request, env, ctx) {
    if (env.PROBE_MODE === "fetch") return env.PROBE.getByName("probe").fetch(request);
    if (env.PROBE_MODE === "wire") return wire(request, env);
    const body = await request.text();
    await env.PROBE.getByName("probe").take(body);
    return answer(body, ctx);
  },
};
