/**
 * `multipart/form-data` bodies (OpenAI's uploads: image edits, transcriptions), read bounded like JSON bodies and
 * parsed by hand, so both runtimes accept and refuse exactly the same bytes. What a surface and the journal see is the
 * form's summary: field values as sent, and for each file its name, type and size — never the bytes.
 */
import { z } from "zod";
import { apiError, type ApiError } from "./errors";
import { readBoundedBytes, type BodyResult } from "./body";
import { lazily } from "../util/memo";
import { own } from "../util/own";

/** A file part as the surface and the journal see it. */
export interface FileSummary {
  filename: string;
  type: string;
  size: number;
}

export type FormValue = string | FileSummary;

/** The form: each name's values in the order sent (repeated names such as `image[]` keep every value). */
export type FormSummary = Record<string, FormValue | FormValue[]>;

/** Most parts one form may carry. */
export const MAX_FORM_PARTS = 256;

export type FormResult = { ok: true; form: FormSummary } | { ok: false; message: string };

const CRLF = [13, 10];
const decoder = new TextDecoder();

/**
 * A needle and its Knuth–Morris–Pratt table (`fail[j]`: the longest proper prefix of `needle[0..j]` that is also its
 * suffix), so a search never looks at a byte of the haystack twice: linear in the body whatever the boundary. A
 * naive search rescanned the boundary at every position — a 25 MiB body of dashes against a 70-dash boundary cost
 * seconds of CPU before its 400.
 */
interface Needle {
  bytes: Uint8Array;
  fail: Int32Array;
}

function needle(bytes: Uint8Array): Needle {
  const fail = new Int32Array(bytes.length);
  for (let i = 1, k = 0; i < bytes.length; i++) {
    while (k > 0 && bytes[i] !== bytes[k]) k = fail[k - 1]!;
    if (bytes[i] === bytes[k]) k++;
    fail[i] = k;
  }
  return { bytes, fail };
}

/**
 * The first index of `n` in `hay` at or after `from`, or -1. Between partial matches it jumps to the next occurrence
 * of the needle's first byte with the runtime's own `indexOf`, so an ordinary upload is scanned at native speed.
 */
function indexOf(hay: Uint8Array, n: Needle, from: number): number {
  const { bytes, fail } = n;
  const m = bytes.length;
  const first = bytes[0]!;
  let i = from;
  let j = 0;
  while (i < hay.length) {
    if (j === 0) {
      i = hay.indexOf(first, i);
      if (i < 0) return -1;
      i++;
      j = 1;
    } else if (hay[i] === bytes[j]) {
      i++;
      j++;
    } else {
      j = fail[j - 1]!;
      continue;
    }
    if (j === m) return i - m;
  }
  return -1;
}

/** The boundary of a `multipart/form-data` content type, or undefined. */
export function formBoundary(contentType: string | null): string | undefined {
  if (contentType === null) return undefined;
  const [media = "", ...params] = contentType.split(";");
  if (media.trim().toLowerCase() !== "multipart/form-data") return undefined;
  for (const p of params) {
    const eq = p.indexOf("=");
    if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== "boundary") continue;
    const raw = p.slice(eq + 1).trim();
    const value = raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1) : raw;
    return value.length >= 1 && value.length <= 70 ? value : undefined;
  }
  return undefined;
}

/** `name="x"` style parameters of a header value (quoted or not). */
function headerParams(value: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /;\s*([A-Za-z0-9_*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g;
  for (let m = re.exec(value); m !== null; m = re.exec(value)) out.set(m[1]!.toLowerCase(), m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : (m[3] ?? ""));
  return out;
}

/** Adds a value under `name` as an own field, whatever the name (`__proto__` and `toString` too: never the prototype's). */
function add(form: FormSummary, name: string, value: FormValue): void {
  const had = own(form, name);
  const next = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  Object.defineProperty(form, name, { value: next, enumerable: true, writable: true, configurable: true });
}

/**
 * Parses a whole form. Strict where it matters (a delimiter, a closing delimiter, headers ended by a blank line, a
 * `form-data` disposition with a name), liberal about the preamble and the epilogue, as RFC 7578 allows.
 * `onFile` is handed each file part's bytes (a view into `bytes`), for the one route that keeps them (file uploads).
 * @example parseForm(bytes, "X") // { ok: true, form: { model: "whisper-1", file: { filename: "a.wav", type: "audio/wav", size: 44 } } }
 */
export function parseForm(bytes: Uint8Array, boundary: string, onFile?: (name: string, bytes: Uint8Array) => void): FormResult {
  const enc = new TextEncoder();
  const delimiter = needle(enc.encode(`--${boundary}`));
  const next = needle(enc.encode(`\r\n--${boundary}`));
  const blank = needle(enc.encode("\r\n\r\n"));
  const form: FormSummary = {};
  let at = indexOf(bytes, delimiter, 0);
  if (at < 0) return { ok: false, message: "the multipart body has no boundary delimiter" };
  at += delimiter.bytes.length;
  for (let parts = 0; ; parts++) {
    if (bytes[at] === 45 && bytes[at + 1] === 45) return { ok: true, form }; // "--": the closing delimiter
    while (bytes[at] === 32 || bytes[at] === 9) at++; // transport padding
    if (bytes[at] !== CRLF[0] || bytes[at + 1] !== CRLF[1]) return { ok: false, message: "a boundary delimiter is not followed by a line break" };
    if (parts >= MAX_FORM_PARTS) return { ok: false, message: `the form has more than ${MAX_FORM_PARTS} parts` };
    const headStart = at + 2;
    const headEnd = indexOf(bytes, blank, headStart - 2);
    if (headEnd < 0) return { ok: false, message: "a part's headers do not end" };
    const end = indexOf(bytes, next, headEnd + 2);
    if (end < 0) return { ok: false, message: "the multipart body has no closing boundary" };
    const headers = new Map<string, string>();
    for (const line of decoder.decode(bytes.subarray(headStart, headEnd)).split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const disposition = headers.get("content-disposition") ?? "";
    const params = headerParams(disposition);
    const name = params.get("name");
    if (!/^form-data\b/i.test(disposition) || name === undefined || name === "") return { ok: false, message: "a part has no form-data name" };
    const body = bytes.subarray(Math.min(headEnd + 4, end), end);
    const filename = params.get("filename");
    if (filename !== undefined) add(form, name, { filename, type: headers.get("content-type") ?? "application/octet-stream", size: body.length });
    if (filename !== undefined) onFile?.(name, body);
    else add(form, name, decoder.decode(body));
    at = end + next.bytes.length;
  }
}

/**
 * The request's form, bounded to `limit` bytes (as JSON bodies are bounded), or the error to answer: `tooLarge` past
 * the limit, a 400 for a body that is not a well-formed form.
 * @example const body = await readFormBody(request, 25 * 1024 * 1024, tooLargeError); if (!body.ok) return fail(body.error)
 */
export async function readFormBody(request: Request, limit: number, tooLarge: (bytes: number | undefined) => ApiError): Promise<BodyResult> {
  const type = request.headers.get("content-type");
  const boundary = formBoundary(type);
  if (boundary === undefined) {
    const message =
      type !== null && /^\s*multipart\/form-data/i.test(type)
        ? "Invalid multipart/form-data request: the Content-Type header has no valid boundary."
        : `Invalid Content-Type header (${type ?? "none"}), expected multipart/form-data. (HINT: If you're using curl, you can pass -F 'file=@audio.wav' to send a form.)`;
    return { ok: false, error: apiError("invalid_request", message) };
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  const bytes = await readBoundedBytes(request, limit);
  if (bytes === undefined) return { ok: false, error: tooLarge(Number.isFinite(declared) && declared > 0 ? declared : undefined) };
  const parsed = parseForm(bytes, boundary);
  if (!parsed.ok) return { ok: false, error: apiError("invalid_request", `Could not parse multipart form: ${parsed.message}.`) };
  return { ok: true, value: parsed.form, text: JSON.stringify(parsed.form), summary: true };
}

/**
 * A form read whole (bounded to `limit` bytes, as an upload is), with the bytes of its first part named `name`: the
 * form's summary, that part's value (a file's summary, or a plain field's text) and its bytes; `tooLarge` past the
 * limit (each API words that refusal its own way); the 400 for a body that is not a well-formed form.
 * @example const got = await readFormPart(request, boundary, MOCK_UPLOAD_BYTES, "file"); if (got.ok && typeof got.value === "object") store(got.bytes)
 */
export async function readFormPart(
  request: Request,
  boundary: string,
  limit: number,
  name: string,
): Promise<{ ok: true; form: FormSummary; value: FormValue | undefined; bytes: Uint8Array | undefined } | { ok: false; tooLarge: true } | { ok: false; tooLarge: false; error: ApiError }> {
  const raw = await readBoundedBytes(request, limit);
  if (raw === undefined) return { ok: false, tooLarge: true };
  let bytes: Uint8Array | undefined;
  const parsed = parseForm(raw, boundary, (n, b) => {
    if (n === name && bytes === undefined) bytes = b;
  });
  if (!parsed.ok) return { ok: false, tooLarge: false, error: apiError("invalid_request", `Could not parse multipart form: ${parsed.message}.`) };
  const value = parsed.form[name];
  return { ok: true, form: parsed.form, value: Array.isArray(value) ? value[0] : value, bytes };
}

/** A file part of a form with its bytes (a view into the form's). */
export interface FormFile {
  name: string;
  filename: string;
  type: string;
  bytes: Uint8Array;
}

/**
 * A form read whole (bounded to `limit` bytes), with every file part whose name is one of `names`, in the order sent
 * (`files` and `files[]`, as openai-node sends an array of uploads); the refusals are `readFormPart`'s.
 * @example const got = await readFormFiles(request, boundary, MOCK_UPLOAD_BYTES, ["files", "files[]"]); if (got.ok) for (const f of got.files) use(f.filename, f.bytes)
 */
export async function readFormFiles(
  request: Request,
  boundary: string,
  limit: number,
  names: readonly string[],
): Promise<{ ok: true; form: FormSummary; files: FormFile[] } | { ok: false; tooLarge: true } | { ok: false; tooLarge: false; error: ApiError }> {
  const raw = await readBoundedBytes(request, limit);
  if (raw === undefined) return { ok: false, tooLarge: true };
  const parts: { name: string; bytes: Uint8Array }[] = [];
  const parsed = parseForm(raw, boundary, (name, bytes) => {
    if (names.includes(name)) parts.push({ name, bytes });
  });
  if (!parsed.ok) return { ok: false, tooLarge: false, error: apiError("invalid_request", `Could not parse multipart form: ${parsed.message}.`) };
  // The summary lists each name's files in the order their parts came: the n-th part of a name is its n-th summary.
  const seen = new Map<string, number>();
  const files = parts.map(({ name, bytes }) => {
    const k = seen.get(name) ?? 0;
    seen.set(name, k + 1);
    const entries = parsed.form[name];
    const summary = (Array.isArray(entries) ? entries.filter((e) => typeof e === "object")[k] : entries) as FileSummary | string | undefined;
    const file = typeof summary === "object" ? summary : { filename: "", type: "application/octet-stream" };
    return { name, filename: file.filename, type: file.type, bytes };
  });
  return { ok: true, form: parsed.form, files };
}

/** Built on the first form file read (util/memo.ts `lazily`): a start pays for no schema it does not use. */
const fileWire = lazily(() => {
  const FileSummarySchema = z.object({ filename: z.string(), type: z.string(), size: z.number() });
  const FilesSchema = z.union([FileSummarySchema, z.array(z.unknown())]);
  return { FileSummarySchema, FilesSchema };
});

/**
 * The files a parsed body carries under `name` (and `name[]`, as openai-node sends arrays), read from whatever
 * `parse` was given (a JSON body has none).
 */
export function formFiles(body: unknown, name: string): FileSummary[] {
  if (typeof body !== "object" || body === null) return [];
  const { FileSummarySchema, FilesSchema } = fileWire();
  return [name, `${name}[]`].flatMap((n) => {
    const v = FilesSchema.safeParse(Reflect.get(body, n));
    if (!v.success) return [];
    const all = Array.isArray(v.data) ? v.data : [v.data];
    return all.flatMap((x) => {
      const f = FileSummarySchema.safeParse(x);
      return f.success ? [f.data] : [];
    });
  });
}

/** The text values a parsed body carries under `name` and `name[]` (a JSON body's string or strings too). */
export function formStrings(body: unknown, name: string): string[] {
  if (typeof body !== "object" || body === null) return [];
  return [name, `${name}[]`].flatMap((n) => {
    const v: unknown = Reflect.get(body, n);
    const all: unknown[] = Array.isArray(v) ? v : [v];
    return all.filter((x): x is string => typeof x === "string");
  });
}
