/**
 * The header of an image sent to Cohere Embed as a base64 data URI: its size, format and bits per pixel, what the
 * answer's `images` reports of each (Cohere's sample: `{ width, height, format: "jpeg", bit_depth: 24 }`). Reads only
 * the first bytes of each image, so the work is bounded by the request's size.
 */

/** What the answer's `images` says of each image (Cohere: `bit_depth` is bits per pixel, 24 for an RGB JPEG). */
export interface ImageInfo {
  width: number;
  height: number;
  format: string;
  bit_depth: number;
}

const DATA_URI = /^data:image\/(?:jpeg|jpg|png|webp|gif);base64,/i;
/** Base64 characters read for an image's header (768 KB of bytes): room for the metadata a JPEG may carry before its frame. */
const HEADER_CHARS = 1 << 20;
const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => u16le(b, at) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number) => u16be(b, at) * 65536 + u16be(b, at + 2);

function pngInfo(b: Uint8Array): ImageInfo | undefined {
  if (b.length < 26 || ascii(b, 1, 3) !== "PNG" || ascii(b, 12, 4) !== "IHDR") return undefined;
  const channels = [1, 1, 3, 1, 2, 1, 4][b[25]!] ?? 1;
  return { width: u32be(b, 16), height: u32be(b, 20), format: "png", bit_depth: b[24]! * channels };
}

function gifInfo(b: Uint8Array): ImageInfo | undefined {
  if (b.length < 10 || ascii(b, 0, 3) !== "GIF") return undefined;
  return { width: u16le(b, 6), height: u16le(b, 8), format: "gif", bit_depth: 8 };
}

function webpInfo(b: Uint8Array): ImageInfo | undefined {
  if (b.length < 30 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WEBP") return undefined;
  const chunk = ascii(b, 12, 4);
  const info = (width: number, height: number, alpha: boolean) => ({ width, height, format: "webp", bit_depth: alpha ? 32 : 24 });
  if (chunk === "VP8 ") return info(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff, false);
  if (chunk === "VP8X") return info(u24le(b, 24) + 1, u24le(b, 27) + 1, (b[20]! & 0x10) !== 0);
  if (chunk !== "VP8L") return undefined;
  const bits = u16le(b, 21) + u16le(b, 23) * 65536;
  return info((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1, ((bits >>> 28) & 1) === 1);
}

/** A JPEG's frame header (SOFn): walks the segments before it by their lengths. */
function jpegInfo(b: Uint8Array): ImageInfo | undefined {
  if (b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  for (let at = 2; at + 9 < b.length; ) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) at += 1;
    else if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: u16be(b, at + 7), height: u16be(b, at + 5), format: "jpeg", bit_depth: b[at + 4]! * b[at + 9]! };
    } else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) at += 2;
    else at += 2 + u16be(b, at + 2);
  }
  return undefined;
}

/**
 * A base64 data URI's image header: size, format and bits per pixel; undefined when it is no JPEG, PNG, WebP or GIF.
 * @example readImage("data:image/gif;base64,R0lGODlhAQABAAAAACw=") // { width: 1, height: 1, format: "gif", bit_depth: 8 }
 */
export function readImage(url: string): ImageInfo | undefined {
  const prefix = DATA_URI.exec(url);
  if (!prefix) return undefined;
  const b64 = url.slice(prefix[0].length, prefix[0].length + HEADER_CHARS).replace(/\s+/g, "");
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(b64.slice(0, b64.length - (b64.length % 4))), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
  return pngInfo(bytes) ?? gifInfo(bytes) ?? webpInfo(bytes) ?? jpegInfo(bytes);
}
