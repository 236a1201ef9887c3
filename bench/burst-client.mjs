// The burst's client (bench/burst.mjs): one paced stream over node:http, a new connection per stream. Each stream is
// timed to its response head, to its first body byte, to the chunk carrying its first word and to its end.
import http from "node:http";
import { BURST_BODY, JSON_HEADERS } from "./workload.mjs";

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const HEADERS = { ...JSON_HEADERS, "content-length": Buffer.byteLength(BURST_BODY) };

/**
 * One stream: ms to the response head (`ttfb`), to the first body byte (`firstByte`), to the first word (`ttft`),
 * to the end; `ok` when it was a 200 that carried the last word and the terminator.
 */
export function stream(url) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let ttfb;
    let firstByte;
    let ttft;
    let tail = Buffer.alloc(0);
    let sawLast = false;
    const req = http.request(url, { method: "POST", agent, headers: HEADERS }, (res) => {
      ttfb = performance.now() - t0;
      // A word split across two reads is found where the last bytes of one meet the first of the next.
      const has = (chunk, word) => chunk.includes(word) || (tail.length > 0 && Buffer.concat([tail, chunk.subarray(0, 8)]).includes(word));
      res.on("data", (chunk) => {
        firstByte ??= performance.now() - t0;
        if (ttft === undefined && has(chunk, "w000")) ttft = performance.now() - t0;
        if (!sawLast && has(chunk, "w099")) sawLast = true;
        tail = chunk.length >= 16 ? chunk.subarray(chunk.length - 16) : Buffer.concat([tail, chunk]).subarray(-16);
      });
      res.on("end", () => {
        const ok = res.statusCode === 200 && sawLast && tail.includes("[DONE]");
        resolve({ ok, ttfb, firstByte, ttft, ms: performance.now() - t0, status: res.statusCode });
      });
      res.on("error", (e) => resolve({ ok: false, error: e.code ?? e.message }));
    });
    req.on("error", (e) => resolve({ ok: false, error: e.code ?? e.message }));
    req.setTimeout(60_000, () => req.destroy(new Error("timeout")));
    req.end(BURST_BODY);
  });
}

/**
 * The same stream through `fetch` (undici, as a harness written with `fetch` or the `openai` SDK would send it: a
 * keep-alive pool without a connection limit): head when `fetch` resolves, first byte and word from the body reader.
 */
export async function streamFetch(url) {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { method: "POST", headers: JSON_HEADERS, body: BURST_BODY, signal: AbortSignal.timeout(60_000) });
    const ttfb = performance.now() - t0;
    let firstByte;
    let ttft;
    let text = "";
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      firstByte ??= performance.now() - t0;
      text += decoder.decode(chunk, { stream: true });
      if (ttft === undefined && text.includes("w000")) ttft = performance.now() - t0;
    }
    const ok = res.status === 200 && text.includes("w099") && text.trimEnd().endsWith("[DONE]");
    return { ok, ttfb, firstByte, ttft, ms: performance.now() - t0, status: res.status };
  } catch (e) {
    return { ok: false, error: e.cause?.code ?? e.name ?? String(e) };
  }
}
