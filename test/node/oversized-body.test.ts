// Issue 19: a client that writes its whole (oversized) body before reading must read the 413, not a reset.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/hosts/node/server";

const SIZE = 11 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);
/** The client stalls once mid-body for longer than any short drain window a server might give it. */
const STALL_MS = 700;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({});
});
afterAll(async () => {
  await server.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** A socket error seen while writing or reading (EPIPE, ECONNRESET), if any. */
  error?: string;
}

/**
 * Writes the request line, headers and the whole body (11 MiB of spaces, chunked or with a declared length) before
 * reading a byte of the answer, then reads it.
 */
function rawPost(port: number, path: string, headers: Record<string, string>, chunked = false, method = "POST"): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const sock = connect(port, "127.0.0.1");
    sock.pause();
    const received: Buffer[] = [];
    let error: string | undefined;
    sock.on("data", (d: Buffer) => received.push(d));
    sock.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    sock.on("close", () => {
      const text = Buffer.concat(received).toString("utf8");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const h: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(":");
        if (i > 0) h[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers: h, body: rest.join("\r\n\r\n"), ...(error !== undefined ? { error } : {}) });
    });
    const all = { host: "x", "content-type": "application/json", connection: "close", ...headers, ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(SIZE) }) };
    sock.write(
      `${method} ${path} HTTP/1.1\r\n${Object.entries(all)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("")}\r\n`,
    );
    let sent = 0;
    let stalled = false;
    const pump = () => {
      while (sent < SIZE && error === undefined) {
        const piece = chunked ? Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from("\r\n")]) : CHUNK;
        sent += CHUNK.length;
        const more = sock.write(piece);
        if (!stalled && sent >= SIZE / 2) {
          stalled = true;
          setTimeout(pump, STALL_MS);
          return;
        }
        if (!more) return void sock.once("drain", pump);
      }
      if (chunked && error === undefined) sock.write("0\r\n\r\n");
      sock.resume(); // only now read the answer
    };
    pump();
  });
}

const OPENAI = { authorization: "Bearer sk" };
const ANTHROPIC = { "x-api-key": "k", "anthropic-version": "2023-06-01" };
const GEMINI = { "x-goog-api-key": "k" };
const MESSAGE = "Request body is larger than 10485760 bytes.";
const openaiShape = { error: { message: MESSAGE, type: "invalid_request_error", param: null, code: "request_too_large" } };
const anthropicShape = { type: "error", error: { type: "request_too_large", message: MESSAGE } };
const geminiShape = { error: { code: 413, message: MESSAGE, status: "INVALID_ARGUMENT" } };
const ollamaShape = { error: MESSAGE };
const cohereShape = { message: MESSAGE };

const CASES: { path: string; headers: Record<string, string>; shape: Record<string, unknown> }[] = [
  { path: "/v1/chat/completions", headers: OPENAI, shape: openaiShape },
  { path: "/v1/responses", headers: OPENAI, shape: openaiShape },
  { path: "/v1/embeddings", headers: OPENAI, shape: openaiShape },
  { path: "/v1/moderations", headers: OPENAI, shape: openaiShape },
  { path: "/v2/rerank", headers: OPENAI, shape: cohereShape },
  { path: "/s/nobody/v1/rerank", headers: OPENAI, shape: cohereShape },
  { path: "/v1/messages", headers: ANTHROPIC, shape: anthropicShape },
  { path: "/v1/messages/count_tokens", headers: ANTHROPIC, shape: anthropicShape },
  { path: "/v1beta/models/gemini-2.5-flash:generateContent", headers: GEMINI, shape: geminiShape },
  { path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", headers: GEMINI, shape: geminiShape },
  { path: "/api/chat", headers: {}, shape: ollamaShape },
  { path: "/api/generate", headers: {}, shape: ollamaShape },
  { path: "/s/nobody/api/chat", headers: {}, shape: ollamaShape },
];

describe("Node runtime: an oversized body is answered, not reset (issue 19)", () => {
  it("answers a declared 11 MiB body with the provider's 413 after the client wrote it all, on every provider path", async () => {
    const answers = await Promise.all(CASES.map((c) => rawPost(server.port, c.path, c.headers)));
    const seen = answers.map((a, i) => ({ path: CASES[i]!.path, status: a.status, error: a.error, body: a.body === "" ? "" : JSON.parse(a.body) }));
    expect(seen).toEqual(CASES.map((c) => ({ path: c.path, status: 413, error: undefined, body: c.path.includes("/v1/messages") ? { ...c.shape, request_id: expect.any(String) } : c.shape })));
  });

  it("answers an 11 MiB chunked body (no declared length) the same way", async () => {
    const a = await rawPost(server.port, "/v1/responses", OPENAI, true);
    expect({ status: a.status, error: a.error, body: JSON.parse(a.body) }).toEqual({ status: 413, error: undefined, body: openaiShape });
  });

  it("reads the body of a request refused before its body is looked at (an unknown path, a GET with a body) and answers it", async () => {
    const a = await rawPost(server.port, "/v1/nope", OPENAI);
    expect({ status: a.status, error: a.error }).toEqual({ status: 404, error: undefined });
    expect(JSON.parse(a.body)).toMatchObject({ error: { message: "Unknown request URL: POST /v1/nope." } });
    const g = await rawPost(server.port, "/s/Bad/api/tags", {}, false, "GET");
    expect({ status: g.status, error: g.error, body: JSON.parse(g.body) }).toEqual({
      status: 400,
      error: undefined,
      body: { error: 'mockllm: invalid scenario name "Bad": names match [a-z0-9][a-z0-9._-]{0,63}' },
    });
  });
});
