/**
 * The speech audio: 24 kHz mono 16-bit (OpenAI's), a quiet 400 Hz tone (exactly 60 samples a period, so the bytes
 * are the same on every engine), as raw PCM or in a WAV (RIFF) file.
 */

export const SAMPLE_RATE = 24_000;
/** Samples of one period of the 400 Hz tone at 24 kHz. */
const PERIOD = 60;
/** Peak amplitude: about −30 dBFS, a quiet tone. */
const AMPLITUDE = 1000;
const TONE = Int16Array.from({ length: PERIOD }, (_, i) => Math.round(AMPLITUDE * Math.sin((2 * Math.PI * i) / PERIOD)));

/** Samples in `durationMs` of audio. */
export function sampleCount(durationMs: number): number {
  return Math.round((durationMs * SAMPLE_RATE) / 1000);
}

/** Sample `i` of the tone. */
export function toneSample(i: number): number {
  return TONE[i % PERIOD]!;
}

/**
 * `samples` of the tone as raw 16-bit little-endian PCM (`response_format: "pcm"`).
 * @example pcm(2).length // 4
 */
export function pcm(samples: number): Uint8Array {
  const out = new Uint8Array(samples * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < samples; i++) view.setInt16(i * 2, toneSample(i), true);
  return out;
}

/**
 * The same samples in a canonical 44-byte-header WAV file (`response_format: "wav"`).
 * @example wav(24000).length // 48044: one second
 */
export function wav(samples: number): Uint8Array {
  const data = pcm(samples);
  const out = new Uint8Array(44 + data.length);
  out.set(wavHeader(data.length));
  out.set(data, 44);
  return out;
}

/** The 44-byte RIFF header of a WAV file holding `dataBytes` of 16-bit mono PCM. */
export function wavHeader(dataBytes: number): Uint8Array {
  const out = new Uint8Array(44);
  const v = new DataView(out.buffer);
  const tag = (at: number, s: string) => {
    for (let i = 0; i < 4; i++) out[at + i] = s.charCodeAt(i);
  };
  tag(0, "RIFF");
  v.setUint32(4, 36 + dataBytes, true);
  tag(8, "WAVE");
  tag(12, "fmt ");
  v.setUint32(16, 16, true); // fmt chunk size
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, SAMPLE_RATE, true);
  v.setUint32(28, SAMPLE_RATE * 2, true); // byte rate
  v.setUint16(32, 2, true); // block align
  v.setUint16(34, 16, true); // bits per sample
  tag(36, "data");
  v.setUint32(40, dataBytes, true);
  return out;
}

/** MPEG-2 Layer III, 24 kHz, 32 kbit/s, mono, no CRC: the frame header. */
export const MP3_HEADER = [0xff, 0xf3, 0x44, 0xc0];
/** Bytes per frame: 72 · 32000 / 24000. */
export const MP3_FRAME_BYTES = 96;
/** Samples per MPEG-2 Layer III frame. */
export const MP3_FRAME_SAMPLES = 576;

/**
 * `samples` of silence as MP3 frames (rounded up to whole 24 ms frames): each frame's side information is zero, so
 * every granule decodes to silence. Real MP3 any decoder plays; a tone would need a real encoder.
 * @example mp3(576).length // 96: one frame
 */
export function mp3(samples: number): Uint8Array {
  const frames = Math.max(1, Math.ceil(samples / MP3_FRAME_SAMPLES));
  const out = new Uint8Array(frames * MP3_FRAME_BYTES);
  for (let f = 0; f < frames; f++) out.set(MP3_HEADER, f * MP3_FRAME_BYTES);
  return out;
}
