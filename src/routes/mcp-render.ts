/**
 * How the MCP route sends what the session decided: one JSON body (an object, or an array for a batch) or an SSE
 * stream of `message` events, each due at an offset from the request's arrival (scripted `delayMs`, progress
 * notifications spread before the answer). The writer never awaits before the Response is returned.
 */
import { encodeEvent, sleep, writtenBody } from "../http/sse";
import type { Exec } from "../runtime/types";
import { Response } from "../http/web";

/** One JSON-RPC message to send, due `at` ms after the request arrived. */
export interface Outgoing {
  at: number;
  message: unknown;
}

const encoder = new TextEncoder();

/** Progress notifications for a call: evenly spread over its delay, before the answer at `delayMs`. */
export function progressMessages(start: number, delayMs: number, token: string | number, steps: { progress: number; total?: number | undefined; message?: string | undefined }[]): Outgoing[] {
  return steps.map((s, i) => ({
    at: start + (delayMs * i) / steps.length,
    message: {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: token, progress: s.progress, ...(s.total !== undefined ? { total: s.total } : {}), ...(s.message !== undefined ? { message: s.message } : {}) },
    },
  }));
}

function sseText(m: Outgoing): string {
  return encodeEvent({ event: "message", data: JSON.stringify(m.message) });
}

/** An SSE response of `out` (in order), paced from `exec.arrivedAt`. */
export function sseResponse(out: Outgoing[], exec: Exec, headers: Record<string, string>): Response {
  const head = { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers };
  if (out.every((m) => m.at <= 0)) return new Response(out.map(sseText).join(""), { status: 200, headers: head });
  const start = exec.arrivedAt ?? Date.now();
  const body = writtenBody(exec.waitUntil, exec.bodyPipe, exec.signal, async (writer, pauses) => {
    for (const m of out) {
      await pauses.sleep(m.at - (Date.now() - start));
      if (pauses.aborted) throw new Error("client disconnected");
      await writer.write(encoder.encode(sseText(m)));
    }
    await writer.close();
  });
  return new Response(body, { status: 200, headers: head });
}

/** A JSON response once the last message is due: the answers only (progress needs a stream). */
export async function jsonAnswer(answers: Outgoing[], batch: boolean, exec: Exec, headers: Record<string, string>, status = 200): Promise<Response> {
  const due = Math.max(0, ...answers.map((m) => m.at));
  const start = exec.arrivedAt ?? Date.now();
  await sleep(due - (Date.now() - start), exec.signal);
  const body = batch ? answers.map((a) => a.message) : answers[0]?.message;
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}
