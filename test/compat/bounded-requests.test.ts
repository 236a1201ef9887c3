/**
 * Requests that cost seconds of CPU before (issue 51, point 3), on both runtimes: each is answered as the real API
 * answers it, at the cost of a refusal or of its answer's size. The CPU figures are bench/bounded-requests.mjs's.
 * - Cohere rerank v1: `max_chunks_per_doc` below 1 is Cohere's 400 (it defeated the 10,000-chunk limit), through
 *   the official `cohere-ai` v1 client and on the wire;
 * - multipart: a body of near-boundaries (dashes against a 70-dash boundary) is the 400 it always was, found in one
 *   linear pass; a form whose file holds partial delimiters keeps every byte;
 * - `/v1/responses/compact`: a client's earlier summary sent back whole is quoted, bounded, in the new one.
 */
import { CohereClient, Cohere, type CohereError } from "cohere-ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EARLIER_SUMMARY_QUOTE } from "../../src/canonical/compaction";
import { compactionBlob, summaryOfBlob } from "../../src/providers/openai/responses/compaction";
import { startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.upload({ name: "bounded", steps: [{ consume: false, respond: { transcript: "ok" } }] });
});
afterAll(() => h?.stop());

const post = (path: string, body: BodyInit, headers: Record<string, string>) => fetch(`${h.url}${path}`, { method: "POST", headers: { authorization: "Bearer sk-test", ...headers }, body });

describe("Cohere rerank v1: max_chunks_per_doc", () => {
  it.each([0, -1])("max_chunks_per_doc %d is a 400 BadRequestError (the SDK's v1 client)", async (chunks) => {
    const co = new CohereClient({ token: "co-test", baseUrl: h.url, maxRetries: 0 });
    const err = await co.rerank({ query: "q", documents: ["a", "b"], maxChunksPerDoc: chunks }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Cohere.BadRequestError);
    expect([(err as CohereError).statusCode, (err as CohereError).body]).toEqual([400, { message: "invalid request: max_chunks_per_doc must be greater than 0" }]);
  });

  it("100,000 documents with -1 chunks: the 400, not a 10 MB answer; 10,001 × 1 chunk: the chunk limit", async () => {
    const many = Array.from({ length: 100_000 }, () => "d");
    const negative = await post("/v1/rerank", JSON.stringify({ query: "q", documents: many, max_chunks_per_doc: -1 }), { "content-type": "application/json" });
    expect([negative.status, await negative.json()]).toEqual([400, { message: "invalid request: max_chunks_per_doc must be greater than 0" }]);
    const over = await post("/v1/rerank", JSON.stringify({ query: "q", documents: many.slice(0, 10_001), max_chunks_per_doc: 1 }), { "content-type": "application/json" });
    expect([over.status, await over.json()]).toEqual([400, { message: "invalid request: number of total max chunks (number of documents * max chunks per doc) must be less than 10000" }]);
    const at = await post("/v1/rerank", JSON.stringify({ query: "q", documents: many.slice(0, 10_000), max_chunks_per_doc: 1, top_n: 1 }), { "content-type": "application/json" });
    expect(at.status).toBe(200);
    expect(((await at.json()) as { results: unknown[] }).results).toHaveLength(1);
  });
});

describe("multipart: the boundary search is linear", () => {
  const boundary = "-".repeat(70);

  it("8 MiB of dashes against a 70-dash boundary: the 400 for a body without a delimiter", async () => {
    const res = await post("/v1/audio/transcriptions", "-".repeat(69).concat("x").repeat(120_000), { "content-type": `multipart/form-data; boundary=${boundary}` });
    expect([res.status, ((await res.json()) as { error: { message: string } }).error.message]).toEqual([400, "Could not parse multipart form: the multipart body has no boundary delimiter."]);
  });

  it("a file made of partial delimiters keeps every byte (the journal's size), fields parse as sent", async () => {
    const near = `\r\n--${"-".repeat(69)}x\r\n-${boundary}\r\n--${boundary.slice(0, 35)}`;
    const file = near.repeat(100);
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n${file}\r\n` +
      `--${boundary}--\r\n`;
    const res = await post("/s/bounded/mp/v1/audio/transcriptions", body, { "content-type": `multipart/form-data; boundary=${boundary}` });
    expect([res.status, await res.json()]).toMatchObject([200, { text: "ok" }]);
    const [entry] = await h.journal("bounded", "mp");
    expect(entry?.request.body).toMatchObject({ model: "whisper-1", file: { filename: "a.wav", type: "audio/wav", size: file.length } });
  });
});

describe("/v1/responses/compact: an earlier summary is quoted, bounded", () => {
  it("a 2 MB summary sent back: the new summary quotes its first characters, the answer stays small", async () => {
    const earlier = "The user asked about Kyoto. ".repeat(75_000);
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/v1`, maxRetries: 0 });
    const { data, response } = await client.responses
      .compact({
        model: "gpt-5",
        input: [{ type: "compaction", encrypted_content: compactionBlob(earlier) } as never, { role: "user", content: "Book it." }],
      })
      .withResponse();
    const item = data.output.at(-1) as OpenAI.Responses.ResponseCompactionItem;
    const summary = summaryOfBlob(item.encrypted_content);
    const quoted = summary.slice(summary.indexOf(" An earlier summary: ") + " An earlier summary: ".length);
    expect(quoted).toBe(`${earlier.slice(0, EARLIER_SUMMARY_QUOTE)}…`);
    expect(Number(response.headers.get("content-length") ?? JSON.stringify(data).length)).toBeLessThan(4_000);
  });
});

describe("an answer given before the body is read", () => {
  // Refused before a byte of the body is read: an unknown path, a wrong admin token, a part for an upload that does not
  // exist. The rest of the body is read and thrown away before the answer goes out (src/index.ts; the Node runtime's
  // transport): workerd run directly closed the connection while the client still wrote, and ~1 in 5 of these
  // requests failed with EPIPE instead of reading the answer.
  const BIG = new Uint8Array(8 << 20);
  const EARLY: Array<[string, Record<string, string>, number]> = [
    ["/v1/nope", { "content-type": "application/octet-stream" }, 404],
    ["/admin/scenarios", { authorization: "Bearer wrong", "content-type": "application/json" }, 401],
    ["/v1/uploads/upload_none/parts", { "content-type": "multipart/form-data; boundary=xx" }, 404],
  ];

  it("an 8 MB body refused unread: the client reads the answer, every time", async () => {
    const seen: string[] = [];
    for (let round = 0; round < 6; round++) {
      for (const [path, headers, status] of EARLY) {
        const res = await post(path, BIG, headers).catch((e: { cause?: { code?: string } }) => e.cause?.code ?? "error");
        seen.push(typeof res === "string" ? `${path} ${res}` : `${path} ${res.status}`);
        if (typeof res !== "string") await res.arrayBuffer();
        expect(seen.at(-1)).toBe(`${path} ${status}`);
      }
    }
    expect(seen).toHaveLength(18);
  });
});
