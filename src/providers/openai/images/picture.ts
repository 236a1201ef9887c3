/**
 * The deterministic picture: one colour (the step's `respond.image.color`, else derived from the prompt), encoded in
 * the asked format; and the image-file ids `url` answers carry, which encode everything needed to draw it again.
 */
import { stableHash } from "../../../util/hash";
import { encodeJpeg } from "./jpeg";
import { encodePng, type Rgba } from "../../../util/png";
import { encodeWebp } from "./webp";
import type { ImageFormat } from "./wire";

export const CONTENT_TYPES: Record<ImageFormat, string> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" };

/** Largest side a file id may ask for. */
export const MAX_SIDE = 4096;

export interface Picture {
  width: number;
  height: number;
  /** `rrggbb`, lower case. */
  hex: string;
  transparent: boolean;
  format: ImageFormat;
}

/** The colour of image `index` for `prompt`: the scripted one, else six hex digits of the prompt's hash. */
export function pictureColor(prompt: string, index: number, scripted: string | undefined): string {
  if (scripted !== undefined) return scripted.slice(1).toLowerCase();
  return (stableHash(index === 0 ? prompt : `${prompt}|${index}`) & 0xffffff).toString(16).padStart(6, "0");
}

/** The file's bytes. A transparent picture carries an alpha channel (opaque pixels: a flat colour has no background). */
export function encodePicture(p: Picture): Uint8Array {
  const n = Number.parseInt(p.hex, 16);
  const color: Rgba = { r: (n >> 16) & 0xff, g: (n >> 8) & 0xff, b: n & 0xff, ...(p.transparent ? { a: 255 } : {}) };
  if (p.format === "jpeg") return encodeJpeg(p.width, p.height, color);
  if (p.format === "webp") return encodeWebp(p.width, p.height, color);
  return encodePng(p.width, p.height, color);
}

/** The file name a `url` answer points at, e.g. `img-1024x1024-3366ff.png` (`-t` before the extension: transparent). */
export function pictureId(p: Picture): string {
  return `img-${p.width}x${p.height}-${p.hex}${p.transparent ? "-t" : ""}.${p.format}`;
}

const ID = /^img-(\d{1,5})x(\d{1,5})-([0-9a-f]{6})(-t)?\.(png|jpeg|webp)$/;

/** The picture a file name describes, or undefined for a name mockllm never gave out. */
export function pictureOf(id: string): Picture | undefined {
  const m = ID.exec(id);
  if (!m) return undefined;
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) return undefined;
  const format = m[5] === "jpeg" ? "jpeg" : m[5] === "webp" ? "webp" : "png";
  return { width, height, hex: m[3]!, transparent: m[4] !== undefined, format };
}
