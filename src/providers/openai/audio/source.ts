/**
 * The speech audio as a `ByteSource` (http/byte-source.ts): any slice of the WAV, PCM, MP3 or FLAC bytes computed
 * from the tone on demand, byte for byte what pcm.ts and flac.ts build whole, so a long answer is streamed in
 * bounded chunks and never held.
 */
import type { ByteSource } from "../../../http/byte-source";
import { BLOCK, codedNumber, frame, streamInfo } from "./flac";
import { MP3_FRAME_BYTES, MP3_FRAME_SAMPLES, MP3_HEADER, toneSample, wavHeader } from "./pcm";

/** Raw 16-bit little-endian PCM of the tone from byte `from` of the PCM data into `out` at `at`. */
function fillPcm(out: Uint8Array, at: number, from: number, size: number): void {
  for (let k = 0; k < size; k++) {
    const b = from + k;
    const s = toneSample(b >> 1) & 0xffff;
    out[at + k] = b & 1 ? s >> 8 : s & 0xff;
  }
}

/** A source made of a fixed head and a body produced by `fill`. */
function headed(head: Uint8Array, bodyBytes: number, fill: (out: Uint8Array, at: number, from: number, size: number) => void): ByteSource {
  const byteLength = head.length + bodyBytes;
  return {
    byteLength,
    read(offset, size) {
      const end = Math.min(byteLength, offset + size);
      const out = new Uint8Array(Math.max(0, end - offset));
      let at = 0;
      if (offset < head.length) {
        const part = head.subarray(offset, Math.min(head.length, end));
        out.set(part);
        at = part.length;
      }
      if (at < out.length) fill(out, at, offset + at - head.length, out.length - at);
      return out;
    },
  };
}

export function pcmSource(samples: number): ByteSource {
  return headed(new Uint8Array(0), samples * 2, fillPcm);
}

export function wavSource(samples: number): ByteSource {
  return headed(wavHeader(samples * 2), samples * 2, fillPcm);
}

export function mp3Source(samples: number): ByteSource {
  const frames = Math.max(1, Math.ceil(samples / MP3_FRAME_SAMPLES));
  return headed(new Uint8Array(0), frames * MP3_FRAME_BYTES, (out, at, from, size) => {
    for (let k = 0; k < size; k++) {
      const pos = (from + k) % MP3_FRAME_BYTES;
      out[at + k] = pos < 4 ? MP3_HEADER[pos]! : 0;
    }
  });
}

/** Bytes of FLAC frame `f` of `count` samples (flac.ts `frame`), without building it. */
function frameBytes(f: number, count: number): number {
  return 4 + codedNumber(f).length + (count === BLOCK ? 0 : 2) + 1 + 1 + count * 2 + 2;
}

export function flacSource(samples: number): ByteSource {
  const head = Uint8Array.from([0x66, 0x4c, 0x61, 0x43, 0x80, 0, 0, 34, ...streamInfo(samples)]);
  const frames = Math.ceil(samples / BLOCK);
  // Where each frame starts in the body (one number a frame: 4096 samples of audio each).
  const starts = new Float64Array(frames + 1);
  for (let f = 0; f < frames; f++) starts[f + 1] = starts[f]! + frameBytes(f, Math.min(BLOCK, samples - f * BLOCK));
  return headed(head, starts[frames]!, (out, at, from, size) => {
    // The first frame holding byte `from`, then each frame the slice overlaps, built and copied.
    let lo = 0;
    let hi = frames - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= from) lo = mid;
      else hi = mid - 1;
    }
    for (let f = lo, done = 0; done < size && f < frames; f++) {
      const bytes = frame(f, f * BLOCK, Math.min(BLOCK, samples - f * BLOCK));
      const skip = from + done - starts[f]!;
      const part = bytes.subarray(skip, skip + (size - done));
      out.set(part, at + done);
      done += part.length;
    }
  });
}
