/**
 * Splits an upstream body into frames as its chunks arrive, whatever the chunk boundaries: one SSE event (its
 * `event:`/`data:` lines and the blank line that ends it), one NDJSON line (with its newline), or the whole body
 * (JSON and anything else). The frames joined give back the body exactly.
 */
import type { RecordedFrames } from "../scenario/schema";

export type Frame = RecordedFrames["frames"][number];
export type FrameFormat = "sse" | "ndjson" | "whole";

/** The frame format of an upstream answer, from its content type. */
export function frameFormatOf(contentType: string | null): FrameFormat {
  const media = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (media === "text/event-stream") return "sse";
  if (media === "application/x-ndjson" || media === "application/jsonl" || media === "application/json-seq" || media === "application/stream+json") return "ndjson";
  return "whole";
}

/** The end of the first SSE event in `text` (after its blank line), or -1. CRLF, LF and CR line ends all count. */
function sseEventEnd(text: string, from: number): number {
  for (let i = Math.max(0, from); i < text.length; i++) {
    const c = text[i];
    if (c === "\n") {
      if (text[i + 1] === "\n") return i + 2;
      if (text[i + 1] === "\r" && text[i + 2] === "\n") return i + 3;
      // "\n\r" + end of buffer: the "\n" may still come; a lone "\r" after "\n" ends the event too (CR line ends).
      if (text[i + 1] === "\r" && i + 2 < text.length) return i + 2;
    } else if (c === "\r") {
      if (text[i + 1] === "\r") return i + 2;
    }
  }
  return -1;
}

/**
 * Feed it decoded text with its arrival time; it hands back each frame once it is whole.
 * @example const s = new FrameSplitter("sse"); s.push("data: 1\n\nda", 5); s.push("ta: 2\n\n", 9); s.end()
 */
export class FrameSplitter {
  private buffer = "";
  /** Where the search for the next frame end resumes (bytes before it hold no frame end). */
  private scanned = 0;
  private readonly frames: Frame[] = [];

  constructor(private readonly format: FrameFormat) {}

  /** Adds text that arrived `at` ms after the request; returns the frames it completed. */
  push(text: string, at: number): Frame[] {
    this.buffer += text;
    const done: Frame[] = [];
    if (this.format === "whole") return done;
    for (;;) {
      const end = this.format === "sse" ? sseEventEnd(this.buffer, this.scanned - 2) : this.buffer.indexOf("\n", this.scanned) + 1;
      if (end <= 0) {
        this.scanned = this.buffer.length;
        break;
      }
      done.push({ at, data: this.buffer.slice(0, end) });
      this.buffer = this.buffer.slice(end);
      this.scanned = 0;
    }
    this.frames.push(...done);
    return done;
  }

  /** Ends the body at `at`: what is left becomes the last frame (an unterminated event or line, or the JSON body). */
  end(at: number): Frame[] {
    if (this.buffer === "") return [];
    const last = { at, data: this.buffer };
    this.buffer = "";
    this.scanned = 0;
    this.frames.push(last);
    return [last];
  }

  /** Every frame so far, in order. */
  all(): Frame[] {
    return this.frames;
  }
}
