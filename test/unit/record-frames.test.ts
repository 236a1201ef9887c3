/**
 * The frame splitter over arbitrary chunk boundaries, and the replayed body's chunk boundaries (one chunk per frame).
 */
import { describe, expect, it } from "vitest";
import { FrameSplitter, frameFormatOf, type FrameFormat } from "../../src/record/splitter";
import { framesBody, frameSchedule } from "../../src/turn/frames";
import { seededRandom } from "../../src/util/hash";

const SSE_LF = [
  'event: message_start\ndata: {"type":"message_start"}\n\n',
  ": keep-alive comment\n\n",
  'data: {"text":"héllo wörld ✓ 🎉"}\n\n',
  'event: error\ndata: {"a":1}\ndata: {"b":2}\n\n',
  "data: [DONE]\n\n",
];
const SSE_CRLF = ['data: {"candidates":[1]}\r\n\r\n', 'data: {"candidates":["é🎉"]}\r\n\r\n', 'data: {"candidates":[3]}\r\n\r\n'];
const NDJSON = ['{"message":{"content":"Hal"},"done":false}\n', '{"message":{"content":"ö🎉"},"done":false}\n', '{"done":true}\n'];

/** Splits `frames` (joined, as UTF-8 bytes) at `cuts`, feeding each piece through a streaming decoder. */
function split(format: FrameFormat, frames: string[], cuts: number[]): string[] {
  const bytes = new TextEncoder().encode(frames.join(""));
  const s = new FrameSplitter(format);
  const decoder = new TextDecoder();
  let prev = 0;
  for (const [i, cut] of [...cuts, bytes.length].entries()) {
    s.push(decoder.decode(bytes.slice(prev, cut), { stream: true }), i);
    prev = cut;
  }
  s.push(decoder.decode(), 99);
  s.end(100);
  return s.all().map((f) => f.data);
}

describe("FrameSplitter", () => {
  const cases = [
    { format: "sse" as const, frames: SSE_LF, why: "SSE with LF line ends, comments, multi-line data, UTF-8" },
    { format: "sse" as const, frames: SSE_CRLF, why: "SSE with CRLF event ends (Gemini)" },
    { format: "ndjson" as const, frames: NDJSON, why: "NDJSON (Ollama)" },
  ];

  it.each(cases)("$why: every single cut point gives the same frames", ({ format, frames }) => {
    const total = new TextEncoder().encode(frames.join("")).length;
    for (let cut = 0; cut <= total; cut++) expect(split(format, frames, [cut])).toEqual(frames);
  });

  it.each(cases)("$why: 300 random chunkings (1 to 12 cuts) give the same frames", ({ format, frames }) => {
    const total = new TextEncoder().encode(frames.join("")).length;
    const rand = seededRandom(7);
    for (let run = 0; run < 300; run++) {
      const cuts = Array.from({ length: 1 + Math.floor(rand() * 12) }, () => Math.floor(rand() * (total + 1))).sort((a, b) => a - b);
      expect(split(format, frames, cuts)).toEqual(frames);
    }
  });

  it("one byte at a time", () => {
    const total = new TextEncoder().encode(SSE_LF.join("")).length;
    expect(
      split(
        "sse",
        SSE_LF,
        Array.from({ length: total }, (_, i) => i),
      ),
    ).toEqual(SSE_LF);
  });

  it("stamps a frame with the arrival of the chunk that completed it", () => {
    const s = new FrameSplitter("sse");
    expect(s.push("data: 1\n", 5)).toEqual([]);
    expect(s.push("\ndata: 2\n\ndata: 3", 40)).toEqual([
      { at: 40, data: "data: 1\n\n" },
      { at: 40, data: "data: 2\n\n" },
    ]);
    // An unterminated event (a cut-off stream) is kept as the last frame.
    expect(s.end(70)).toEqual([{ at: 70, data: "data: 3" }]);
  });

  it("keeps a JSON body whole however it arrives", () => {
    const s = new FrameSplitter("whole");
    expect(s.push('{"a":\n', 3)).toEqual([]);
    expect(s.push("1}\n\n", 8)).toEqual([]);
    expect(s.end(9)).toEqual([{ at: 9, data: '{"a":\n1}\n\n' }]);
  });

  it.each([
    ["text/event-stream; charset=utf-8", "sse"],
    ["application/x-ndjson", "ndjson"],
    ["application/json", "whole"],
    [null, "whole"],
  ] as const)("content type %s → %s", (type, format) => {
    expect(frameFormatOf(type)).toBe(format);
  });
});

async function chunks(body: ReadableStream<Uint8Array>): Promise<{ chunks: string[]; broke: boolean }> {
  const reader = body.getReader();
  const out: string[] = [];
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { chunks: out, broke: false };
      out.push(decoder.decode(value));
    }
  } catch {
    return { chunks: out, broke: true };
  }
}

describe("framesBody", () => {
  const frames = SSE_LF.map((data, i) => ({ at: i * 10, data }));
  const exec = { waitUntil: (p: Promise<unknown>) => void p.catch(() => {}) };

  it("writes one chunk per frame, byte for byte", async () => {
    expect(await chunks(framesBody({ status: 200, headers: {}, frames }, "none", exec))).toEqual({ chunks: SSE_LF, broke: false });
  });

  it("breaks off after the last frame of a truncated recording", async () => {
    const cut = { status: 200, headers: {}, frames: frames.slice(0, 2), truncated: true };
    expect(await chunks(framesBody(cut, "none", exec))).toEqual({ chunks: SSE_LF.slice(0, 2), broke: true });
  });

  it("schedules frames at no delay, as recorded, or divided by speed", () => {
    expect(frameSchedule(frames, undefined)).toEqual([0, 0, 0, 0, 0]);
    expect(frameSchedule(frames, "none")).toEqual([0, 0, 0, 0, 0]);
    expect(frameSchedule(frames, "recorded")).toEqual([0, 10, 20, 30, 40]);
    expect(frameSchedule(frames, { speed: 10 })).toEqual([0, 1, 2, 3, 4]);
  });
});
